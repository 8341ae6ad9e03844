// What views of a saved share test show: its title, its figures (the server's disk, the ceiling
// from the server's memory, a small file's operations, the round trip), its two verdicts in the
// one renderer's words (model/verdict/share.ts), and what makes two of them comparable.
import { groupMetrics, sizeText, type Metric } from '../../report/figure-text.js';
import { shareText } from '../../verdict/share.js';
import type { KindModule } from '../types.js';
import type { ShareSection } from './result.js';
import { shareSectionReport, shareStatements } from './section.js';

const GROUP = 'Share';

export const shareReport = {
  // The large file as it was chosen (settings.size): "128 MiB read cold", not the "134 MB" it is.
  titleParts: (doc) => (doc.share ? [`${sizeText(doc.settings.size)} read cold, ${doc.share.files} small files`] : undefined),
  metrics: (doc) => (doc.share ? { metrics: shareMetrics(doc.share) } : undefined),
  stepsArePrimary: false,
  comparable: (doc, f) => {
    if (!doc.share) return false;
    f.set('large file', sizeText(doc.settings.size));
    f.set('small files', String(doc.share.files));
    return true;
  },
  figureGroup: { group: GROUP, present: (doc) => doc.share !== undefined },
  testsTitle: "The server's disk, its memory and small files",
  claims: (doc) =>
    (doc.share?.runs ?? []).flatMap((r) => [
      { where: `share run ${r.run}`, claim: r.verdict },
      { where: `share small files run ${r.run}`, claim: r.fileVerdict },
    ]),
  verdictLine: (doc) => {
    const r = doc.share?.runs.at(-1);
    return r ? shareText(r.verdict) : undefined;
  },
  statements: (doc) => (doc.share ? shareStatements(doc.share) : []),
  sections: [shareSectionReport],
  textBlock: (doc) => {
    const s = doc.share;
    if (!s) return undefined;
    return { heading: '[Share]', rows: shareStatements(s).map(({ label, text }) => [label, text] as [string, string]) };
  },
} as const satisfies KindModule['report'];

function shareMetrics(s: ShareSection): Metric[] {
  const m = groupMetrics(GROUP);
  const r = s.runs;
  const out = [
    m(
      'ceilingMBps',
      "read from the server's memory",
      'MB/s',
      true,
      r.map((x) => x.verdict.figures.ceilingMBps),
      true,
    ),
    m(
      'diskReadMBps',
      "server's disk, read cold",
      'MB/s',
      true,
      r.map((x) => x.diskReadMBps),
      true,
    ),
    m(
      'diskWriteMBps',
      "server's disk, write",
      'MB/s',
      true,
      r.map((x) => x.diskWriteMBps),
      true,
    ),
    m(
      'fileMs',
      'small file open+stat+read+close',
      'ms',
      false,
      r.map((x) => x.fileVerdict.figures.fileMs),
      false,
    ),
  ];
  if (s.rttMs !== undefined)
    out.push(
      m(
        'rttMs',
        'round trip to the server',
        'ms',
        false,
        r.map(() => s.rttMs!),
        false,
      ),
    );
  return out;
}
