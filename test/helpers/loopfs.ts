// Real file systems for tests: sparse image file -> loop device -> mkfs -> mount, and a teardown
// that always runs (explicit cleanup, cleanupAllLoopFs, process exit, and a sweep of leftovers of
// killed runs on the next use). Needs root; every command is argv (execFile), never a shell string.
//
// O_DIRECT on this kind of machine (Linux 6.18, loop devices over a sparse file on ext4, probed with
// a C program: open(O_CREAT|O_WRONLY|O_DIRECT), pwrite/pread of 512 B, 4 KiB and 1 MiB from an
// mmap'd buffer, a pwrite from a misaligned buffer, statx(STATX_DIOALIGN), then mincore() on the
// file after 4 MiB of O_DIRECT writes and reads, and /proc/meminfo "Buffers" around a fio
// --direct=1 write):
//
//   fs     | O_DIRECT open | aligned I/O | misaligned buffer   | STATX_DIOALIGN | truly uncached?
//   -------+---------------+-------------+---------------------+----------------+------------------
//   ext4   | ok            | ok          | EINVAL              | mem 512/off 512| yes
//   xfs    | ok            | ok          | EINVAL              | mem 512/off 512| yes
//   btrfs  | ok            | ok          | accepted (btrfs     | not reported   | yes for aligned
//          |               |             | falls back to       |                | I/O (no pages
//          |               |             | buffered silently)  |                | left in cache)
//   exfat  | ok            | ok          | accepted            | not reported   | NO: file pages stay
//   (fuse) |               |             |                     |                | out of the cache, but
//   ntfs   | ok            | ok          | accepted            | not reported   | the daemon writes the
//   (fuse) |               |             |                     |                | loop device buffered:
//          |               |             |                     |                | a 32 MiB direct write
//          |               |             |                     |                | grew Buffers ~32 MiB
//   tmpfs  | ok (since 6.6)| ok          | accepted            | not reported   | NO: it is memory
//
// So: ext4/xfs/btrfs reach real direct I/O; fuseblk (exfat-fuse, ntfs-3g) and tmpfs accept the
// flag but cannot be uncached. The loop device itself is buffered over its image file unless
// `directIo: true` (losetup --direct-io=on); O_DIRECT above still skips the file system's cache.
// /proc/self/mounts names exfat-fuse and ntfs-3g mounts `fuseblk`.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

export type FsKind = 'ext4' | 'xfs' | 'btrfs' | 'exfat' | 'ntfs' | 'tmpfs';

export interface MountedFs {
  kind: FsKind;
  /** The mount point (mode 1777 where the file system keeps modes). */
  dir: string;
  /** /dev/loopN; absent for tmpfs. */
  device?: string;
  /** The sparse image file behind the loop device; absent for tmpfs. */
  image?: string;
  readOnly: boolean;
  remount(opts: { readOnly: boolean }): Promise<void>;
  cleanup(): Promise<void>;
}

export interface MountOptions {
  sizeMiB?: number;
  readOnly?: boolean;
  /** Extra `-o` options, e.g. ['noatime']. */
  mountOptions?: string[];
  /** Bind the loop device with --direct-io=on, so it does not cache its image file. */
  directIo?: boolean;
}

/** Smallest size each mkfs accepts (xfs refuses < 300 MiB; btrfs needs ~114 MiB). */
export const DEFAULT_SIZE_MIB: Readonly<Record<FsKind, number>> = {
  ext4: 64,
  xfs: 300,
  btrfs: 128,
  exfat: 64,
  ntfs: 64,
  tmpfs: 64,
};

/** What /proc/self/mounts calls each kind. */
export const MOUNT_TYPE: Readonly<Record<FsKind, string>> = {
  ext4: 'ext4',
  xfs: 'xfs',
  btrfs: 'btrfs',
  exfat: 'fuseblk',
  ntfs: 'fuseblk',
  tmpfs: 'tmpfs',
};

const FUSE_KINDS: ReadonlySet<FsKind> = new Set(['exfat', 'ntfs']);

