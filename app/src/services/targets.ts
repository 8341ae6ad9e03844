// The target picker's facts: which mounted volumes are worth offering, and what any one folder
// is (volume, file system, sizes, disk, read-only), with whether a test can start there and, if
// not, why in plain words. It only reads: nothing here writes to a target.
//
// Linux lists real mounts from /proc/self/mountinfo. macOS and Windows are best effort until
// they have their own probes: the volumes holding the home folder and the temp folder (which
// core/volume.ts reports as their path roots), and any folder the user types or picks.
import { constants as fsc, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DiskDialError, plainMessage, toPlainError } from '../model/errors.js';
import { isNetworkFs, networkLabel } from '../model/network.js';
import { formatBytes } from '../model/units.js';
import { parseMountinfo, volumeInfo, type MountEntry } from '../core/volume.js';
import { FREE_SPACE_RESERVE } from '../core/workspace.js';
import type { VolumeInfo } from '../model/volume.js';
import type { TargetInfo } from '../model/history.js';

/** The smallest Quick Test (contract.ts: 16 MiB) plus the head-room a workspace keeps free. */
export const MIN_TEST_BYTES = 16 * 1024 * 1024;
export const MIN_FREE_BYTES = MIN_TEST_BYTES + FREE_SPACE_RESERVE;

/** File systems on block devices (or FUSE over one), and network shares: things with a disk. */
const DISK_FS = new Set([
  'ext2',
  'ext3',
  'ext4',
  'xfs',
  'btrfs',
  'f2fs',
  'vfat',
  'exfat',
  'fuseblk',
  'ntfs',
  'ntfs3',
  'hfsplus',
  'apfs',
  'zfs',
  'nilfs2',
  'jfs',
  'reiserfs',
]);

/** Why a test cannot start on a target, each with what to do about it (shown beside Start). */
export const TARGET_REASONS = {
  readOnly: 'This volume is mounted read-only, and a test needs to write. Choose another volume, or remount this one read-write.',
  denied:
    'You may not write to this folder, and a test needs to. Choose a folder you can write to, or give your user write access to this one.',
  full: `Not enough free space: a test needs at least ${formatBytes(MIN_FREE_BYTES)} free here. Free some space on this volume, or choose another.`,
  unresponsive: 'The volume is not responding. Check that its disk or network share is connected, then choose it again.',
} as const;
// tmpfs is not offered, not even at /tmp: it is memory, so a "disk" speed from it would mislead.
// A user who wants it anyway can type the folder (describe() accepts any folder).

/** Where the system keeps things that are not user volumes. /run/media is where desktops mount
 *  removable disks, so it is let through. /boot holds small system partitions (EFI). */
function isSystemMountPoint(mp: string): boolean {
  if (mp === '/run/media' || mp.startsWith('/run/media/')) return false;
  return ['/proc', '/sys', '/dev', '/run', '/boot', '/efi'].some((p) => mp === p || mp.startsWith(`${p}/`));
}

/** A statfs on a dead network share can block for minutes; the picker must not. */
const PROBE_TIMEOUT_MS = 3000;

/** The mounts worth offering, one per file system root, shortest mount point kept. */
export function testableMounts(entries: readonly MountEntry[]): MountEntry[] {
  const byRoot = new Map<string, MountEntry>();
  for (const e of entries) {
    if (!DISK_FS.has(e.fsType) && !isNetworkFs(e.fsType)) continue;
    if (isSystemMountPoint(e.mountPoint)) continue;
    // Network mounts share 0:N device numbers per superblock, so the key still tells shares apart.
    const key = `${e.devNumber}\0${e.root}`;
    const seen = byRoot.get(key);
    if (!seen || e.mountPoint.length < seen.mountPoint.length) byRoot.set(key, e);
  }
  // Keep mountinfo's order (the root file system first), minus the duplicates dropped above.
  const keep = new Set(byRoot.values());
  return entries.filter((e) => keep.has(e));
}

function busOf(v: VolumeInfo): string {
  if (v.disk) return v.disk.bus;
  return v.network || isNetworkFs(v.fsType) ? 'network' : 'unknown';
}

async function writeAccess(dir: string): Promise<string | undefined> {
  try {
    await fsp.access(dir, fsc.W_OK);
    return undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? 'EACCES';
  }
}

/** The TargetInfo of a folder known to exist, with the startable checks applied. */
async function describeFolder(dir: string, name: string | undefined): Promise<TargetInfo> {
  const v = await volumeInfo(dir);
  const denied = await writeAccess(dir);
  const readOnly = v.mountOptions.includes('ro') || v.superOptions.includes('ro') || denied === 'EROFS';
  const device: TargetInfo['device'] = { bus: busOf(v) };
  if (v.disk?.model) device.model = v.disk.model;
  if (v.device !== 'unknown') device.node = v.device;
  if (v.disk?.removable !== undefined) device.removable = v.disk.removable;
  if (v.disk?.rotational !== undefined) device.rotational = v.disk.rotational;
  const li = v.disk?.linkInfo;
  if (li) {
    const link: NonNullable<TargetInfo['device']['link']> = { label: li.label };
    if (li.ceilingMBps !== undefined) link.ceilingMBps = li.ceilingMBps;
    if (li.typicalMBps) link.typicalMBps = [li.typicalMBps[0], li.typicalMBps[1]];
    device.link = link;
  } else if (v.disk?.link) {
    device.link = { label: v.disk.link };
  } else if (v.network) {
    // A share's "link" is its path to the server, with the interface's ceiling when known.
    const link: NonNullable<TargetInfo['device']['link']> = { label: networkLabel(v.network) };
    if (v.network.ceilingMBps !== undefined) link.ceilingMBps = v.network.ceilingMBps;
    if (v.network.ceilingRangeMBps) link.typicalMBps = [v.network.ceilingRangeMBps[0], v.network.ceilingRangeMBps[1]];
    device.link = link;
  }
  const info: TargetInfo = {
    path: dir,
    name: name || v.label || path.basename(v.mountPoint) || v.mountPoint,
    mountPoint: v.mountPoint,
    fs: v.fsType,
    totalBytes: v.totalBytes,
    freeBytes: v.freeBytes,
    device,
    readOnly,
    startable: true,
  };
  const reason = readOnly
    ? TARGET_REASONS.readOnly
    : denied
      ? TARGET_REASONS.denied
      : v.freeBytes < MIN_FREE_BYTES
        ? TARGET_REASONS.full
        : undefined;
  if (reason) {
    info.startable = false;
    info.reason = reason;
  }
  return info;
}

