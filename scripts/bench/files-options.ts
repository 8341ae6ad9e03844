// bench:files' options: its flags, their help text and checks, its target, and how it prints sizes
// (scripts/bench-files.ts).
import os from 'node:os';
import { DEFAULT_FILES_SEED, FILES_PRESET_OPTIONS, type FileSetOptions } from '../../app/src/model/file-set.js';
import { parseSize } from '../../app/src/model/units.js';
import { GiB, parseArgv } from './common.js';

export interface Options {
  dir: string;
  preset: 'quick' | 'standard' | 'default';
  set: FileSetOptions;
  qd: number;
  rounds: number;
  write: boolean;
  perFile: boolean;
  drop: boolean;
  json: boolean;
}

/** The default set: small enough for a run of a few minutes on a ~1.5 GB/s disk, the presets' shape. */
export const TARGET = 0.9;
/** Free space left untouched on top of the set. */
export const HEADROOM = GiB;

export const DEFAULT_SET = { count: 60, minBytes: 2e6, maxBytes: 2e8 };

export const HELP = `usage: npm run bench:files -- [options]

  --dir DIR         file system to test: a fresh folder is made (and removed) inside DIR
                    (default: ${os.tmpdir()})
  --preset P        quick (40 files, 2MB-600MB, ~5 GB) or standard (160 files, 2MB-2GB, ~53 GB):
                    the many-file test's own sets (default: 60 files, 2MB-200MB, ~3.4 GB)
  --files N         number of files (overrides the preset's)
  --min-size SIZE   smallest file (overrides the preset's; 2MB = 2*10^6 bytes, 2MiB = 2*2^20,
                    as the app's --min-size)
  --max-size SIZE   largest file (overrides the preset's)
  --seed N          seed of the set (default ${DEFAULT_FILES_SEED}, the app's)
  --qd N            queue depth of both tools (default 8, the many-file test's)
  --rounds N        rounds of engine/fio read pairs (default 5, at least 3)
  --no-write        skip the informational write comparison (fio writing a fresh copy of the set)
  --no-per-file     skip the per-file fio pass (the verdict then falls back to the stream)
  --no-drop         do not drop the page cache before each pass (sync only)
  --json            print a JSON document on stdout; the human report goes to stderr
  --help`;

export function parseArgs(argv: string[]): Options {
  // The set's own flags (count, sizes, seed) override the preset's figures only when given.
  const own: Omit<Options, 'dir' | 'json' | 'set'> & Partial<FileSetOptions> = {
    preset: 'default',
    qd: 8,
    rounds: 5,
    write: true,
    perFile: true,
    drop: true,
  };
  const choosePreset = (p: string): void => {
    if (p !== 'quick' && p !== 'standard') throw new Error(`--preset must be quick or standard, not ${p}`);
    own.preset = p;
  };
  const common = parseArgv(argv, HELP, own, {
    numbers: { '--qd': 'qd', '--rounds': 'rounds', '--files': 'count', '--seed': 'seed' },
    sizes: { '--min-size': 'minBytes', '--max-size': 'maxBytes' },
    size: parseSize,
    off: { '--no-write': 'write', '--no-per-file': 'perFile', '--no-drop': 'drop' },
    custom: { '--preset': choosePreset },
  });
  const { count, minBytes, maxBytes, seed, ...rest } = own;
  const over = Object.fromEntries(Object.entries({ count, minBytes, maxBytes, seed }).filter(([, v]) => v !== undefined));
  const quick = common.quick;
  const base = own.preset === 'default' ? DEFAULT_SET : FILES_PRESET_OPTIONS[own.preset];
  const o: Options = { ...rest, dir: common.dir, json: common.json, set: { ...base, seed: DEFAULT_FILES_SEED, ...over } };
  if (!Number.isInteger(o.rounds) || o.rounds < (quick ? 1 : 3)) throw new Error('--rounds must be an integer >= 3');
  if (!Number.isInteger(o.qd) || o.qd < 1 || o.qd > 64) throw new Error('--qd must be an integer from 1 to 64');
  return o;
}

export const gb = (bytes: number): string => `${(bytes / 1e9).toFixed(2)} GB`;
export const mbSize = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
