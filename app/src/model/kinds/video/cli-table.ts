// `diskdial run --test quick --video`: "Will it work?" on the terminal after the result — a
// table per format family at the chosen frame rate, ✓/✗/? for recording (write) and playing
// (read), what each format needs with the margin kept against the measured mean, and how the
// verdicts were reached (the words are will-it-work-words.ts's, as every surface's).
import { formatFps } from './math.js';
import type { WillItWork } from './will-it-work.js';
import { fastText, mbpsText, measuredLine, sideMark, workNotes } from './will-it-work-words.js';
import { renderTable } from '../../report/text-table.js';

/** The section as printed; a line saying why there is none when the result gave no speeds. */
export function formatWillItWorkTable(v: WillItWork | null): string {
  if (!v || v.rows.length === 0) return '\nWill it work? needs a write and a read speed; this result has none to judge by.\n';
  const out = ['', `Will it work? At ${formatFps(v.fps)} fps. ${measuredLine(v)}`];
  for (const fam of [...new Set(v.rows.map((r) => r.familyLabel))]) {
    const rows = v.rows
      .filter((r) => r.familyLabel === fam)
      .map((r) => [
        r.format,
        r.resolution,
        `${mbpsText(r.needsMBps)}${r.estimated ? '*' : ' '}`,
        sideMark(r.write),
        sideMark(r.read),
        fastText(r.write.maxFps),
        fastText(r.read.maxFps),
      ]);
    out.push(
      '',
      renderTable([fam, 'Res', 'Needs w/ margin MB/s', 'Write', 'Read', 'Write fps', 'Read fps'], rows, [
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
  out.push('', ...workNotes(v));
  return `${out.join('\n')}\n`;
}
