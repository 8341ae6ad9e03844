// What views of a saved small-file test show: its title, its figures (files/s, ms per file, the
// payload rates, each operation's p50 and p99) and what makes two of them comparable.
import { groupMetrics, type Metric } from '../../report/figure-text.js';
import { formatBytesBinary } from '../../units.js';
import type { KindModule } from '../types.js';
import { SMALL_FILES_OPS, type SmallFilesSection } from './result.js';

export const smallFilesReport = {
  titleParts: (doc) =>
    doc.smallFiles ? [`${doc.smallFiles.count.toLocaleString('en-US')} × ${formatBytesBinary(doc.smallFiles.fileBytes)}`] : undefined,
  metrics: (doc) => (doc.smallFiles ? { metrics: smallFilesMetrics(doc.smallFiles) } : undefined),
  stepsArePrimary: false,
  comparable: (doc, f) => {
    if (!doc.smallFiles) return false;
    f.set('files', `${doc.smallFiles.count} × ${formatBytesBinary(doc.smallFiles.fileBytes)}`);
    return true;
  },
  figureGroup: { group: 'Small files', present: (doc) => doc.smallFiles !== undefined },
  testsTitle: 'All files, every operation',
} as const satisfies KindModule['report'];

function smallFilesMetrics(s: SmallFilesSection): Metric[] {
  const m = groupMetrics('Small files');
  const runs = s.runs;
  const out = [
    m(
      'filesPerSecond',
      'files/s',
      'files/s',
      true,
      runs.map((r) => r.filesPerSecond),
      true,
    ),
    m(
      'msPerFile',
      'ms per file',
      'ms',
      false,
      runs.map((r) => r.msPerFile),
      true,
    ),
    m(
      'fileP99Ms',
      'p99 per file',
      'ms',
      false,
      runs.map((r) => r.fileP99Ms),
      false,
    ),
    m(
      'writeMBps',
      'write payload',
      'MB/s',
      true,
      runs.map((r) => r.writeMBps),
      true,
    ),
    m(
      'readMBps',
      'read payload',
      'MB/s',
      true,
      runs.map((r) => r.readMBps),
      true,
    ),
  ];
  for (const op of SMALL_FILES_OPS) {
    const of = (r: (typeof runs)[number]) => r.ops.find((x) => x.op === op);
    if (!runs.every((r) => of(r))) continue;
    out.push(
      m(
        `${op}.p50Ms`,
        `${op} p50`,
        'ms',
        false,
        runs.map((r) => of(r)!.p50Ms),
        false,
      ),
      m(
        `${op}.p99Ms`,
        `${op} p99`,
        'ms',
        false,
        runs.map((r) => of(r)!.p99Ms),
        false,
      ),
    );
  }
  return out;
}
