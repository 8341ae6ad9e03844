// The verify test's plan: fill the free space (less the reserve, or up to --size) with test files of
// at most 1 GiB whose every 4 KiB block names itself, write ALL of them first, then read every one
// back and check it. A drive that wraps or drops writes beyond its real size only shows it once
// everything is written: reading each file back right after writing it would find it intact.
// On a whole device (PlanTarget.wholeDevice) the same, in regions of the device instead of files: a
// stop keeps the regions read back.
import type { EngineSpec } from '../../engine-types.js';
import { inputError } from '../../errors.js';
import { formatBytes } from '../../units.js';
import { echoSettings, GiB, MiB, usable, type Plan, type PlanOptions, type PlanStep, type PlanTarget } from '../plan.js';

/** The engine's verify block: every block carries the seed, its number and a checksum. */
export const VERIFY_BLOCK_BYTES = 4096;
/** The largest test file (a volume is filled with several). */
export const VERIFY_FILE_BYTES = GiB;
/** The least worth verifying. */
export const VERIFY_MIN_BYTES = 64 * MiB;
/** The most one run verifies (65,536 files): a bigger drive is verified up to --size in parts. */
export const VERIFY_MAX_BYTES = 64 * 1024 * GiB;
const BS = MiB;
/** A device is done in at least this many regions (a stop keeps whole regions), each ≤ 1 GiB. */
const DEVICE_PARTS = 16;

/** The size of a whole device's regions: 1 GiB, or a sixteenth of a small device (≥ 1 MiB). */
export function deviceRegionBytes(total: number): number {
  return Math.min(VERIFY_FILE_BYTES, Math.max(BS, Math.floor(total / DEVICE_PARTS / BS) * BS));
}

/** One test file of the run: its name in the workspace, its size, and its first block's number. */
export interface VerifyFile {
  name: string;
  bytes: number;
  baseBlock: number;
}

/** How the plan was sized and laid out (what the analysis and the verdict need of it). */
export interface VerifyLayout {
  /** --size: the most to verify; absent: the free space less the reserve (a device: all of it). */
  requestedBytes?: number;
  /** device: a whole device, in regions of it rather than files. */
  limitedBy: 'size' | 'free-space' | 'device';
  reserveBytes: number;
  /** The volume's size as it reports it. */
  reportedBytes: number;
  /** Bytes in use on the volume before the run: positions said on the volume start after them. */
  startBytes: number;
  /** A whole device: `files` are regions of it, block b at byte b × 4 KiB. */
  device?: true;
  /** The run's seed (the same for its writes and reads; a fresh one per plan). */
  seed: number;
  files: VerifyFile[];
}

declare module '../plan.js' {
  interface Plan {
    /** verify test: its files and how the size was chosen. */
    verify?: VerifyLayout;
  }
}

/** A fresh 53-bit seed: a stale block left by an earlier run never passes for this run's. */
function freshSeed(): number {
  const [hi, lo] = crypto.getRandomValues(new Uint32Array(2)) as unknown as [number, number];
  return (hi & 0x1fffff) * 2 ** 32 + lo;
}

export function verifyPlan(o: PlanOptions, target?: PlanTarget, seed = freshSeed()): Plan {
  if (o.seconds !== undefined)
    throw inputError('the verify test checks every byte it writes, so it is bounded by bytes, not seconds; use --size');
  if (o.pattern !== undefined && o.pattern !== 'verify')
    throw inputError(`the verify test writes blocks that name themselves; --pattern ${o.pattern} does not apply`);
  const device = target?.wholeDevice === true;
  const { usable: room, reserve } = device ? { usable: target.totalBytes, reserve: 0 } : usable(o, target, 'verify');
  const requested = Math.min(o.size ?? (device ? room : VERIFY_MAX_BYTES), VERIFY_MAX_BYTES);
  const limitedBy = device && requested >= room ? 'device' : room < requested ? 'free-space' : 'size';
  const total = Math.floor(Math.min(requested, room) / BS) * BS;
  if (device && total < BS) throw inputError(`The device holds ${formatBytes(room)}: too small to verify (at least 1 MiB).`);
  if (!device && total < Math.min(VERIFY_MIN_BYTES, Math.max(BS, requested))) {
    throw inputError(
      `Not enough free space to verify: ${formatBytes(target!.freeBytes)} free, ${formatBytes(reserve)} kept in reserve. Free some space or lower the reserve.`,
      'ENOSPC',
    );
  }
  const files: VerifyFile[] = [];
  const part = device ? deviceRegionBytes(total) : VERIFY_FILE_BYTES;
  for (let at = 0; at < total; at += part) {
    const bytes = Math.min(part, total - at);
    const name = device ? `region-${String(files.length).padStart(5, '0')}` : `verify-${String(files.length).padStart(5, '0')}.dat`;
    files.push({ name, bytes, baseBlock: at / VERIFY_BLOCK_BYTES });
  }
  const cache = o.cache ?? 'auto';
  const step = (f: VerifyFile, rw: 'write' | 'read', i: number): PlanStep => {
    const spec: Omit<EngineSpec, 'path'> = {
      rw,
      bs: BS,
      // Writes one at a time: a file system places a file's blocks in the order they arrive, and
      // in order they lie on the volume as they lie in the run, so a position found is the volume's.
      qd: o.qd ?? (rw === 'write' ? 1 : 8),
      threads: 1,
      fileSize: f.bytes,
      pattern: 'verify',
      cache,
      seed,
      verify: { baseBlock: f.baseBlock },
      // The files stay until the end of the run (the runner's workspace removes them whatever happens).
      keepFile: true,
      // A device's region is where its blocks lie on it: block b at byte b × 4 KiB.
      ...(device ? { device: true, offset: f.baseBlock * VERIFY_BLOCK_BYTES } : {}),
    };
    const name = `${rw === 'write' ? 'Write' : 'Read and verify'} ${i + 1} of ${files.length}`;
    return { name, spec, ...(device ? {} : { file: f.name }), fileIndex: i, pass: rw };
  };
  const steps = [...files.map((f, i) => step(f, 'write', i)), ...files.map((f, i) => step(f, 'read', i))];
  const notes =
    limitedBy === 'free-space' && o.size !== undefined
      ? [
          `Verifying ${formatBytes(total)}, not ${formatBytes(requested)}: that is what free space allows with ${formatBytes(reserve)} kept free.`,
        ]
      : [];
  const settings = echoSettings(o, total, 'verify', cache);
  settings.reserveBytes = reserve;
  const used = target && target.totalBytes > 0 && !device ? Math.max(0, target.totalBytes - target.freeBytes) : 0;
  return {
    kind: 'verify',
    fileSize: total,
    needBytes: total,
    steps,
    settings,
    notes,
    verify: {
      ...(o.size !== undefined ? { requestedBytes: o.size } : {}),
      limitedBy,
      reserveBytes: reserve,
      reportedBytes: target?.totalBytes ?? 0,
      ...(device ? { device: true as const } : {}),
      startBytes: used,
      seed,
      files,
    },
  };
}
