// `diskdial run --test quick --video`: "Will it work?" on the terminal after the result — a
// table per format family at the chosen frame rate, ✓/✗ for recording (write) and playing
// (read), the rate each format needs with the margin kept, and how the verdicts were reached.
import { formatMBpsFigure } from '../model/units.js';
import { formatFps } from '../model/video/math.js';
import { okMark, type VideoVerdicts } from '../model/video/will-it-work.js';
import { renderTable } from './table.js';

/** The section as printed; a line saying why there is none when the result gave no speeds. */
export function formatVideoTable(v: VideoVerdicts | null): string {
  if (!v || v.rows.length === 0) return '\nWill it work? needs a write and a read speed; this result has none to judge by.\n';
  const out = [
    '',
    `Will it work? At ${formatFps(v.fps)} fps, from write ${formatMBpsFigure(v.sustainedMBps.write)} MB/s and read ${formatMBpsFigure(v.sustainedMBps.read)} MB/s average`,
  ];
  for (const fam of [...new Set(v.rows.map((r) => r.familyLabel))]) {
    const rows = v.rows
      .filter((r) => r.familyLabel === fam)
      .map((r) => [
        r.format,
        r.resolution,
        `${formatMBpsFigure(r.needsMBps)}${r.estimated ? '*' : ' '}`,
        `${okMark(r.write.ok)}${r.paced ? '†' : ''}`,
        `${okMark(r.read.ok)}${r.paced ? '†' : ''}`,
        r.write.maxFps.toLocaleString('en-US'),
        r.read.maxFps.toLocaleString('en-US'),
      ]);
    out.push(
      '',
      renderTable([fam, 'Res', 'Needs MB/s', 'Write', 'Read', 'Write fps', 'Read fps'], rows, [
        false,
        false,
        true,
        false,
        false,
        true,
        true,
      ]),
    );
  }
  out.push('', v.method);
  // A row a frame-paced test decided says which test, as the exports do.
  const paced = v.rows.filter((r) => r.paced);
  if (paced.length > 0) {
    out.push(v.pacedMethod ?? '');
    for (const r of paced)
      out.push(`† ${r.format} ${r.resolution}: ${r.paced!.note} (${r.paced!.resultId.slice(0, 8)}): ${r.paced!.verdict}`);
  }
  if (v.rows.some((r) => r.estimated)) out.push('* Estimate: scaled by pixel count or frame rate from a published figure.');
  if (v.caveat) out.push(`⚠ ${v.caveat}`);
  return `${out.join('\n')}\n`;
}
