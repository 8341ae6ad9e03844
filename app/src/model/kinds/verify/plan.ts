// The verify test's plan: fill the free space (less the reserve, or up to --size) with test files of
// at most 1 GiB whose every 4 KiB block names itself, write ALL of them first, then read every one
// back and check it. A drive that wraps or drops writes beyond its real size only shows it once
// everything is written: reading each file back right after writing it would find it intact.
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

/** One test file of the run: its name in the workspace, its size, and its first block's number. */
export interface VerifyFile {
  name: string;
  bytes: number;
  baseBlock: number;
}

/** How the plan was sized and laid out (what the analysis and the verdict need of it). */
export interface VerifyLayout {
  /** --size: the most to verify; absent: the free space less the reserve. */
  requestedBytes?: number;
  limitedBy: 'size' | 'free-space';
  reserveBytes: number;
  /** The volume's size as it reports it. */
  reportedBytes: number;
  /** Bytes in use on the volume before the run: positions said on the volume start after them. */
  startBytes: number;
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
  const { usable: room, reserve } = usable(o, target, 'verify');
  const requested = Math.min(o.size ?? VERIFY_MAX_BYTES, VERIFY_MAX_BYTES);
  const limitedBy = room < requested ? 'free-space' : 'size';
  const total = Math.floor(Math.min(requested, room) / BS) * BS;
  if (total < Math.min(VERIFY_MIN_BYTES, Math.max(BS, requested))) {
    throw inputError(
      `Not enough free space to verify: ${formatBytes(target!.freeBytes)} free, ${formatBytes(reserve)} kept in reserve. Free some space or lower the reserve.`,
      'ENOSPC',
    );
  }
  const files: VerifyFile[] = [];
  for (let at = 0; at < total; at += VERIFY_FILE_BYTES) {
    const bytes = Math.min(VERIFY_FILE_BYTES, total - at);
    files.push({ name: `verify-${String(files.length).padStart(5, '0')}.dat`, bytes, baseBlock: at / VERIFY_BLOCK_BYTES });
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
    };
    const name = `${rw === 'write' ? 'Write' : 'Read and verify'} ${i + 1} of ${files.length}`;
    return { name, spec, file: f.name, fileIndex: i, pass: rw };
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
  const used = target && target.totalBytes > 0 ? Math.max(0, target.totalBytes - target.freeBytes) : 0;
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
      startBytes: used,
      seed,
      files,
    },
  };
}