function withTimeout<T>(p: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout()), ms);
    timer.unref();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** A volume that did not answer in time: shown (the user may be looking for it), not startable. */
function unresponsive(m: MountEntry): TargetInfo {
  return {
    path: m.mountPoint,
    name: path.basename(m.mountPoint) || m.mountPoint,
    mountPoint: m.mountPoint,
    fs: m.fsType,
    totalBytes: 0,
    freeBytes: 0,
    device: { bus: isNetworkFs(m.fsType) ? 'network' : 'unknown', node: m.source },
    readOnly: m.mountOptions.includes('ro'),
    startable: false,
    reason: TARGET_REASONS.unresponsive,
  };
}

/** Expands a leading ~ (people type it); everything else must already be absolute. Every door's
 *  start request goes through it once, so the checks and the test see the same folder. */
export function expandPath(input: string): string {
  if (input === '~') return os.homedir();
  if (input.startsWith('~/')) return path.join(os.homedir(), input.slice(2));
  return input;
}

export class TargetsService {
  /** A folder a test can start in, or the reason it cannot as an error with a Node-style code. */
  async assertStartable(input: string): Promise<TargetInfo> {
    const t = await this.describe(input);
    if (t.startable) return t;
    const code = t.readOnly
      ? 'EROFS'
      : t.reason === TARGET_REASONS.denied
        ? 'EACCES'
        : t.reason === TARGET_REASONS.unresponsive
          ? 'ETIMEDOUT'
          : 'ENOSPC';
    throw new DiskDialError(`${t.path}: ${t.reason ?? 'a test cannot run here.'}`, { code, path: t.path });
  }

  /** A file the user picked: its path and size. */
  async describeFile(file: string): Promise<{ path: string; bytes: number }> {
    const st = await fsp.stat(file);
    return { path: file, bytes: st.size };
  }

  /** Mounted volumes worth testing (see the file header for what each platform lists). */
  async list(): Promise<TargetInfo[]> {
    if (process.platform !== 'linux') return this.#listFallback();
    let entries: MountEntry[];
    try {
      entries = parseMountinfo(await fsp.readFile('/proc/self/mountinfo', 'utf8'));
    } catch {
      return this.#listFallback();
    }
    const infos = await Promise.all(
      testableMounts(entries).map(async (m): Promise<TargetInfo | undefined> => {
        const probe = async (): Promise<TargetInfo | undefined> => {
          // A bind-mounted file (containers do this for /etc/hosts) is not a place to test.
          const st = await fsp.stat(m.mountPoint).catch(() => undefined);
          if (!st?.isDirectory()) return undefined;
          return describeFolder(m.mountPoint, undefined);
        };
        return withTimeout(
          probe().catch(() => undefined),
          PROBE_TIMEOUT_MS,
          () => unresponsive(m),
        );
      }),
    );
    return infos.filter((i): i is TargetInfo => i !== undefined);
  }

  /** One folder, typed or picked: it must exist and be a folder. */
  async describe(input: string): Promise<TargetInfo> {
    const expanded = expandPath(input);
    if (expanded.includes('\0'))
      throw new DiskDialError('A folder path cannot contain a NUL character.', { code: 'ERR_INVALID_PATH', category: 'input' });
    if (!path.isAbsolute(expanded)) {
      throw new DiskDialError(`Type the full path of a folder (starting with ${path.parse(process.cwd()).root}), not "${input}".`, {
        code: 'ERR_INVALID_PATH',
        category: 'input',
      });
    }
    const dir = path.resolve(expanded);
    let st;
    try {
      st = await fsp.stat(dir);
    } catch (err) {
      throw toPlainError(err, { path: dir, category: 'input' });
    }
    if (!st.isDirectory()) {
      throw new DiskDialError(plainMessage('ENOTDIR', dir)!, {
        code: 'ENOTDIR',
        syscall: 'stat',
        path: dir,
        category: 'input',
      });
    }
    return describeFolder(dir, path.basename(dir) || dir);
  }

  // macOS/Windows: the volumes holding the home and temp folders, one entry per volume. The
  // entry's path is the folder itself, not the volume root: macOS's root is a sealed read-only
  // system volume and C:\ often needs admin rights, while home and temp are writable.
  async #listFallback(): Promise<TargetInfo[]> {
    const out: TargetInfo[] = [];
    for (const dir of [os.homedir(), os.tmpdir()]) {
      try {
        const v = await volumeInfo(dir);
        if (out.some((t) => t.mountPoint === v.mountPoint)) continue;
        out.push(await describeFolder(path.resolve(dir), undefined));
      } catch {
        /* best effort */
      }
    }
    return out;
  }
}