/** The command that makes each kind, and the Debian package that ships it. */
const MKFS: Record<Exclude<FsKind, 'tmpfs'>, { cmd: string; args: string[]; pkg: string }> = {
  // Inode tables and journal zeroed now, not by the ext4lazyinit thread after mount, inside the
  // tests' timed I/O.
  ext4: { cmd: 'mkfs.ext4', args: ['-q', '-F', '-E', 'lazy_itable_init=0,lazy_journal_init=0'], pkg: 'e2fsprogs' },
  xfs: { cmd: 'mkfs.xfs', args: ['-q', '-f'], pkg: 'xfsprogs' },
  btrfs: { cmd: 'mkfs.btrfs', args: ['-q', '-f'], pkg: 'btrfs-progs' },
  exfat: { cmd: 'mkfs.exfat', args: [], pkg: 'exfatprogs' },
  ntfs: { cmd: 'mkntfs', args: ['-Q', '-F', '-q'], pkg: 'ntfs-3g' },
};

/** `mount -t` names; exfat goes through the FUSE driver (this kernel has no exfat module). */
const MOUNT_T: Record<FsKind, { type: string; pkg: string; helper?: string }> = {
  ext4: { type: 'ext4', pkg: 'e2fsprogs' },
  xfs: { type: 'xfs', pkg: 'xfsprogs' },
  btrfs: { type: 'btrfs', pkg: 'btrfs-progs' },
  exfat: { type: 'exfat-fuse', pkg: 'exfat-fuse', helper: 'mount.exfat-fuse' },
  ntfs: { type: 'ntfs-3g', pkg: 'ntfs-3g', helper: 'mount.ntfs-3g' },
  tmpfs: { type: 'tmpfs', pkg: 'util-linux' },
};

const TMP_PREFIX = 'diskdial-loopfs-';
const OWNER_FILE = 'owner.pid';

export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/**
 * True when tests that need root may run. In CI (CI=true) they must never be skipped, so running
 * there without root is an error rather than a silent skip.
 */
