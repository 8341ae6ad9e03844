// The verify test on the command line: its --reserve flag, the common flags it refuses, its line
// under `run --help`, the size it was asked (the report's unit system), and its lines under the
// CLI's table (what was verified, the verdict, both curves as sparklines, the first bad runs).
import type { VerifyRun } from '../../engine-types.js';
import { mbText as mb } from '../../report/text-table.js';
import type { ResultDocument } from '../../result.js';
import { sizeInUnits, type SizeUnits } from '../../size-units.js';
import { positionText } from '../../verdict/capacity.js';
import { sparkline } from '../sustained/cli.js';
import type { KindModule } from '../types.js';
import { verifyVerdictText } from './report.js';
import type { VerifySection } from './result.js';

const FIXED = 'does not apply to --test verify: it writes and reads back 1 MiB blocks, one file at a time';
/** The bad runs the table lists before "and N more". */
const SHOWN_RUNS = 5;

export const verifyCli = {
  flags: { reserve: 'string' },
  refuse: {
    seconds: '--seconds does not apply to --test verify: it checks every byte it writes, so it is bounded by bytes, not time; use --size',
    bs: `--bs ${FIXED}`,
    threads: `--threads ${FIXED}`,
    runs: '--runs does not apply to --test verify: one pass writes the whole free space and reads it all back',
    loop: '--loop does not apply to --test verify: one pass writes the whole free space and reads it all back',
  },
  summary: `fill the free space less --reserve (or --size) with files whose
every 4 KiB block names itself, then read them all back: the drive's
real capacity (a fake that wraps or drops writes), any block read back
wrong, and the write and read curves across the whole volume`,
  // A whole device has no test file: the header says how much of the disk the run wrote.
  fileText: (doc, units) =>
    doc.verify?.device ? `whole disk, ${sizeInUnits(doc.verify.plannedBytes, units)} written from its first byte` : undefined,
  askedSizes: (doc) => (doc.verify?.requestedBytes !== undefined ? [doc.verify.requestedBytes] : undefined),
  tableLines: (doc, units) => verifyLines(doc, units),
} as const satisfies KindModule['cli'];

/** `diskdial verify --device DEV --confirm NAME`: the whole unmounted disk, under the wizard's rules. */
export const verifyDevice = {
  command: 'verify',
  usage: `write the whole unmounted disk with blocks that name
                                 themselves, then read it all back: its real capacity and
                                 every block read back wrong (everything on it is erased)`,
  examples: ['diskdial verify --device /dev/sdb --confirm "Samsung T7"', 'diskdial verify --device /dev/sdc --confirm "Cruzer" --json'],
} as const satisfies KindModule['wholeDevice'];

function runText(s: VerifySection, r: VerifyRun): string {
  const f = s.verdict.figures;
  const n = r.blocks.toLocaleString('en-US');
  const what =
    r.kind === 'aliased'
      ? `held the block written at ${positionText(f, r.held ?? 0)}`
      : r.kind === 'corrupted'
        ? `corrupted (${(r.bits ?? 0).toLocaleString('en-US')} ${r.bits === 1 ? 'bit' : 'bits'} wrong)`
        : r.kind === 'stale'
          ? 'held other data'
          : `read back as ${r.kind}`;
  return `  ${n} ${r.blocks === 1 ? 'block' : 'blocks'} from ${positionText(f, r.block)}: ${what}`;
}

function verifyLines(doc: ResultDocument, units: SizeUnits): string[] {
  const s = doc.verify;
  if (!s) return [];
  const size = (b: number): string => sizeInUnits(b, units);
  const why =
    s.limitedBy === 'device'
      ? 'the whole device'
      : s.limitedBy === 'free-space'
        ? `the free space, ${size(s.reserveBytes)} kept free`
        : `the size asked, ${size(s.requestedBytes ?? s.plannedBytes)}`;
  const parts = s.device
    ? `${s.files} ${s.files === 1 ? 'region' : 'regions'} of the device`
    : `${s.files} ${s.files === 1 ? 'file' : 'files'}`;
  const out = [
    '',
    `Verify: ${parts}, ${size(s.writtenBytes)} written, ${size(s.checkedBytes)} read back and checked (${why})`,
    verifyVerdictText(s),
  ];
  for (const [label, curve] of [
    ['write', s.writeCurve],
    ['read ', s.readCurve],
  ] as const) {
    if (curve.length === 0) continue;
    const peak = Math.max(...curve.map((p) => p.mbps));
    out.push(`  ${label} ${sparkline(curve.map((p) => p.mbps))}  (peak ${mb(peak)} MB/s, ${curve.length} slices of ${size(s.sliceBytes)})`);
  }
  if (s.runs.length > 0) {
    out.push('Read back wrong:', ...s.runs.slice(0, SHOWN_RUNS).map((r) => runText(s, r)));
    const more = s.runs.length - SHOWN_RUNS;
    if (more > 0 || s.runsTruncated)
      out.push(s.runsTruncated ? '  and more bad runs' : `  and ${more.toLocaleString('en-US')} more bad runs`);
  }
  return out;
}
