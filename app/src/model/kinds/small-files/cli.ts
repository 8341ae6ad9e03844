// The small-file test on the command line: its flags, the common flags it refuses, its line under
// `run --help`, its --files/--file-size set, and its lines under the CLI's table.
import { mbText as mb, renderTable } from '../../report/text-table.js';
import { formatBytesBinary, parseSize, parseWholeNumber } from '../../units.js';
import type { KindModule } from '../types.js';
import { SMALL_FILE_MAX_BYTES, SMALL_FILE_MIN_BYTES, SMALL_FILES_MAX_COUNT, SMALL_FILES_PRESETS, type SmallFilesSet } from './plan.js';

const NOT_FOR_SMALL = 'does not apply to --test small-files: each file is written and read whole, one file at a time';

export const smallFilesCli = {
  flags: { preset: 'string', files: 'string', 'file-size': 'string' },
  presets: SMALL_FILES_PRESETS,
  flagRange: { files: `1-${SMALL_FILES_MAX_COUNT}` },
  refuse: {
    size: '--size does not apply to --test small-files: use --files and --file-size (or --preset nas)',
    bs: `--bs ${NOT_FOR_SMALL}`,
    qd: `--qd ${NOT_FOR_SMALL}`,
    threads: `--threads ${NOT_FOR_SMALL}`,
    seconds: '--seconds does not apply to --test small-files: it is bounded by its files, not time',
  },
  summary: `create, write, fsync, close, stat, open, read and delete --files N
files of --file-size each, every operation timed. --preset quick
(1,000 x 4 KiB; default) or nas (25,600 x 4 KiB = 100 MiB). Measures
the file system and a share's round trips, not only the disk`,
  // --files and --file-size: the set (the plan checks the ranges again, for every door).
  parse: (flag) => {
    const set: SmallFilesSet = {};
    const files = flag('files');
    const size = flag('file-size');
    if (files !== undefined) set.count = parseWholeNumber(files, 'files', 1, SMALL_FILES_MAX_COUNT);
    if (size !== undefined) {
      set.fileBytes = parseSize(size, '--file-size');
      if (set.fileBytes < SMALL_FILE_MIN_BYTES || set.fileBytes > SMALL_FILE_MAX_BYTES)
        throw new Error(`--file-size must be from 4KiB to 1MiB, not ${size}`);
    }
    return Object.keys(set).length > 0 ? { smallFiles: set } : {};
  },
  fileText: (doc) =>
    doc.smallFiles ? `${doc.smallFiles.count.toLocaleString('en-US')} files of ${formatBytesBinary(doc.smallFiles.fileBytes)}` : undefined,
  // What it measures, then per run the per-file figures and a row per operation kind.
  tableLines: (doc) => {
    const s = doc.smallFiles;
    if (!s) return [];
    const ms = (x: number): string => (x >= 10 ? x.toFixed(1) : x.toFixed(3));
    // The scope (what the figures are of) is among the notes under the title.
    const out = ['', `Small files: ${s.count.toLocaleString('en-US')} files of ${formatBytesBinary(s.fileBytes)}, one at a time`];
    for (const r of s.runs) {
      out.push(
        `${doc.settings.runs > 1 ? `Run ${r.run}: ` : ''}${mb(r.filesPerSecond)} files/s, ${ms(r.msPerFile)} ms per file (p50 ${ms(r.fileP50Ms)}, p99 ${ms(r.fileP99Ms)}); payload ${mb(r.writeMBps)} MB/s written, ${mb(r.readMBps)} MB/s read`,
      );
      out.push(
        renderTable(
          ['Operation', 'p50 ms', 'p99 ms', 'max ms', 'total ms'],
          r.ops.map((o) => [o.op, ms(o.p50Ms), ms(o.p99Ms), ms(o.maxMs), ms(o.totalMs)]),
          [false, true, true, true, true],
        ),
      );
    }
    return out;
  },
} as const satisfies KindModule['cli'];