export function rootOnly(): boolean {
  if (isRoot()) return true;
  if (process.env.CI === 'true') {
    throw new Error(
      'CI=true but the tests are not running as root: tests that mount real file systems must ' +
        'run in CI, not be skipped. Run the suite as root (see .ci/run).',
    );
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Commands

async function run(cmd: string, args: string[], pkg?: string): Promise<string> {
  try {
    const { stdout } = await execFileP(cmd, args, { encoding: 'utf8', maxBuffer: 16 << 20 });
    return stdout;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string; code?: string | number };
    if (e.code === 'ENOENT') {
      throw new Error(`${cmd} not found${pkg ? ` (Debian package ${pkg})` : ''}`, { cause: err });
    }
    const detail = (e.stderr ?? '').trim() || e.message;
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${String(e.code)}): ${detail}`, { cause: err });
  }
}

function runSync(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// /proc/self/mounts and /sys/block

export interface MountEntry {
  source: string;
  target: string;
  type: string;
  options: string[];
}

// /proc/self/mounts escapes space, tab, newline and backslash as octal.
const unescapeMount = (s: string) => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

export function readMounts(): MountEntry[] {
  return readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [source = '', target = '', type = '', opts = ''] = line.split(' ');
      return {
        source: unescapeMount(source),
        target: unescapeMount(target),
        type,
        options: opts.split(','),
      };
    });
}

/** The topmost mount whose mount point is exactly `dir`. */
export function findMount(dir: string): MountEntry | undefined {
  const target = path.resolve(dir);
  return readMounts()
    .filter((m) => m.target === target)
    .pop();
}

/** Loop devices currently bound to a backing file under `folder`. */
function loopDevicesUnder(folder: string): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync('/sys/block').filter((n) => n.startsWith('loop'));
  } catch {
    return out;
  }
  for (const name of names) {
    try {
      const backing = readFileSync(`/sys/block/${name}/loop/backing_file`, 'utf8').trim();
      if (backing.startsWith(folder + path.sep)) out.push(`/dev/${name}`);
    } catch {
      // not bound
    }
  }
  return out;
}

const loopBound = (device: string) => existsSync(`/sys/block/${path.basename(device)}/loop`);

// ---------------------------------------------------------------------------------------------
// Teardown

interface Live {
  kind: FsKind;
  folder: string;
  dir: string;
  device?: string;
}

const live = new Set<Live>();
let hooksInstalled = false;
let staleSwept = false;

async function unmount(dir: string): Promise<void> {
  let lastErr: unknown;
  for (let attempt = 0; attempt < 8 && findMount(dir); attempt++) {
    try {
      await run('umount', [dir]);
    } catch (err) {
      lastErr = err; // EBUSY right after I/O or while a FUSE daemon settles: retry
      await sleep(50 * 2 ** Math.min(attempt, 4));
    }
  }
  if (findMount(dir)) {
    await run('umount', ['-l', dir]).catch(() => undefined);
    if (findMount(dir)) throw new Error(`could not unmount ${dir}: ${String(lastErr)}`);
  }
}

async function detach(device: string): Promise<void> {
  // A FUSE daemon may still hold the device for a moment after umount; losetup -d then only
  // sets autoclear, so wait until the kernel has really let go.
  for (let attempt = 0; attempt < 5 && loopBound(device); attempt++) {
    await run('losetup', ['-d', device]).catch(() => undefined);
    for (let i = 0; i < 50 && loopBound(device); i++) await sleep(20);
  }
  if (loopBound(device)) throw new Error(`could not detach ${device}${pinnedBy(device)}`);
}

/** Who still holds a loop device's file system: every process whose mount namespace has it
 *  mounted (a server started in a namespace that copied the host's mounts), named for the error. */
function pinnedBy(device: string): string {
  const rdev = (() => {
    try {
      return readFileSync(`/sys/block/${path.basename(device)}/dev`, 'utf8').trim();
    } catch {
      return '';
    }
  })();
  if (!rdev) return '';
  const holders: string[] = [];
  const seen = new Set<string>();
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const info = readFileSync(`/proc/${pid}/mountinfo`, 'utf8');
      const line = info.split('\n').find((l) => l.split(' ')[2] === rdev);
      if (!line) continue;
      const ns = readlinkSync(`/proc/${pid}/ns/mnt`);
      if (seen.has(ns)) continue; // one name per mount namespace
      seen.add(ns);
      const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      holders.push(`${comm} (pid ${pid}) has it mounted at ${line.split(' ')[4]}`);
    } catch {
      // gone, or not ours to read
    }
  }
  return holders.length ? `: ${holders.slice(0, 5).join('; ')}` : '';
}

async function teardown(entry: Live): Promise<void> {
  const errors: string[] = [];
  // Every mount in the folder (a partitioned disk has one per partition), the latest first.
  const dirs = readMounts()
    .map((m) => m.target)
    .filter((t) => t === entry.dir || t.startsWith(entry.folder + path.sep));
  for (const dir of new Set(dirs.reverse())) await unmount(dir).catch((e: unknown) => errors.push(String(e)));
  for (const dev of new Set([...(entry.device ? [entry.device] : []), ...loopDevicesUnder(entry.folder)])) {
    await detach(dev).catch((e: unknown) => errors.push(String(e)));
  }
  // Never recurse into a folder that still has a mount inside it.
  if (!readMounts().some((m) => m.target.startsWith(entry.folder + path.sep))) {
    await fs.rm(entry.folder, { recursive: true, force: true });
  } else {
    errors.push(`left ${entry.folder} in place: something is still mounted inside it`);
  }
  live.delete(entry);
  if (errors.length) throw new Error(`loopfs cleanup of ${entry.kind} at ${entry.dir}: ${errors.join('; ')}`);
}

function teardownSync(folder: string): void {
  for (const m of readMounts()
    .filter((x) => x.target.startsWith(folder + path.sep))
    .reverse()) {
    if (!runSync('umount', [m.target])) runSync('umount', ['-l', m.target]);
  }
  for (const dev of loopDevicesUnder(folder)) runSync('losetup', ['-d', dev]);
  if (!readMounts().some((m) => m.target.startsWith(folder + path.sep))) {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Unmounts, detaches and deletes everything this module made in this process. */
export async function cleanupAllLoopFs(): Promise<void> {
  const errors: string[] = [];
  // The latest first: a file system whose image lives on an earlier one goes before it.
  for (const entry of [...live].reverse()) {
    await teardown(entry).catch((e: unknown) => errors.push(String(e)));
  }
  if (errors.length) throw new Error(errors.join('\n'));
}

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.once('exit', () => {
    for (const entry of live) teardownSync(entry.folder);
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      for (const entry of live) teardownSync(entry.folder);
      live.clear();
      // If nobody else handles the signal, restore the default and die by it.
      if (process.listenerCount(sig) === 1) {
        process.removeListener(sig, onSignal);
        process.kill(process.pid, sig);
      }
    };
    process.on(sig, onSignal);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes what a killed earlier run left behind (folders whose owner process is gone). */
function sweepStale(): void {
  if (staleSwept) return;
  staleSwept = true;
  const tmp = os.tmpdir();
  let names: string[];
  try {
    names = readdirSync(tmp).filter((n) => n.startsWith(TMP_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const folder = path.join(tmp, name);
    let pid: number;
    try {
      pid = Number(readFileSync(path.join(folder, OWNER_FILE), 'utf8').trim());
    } catch {
      continue; // not ours, or still being set up
    }
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !pidAlive(pid)) {
      try {
        teardownSync(folder);
      } catch {
        // best effort
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Mounting

function mountArgs(kind: FsKind, source: string, dir: string, options: string[]): string[] {
  const args = ['-t', MOUNT_T[kind].type];
  if (options.length) args.push('-o', options.join(','));
  args.push(source, dir);
  return args;
}

/** mountFs with the image in RAM (/dev/shm): the machine's own disk (shared, busy) must not be
 *  what a timing test measures. */
export async function mountFsInRam(kind: FsKind, opts: MountOptions = {}): Promise<MountedFs> {
  return mountFsIn('/dev/shm', kind, opts);
}

/** mountFs with its image file in `parent` (another test file system: a loop device over a file
 *  on a loop device). */
export async function mountFsIn(parent: string, kind: FsKind, opts: MountOptions = {}): Promise<MountedFs> {
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = parent;
  try {
    return await mountFs(kind, opts);
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
}

/** A scratch folder (with an empty `mnt`) that every teardown path knows. */
async function newEntry(kind: FsKind): Promise<Live> {
  sweepStale();
  installExitHooks();
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), TMP_PREFIX));
  await fs.chmod(folder, 0o755); // so non-root test processes can reach the mount point
  await fs.writeFile(path.join(folder, OWNER_FILE), `${process.pid}\n`);
  const dir = path.join(folder, 'mnt');
  await fs.mkdir(dir);
  const entry: Live = { kind, folder, dir };
  live.add(entry);
  return entry;
}

export interface PartitionedDisk {
  /** /dev/loopN: the whole disk. */
  device: string;
  /** The partitions' mount points, in table order (mode 1777). */
  dirs: string[];
  cleanup(): Promise<void>;
}

/** One loop disk holding `count` partitions (an MBR table written by sfdisk, bound with
 *  `losetup -P`, so the kernel shows loopNp1 …), each formatted `kind` and mounted. */
export async function mountPartitioned(
  kind: 'ext4' | 'xfs' | 'btrfs',
  count: number,
  partMiB = DEFAULT_SIZE_MIB[kind],
): Promise<PartitionedDisk> {
  if (!isRoot()) throw new Error(`mountPartitioned(${kind}) needs root (guard the test with rootOnly())`);
  const entry = await newEntry(kind);
  try {
    const image = path.join(entry.folder, 'disk.img');
    await (await fs.open(image, 'w')).close();
    await fs.truncate(image, (partMiB * count + 2) << 20);
    const table = ['label: dos', ...Array.from({ length: count }, () => `size=${partMiB}MiB, type=83`)].join('\n');
    execFileSync('sfdisk', ['--quiet', image], { input: `${table}\n`, stdio: ['pipe', 'ignore', 'pipe'] });
    entry.device = (await run('losetup', ['--find', '--show', '--partscan', image], 'util-linux')).trim();
    // A kernel built without partition-table parsers finds none: partx adds them (BLKPG).
    if (!existsSync(`/sys/block/${path.basename(entry.device)}/${path.basename(entry.device)}p1`))
      await run('partx', ['--add', entry.device], 'util-linux');
    const dirs: string[] = [];
    for (let i = 1; i <= count; i++) {
      const part = `${entry.device}p${i}`;
      // devtmpfs adds the node as the kernel adds the partition; give it a moment.
      for (let t = 0; t < 100 && !existsSync(part); t++) await sleep(20);
      await run(MKFS[kind].cmd, [...MKFS[kind].args, part], MKFS[kind].pkg);
      const dir = path.join(entry.folder, `p${i}`);
      await fs.mkdir(dir);
      await run('mount', mountArgs(kind, part, dir, []), MOUNT_T[kind].pkg);
      await fs.chmod(dir, 0o1777);
      dirs.push(dir);
    }
    return { device: entry.device, dirs, cleanup: () => (live.has(entry) ? teardown(entry) : Promise.resolve()) };
  } catch (err) {
    await teardown(entry).catch(() => undefined);
    throw err;
  }
}

export async function mountFs(kind: FsKind, opts: MountOptions = {}): Promise<MountedFs> {
  if (!(kind in DEFAULT_SIZE_MIB)) throw new Error(`unknown file system kind: ${String(kind)}`);
  if (!isRoot()) throw new Error(`mountFs(${kind}) needs root (guard the test with rootOnly())`);
  const sizeMiB = opts.sizeMiB ?? DEFAULT_SIZE_MIB[kind];
  const userOptions = opts.mountOptions ?? [];
  const entry = await newEntry(kind);
  const { folder, dir } = entry;

  try {
    let source: string;
    let baseOptions: string[];
    let image: string | undefined;
    if (kind === 'tmpfs') {
      source = 'tmpfs';
      baseOptions = [`size=${sizeMiB}m`, 'mode=1777'];
    } else {
      image = path.join(folder, `${kind}.img`);
      await (await fs.open(image, 'w')).close();
      await fs.truncate(image, sizeMiB * 1024 * 1024);
      const losetupArgs = ['--find', '--show'];
      if (opts.directIo) losetupArgs.push('--direct-io=on');
      entry.device = (await run('losetup', [...losetupArgs, image], 'util-linux')).trim();
      const mkfs = MKFS[kind];
      await run(mkfs.cmd, [...mkfs.args, entry.device], mkfs.pkg);
      source = entry.device;
      baseOptions = [];
    }

    const doMount = async (readOnly: boolean) => {
      const options = [...baseOptions, ...(readOnly ? ['ro'] : []), ...userOptions];
      await run('mount', mountArgs(kind, source, dir, options), MOUNT_T[kind].pkg);
      const m = findMount(dir);
      if (!m) throw new Error(`mount of ${kind} at ${dir} returned but is not in /proc/self/mounts`);
    };

    // The root is mode 1777 so non-root code under test can create files; exFAT and NTFS keep no
    // modes (their roots read as 0777 and chmod fails or is ignored).
    const openUp = async () => {
      await fs.chmod(dir, 0o1777).catch((err: unknown) => {
        if (!FUSE_KINDS.has(kind)) throw err;
      });
    };

    async function remountTo(readOnly: boolean): Promise<void> {
      if (FUSE_KINDS.has(kind)) {
        // The FUSE daemon opens the device read-only or read-write at mount time; a kernel-only
        // remount would leave it unable to write, so mount it again.
        await unmount(dir);
        await doMount(readOnly);
      } else {
        await run('mount', ['-o', `remount,${readOnly ? 'ro' : 'rw'}`, dir]);
      }
      mounted.readOnly = readOnly;
    }

    const mounted: MountedFs = {
      kind,
      dir,
      device: entry.device,
      image,
      readOnly: false,
      remount: ({ readOnly }) => remountTo(readOnly),
      cleanup: () => (live.has(entry) ? teardown(entry) : Promise.resolve()),
    };

    await doMount(false);
    await openUp();
    if (opts.readOnly) await remountTo(true);
    return mounted;
  } catch (err) {
    await teardown(entry).catch(() => undefined);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Filling

/** Bytes available to unprivileged writers (statfs f_bavail), which is what the engine sees. */
async function freeBytes(dir: string): Promise<number> {
  const s = await fs.statfs(dir);
  return s.bavail * s.bsize;
}

async function writeZeros(file: string, bytes: number): Promise<void> {
  const chunk = Buffer.alloc(1 << 20);
  const fh = await fs.open(file, 'a');
  try {
    let left = bytes;
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      try {
        await fh.write(chunk, 0, n);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
        throw err;
      }
      left -= n;
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Takes space on the file system holding `dir` until only about `leaveBytes` stay free (as
 * statfs f_bavail reports it). Uses fallocate(1), else writes zeros. Returns the filler file.
 */
export async function fillFs(dir: string, leaveBytes: number): Promise<string> {
  const filler = path.join(dir, `.diskdial-filler-${randomBytes(4).toString('hex')}`);
  await (await fs.open(filler, 'w')).close();
  // File systems account metadata lazily (btrfs most of all): measure, adjust, measure again.
  for (let round = 0; round < 4; round++) {
    await run('sync', ['-f', filler]).catch(() => undefined);
    const free = await freeBytes(dir);
    const excess = free - leaveBytes;
    const size = (await fs.stat(filler)).size;
    const slack = Math.max(256 * 1024, leaveBytes * 0.02);
    if (Math.abs(excess) <= slack) break;
    if (excess < 0) {
      // Overshot: give some back.
      await fs.truncate(filler, Math.max(0, size + excess));
      continue;
    }
    const want = size + Math.floor(excess / 4096) * 4096;
    if (want <= size) break;
    try {
      await run('fallocate', ['-l', String(want), filler], 'util-linux');
    } catch {
      await writeZeros(filler, want - size);
    }
  }
  return filler;
}
