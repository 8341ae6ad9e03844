// The wizard on Linux: whole disks from lsblk (and which may be erased), the file systems this
// machine can make (mkfs.* installed, the kernel or a FUSE driver able to mount them), and
// "erase the disk and make this format on it" as argv commands: wipefs, sfdisk (one GPT
// partition), mkfs.*, mount — and for ext4 + fscrypt, fscrypt with a private config and a random
// raw key that lives only for the plan; for LUKS (where dm-crypt exists), cryptsetup.
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fsp, readFileSync } from 'node:fs';
import path from 'node:path';
import { DiskDialError } from '../errors.js';
import type { Command, CommandRunner, PreparedVolume, WizardProvider } from './provider.js';
import type { DiskPartition, FormatId, FormatInfo, WizardDisk } from './types.js';

/** Mount points that make a disk the system's: erasing it would take the machine down. */
export const SYSTEM_MOUNTS = ['/', '/boot', '/boot/efi', '/efi', '/usr', '/var', '/home', '/opt', '/srv', '/nix', '[SWAP]'];

export const LSBLK_ARGV = ['lsblk', '--json', '--bytes', '--output', 'NAME,PATH,TYPE,SIZE,MODEL,SERIAL,TRAN,RM,HOTPLUG,RO,FSTYPE,LABEL,MOUNTPOINTS,PKNAME'];

interface LsblkDevice {
  name: string;
  path: string;
  type: string;
  size: number | string | null;
  model?: string | null;
  serial?: string | null;
  tran?: string | null;
  rm?: boolean | string | null;
  hotplug?: boolean | string | null;
  ro?: boolean | string | null;
  fstype?: string | null;
  label?: string | null;
  mountpoints?: Array<string | null> | null;
  mountpoint?: string | null;
  children?: LsblkDevice[];
}

const flag = (v: boolean | string | null | undefined): boolean => v === true || v === '1' || v === 'true';
const text = (v: string | null | undefined): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const mountsOf = (d: LsblkDevice): string[] => [...(d.mountpoints ?? []), d.mountpoint ?? null].filter((m): m is string => typeof m === 'string' && m !== '');

function descendants(d: LsblkDevice): LsblkDevice[] {
  return (d.children ?? []).flatMap((c) => [c, ...descendants(c)]);
}

/** Is this mount point one of the system's (or below /usr, /var…)? */
export function isSystemMount(m: string): boolean {
  if (m === '[SWAP]' || m === '/') return true;
  return SYSTEM_MOUNTS.some((s) => s !== '/' && (m === s || m.startsWith(`${s}/`)));
}

export interface LsblkContext {
  /** The image behind a loop device (/sys/block/loopN/loop/backing_file). */
  backingFile?: (name: string) => string | undefined;
  /** Mount points the wizard itself made (under its work folder): not "in use" by anyone else. */
  ownMount?: (mountPoint: string) => boolean;
  includeInternal?: boolean;
}

/** lsblk's JSON as the wizard's disks, with the safety rules applied. */
export function parseLsblk(json: string, ctx: LsblkContext = {}): WizardDisk[] {
  const parsed = JSON.parse(json) as { blockdevices?: LsblkDevice[] };
  const disks: WizardDisk[] = [];
  for (const d of parsed.blockdevices ?? []) {
    if (d.type !== 'disk' && d.type !== 'loop') continue;
    const size = Number(d.size ?? 0);
    // zram and an unattached loop device are not disks anyone can erase.
    if (d.name.startsWith('zram') || d.name.startsWith('ram') || size === 0) continue;
    const all = [d, ...descendants(d)];
    // The wizard's own mount points (its work folder may sit under /home or /var) are neither the
    // system's nor "in use".
    const mounts = all.flatMap(mountsOf).filter((m) => !ctx.ownMount?.(m));
    // Name the mount a person recognises first: / before /boot/efi.
    const systemMount = mounts.includes('/') ? '/' : mounts.find(isSystemMount);
    const isLoop = d.type === 'loop';
    const tran = text(d.tran);
    const bus = isLoop ? 'loop' : (tran ?? (d.name.startsWith('nvme') ? 'nvme' : d.name.startsWith('vd') ? 'virtio' : d.name.startsWith('mmcblk') ? 'mmc' : 'unknown'));
    const removable = flag(d.rm) || flag(d.hotplug);
    const internal = !isLoop && !removable && !['usb', 'mmc', 'ieee1394'].includes(bus);
    const model = text(d.model);
    const partitions: DiskPartition[] = (d.children ?? [])
      .filter((c) => c.type === 'part' || c.type === 'crypt' || c.type === 'lvm' || c.type === 'md')
      .map((c) => {
        const p: DiskPartition = { path: c.path, sizeBytes: Number(c.size ?? 0), mountpoints: [c, ...descendants(c)].flatMap(mountsOf) };
        const fs = text(c.fstype);
        const label = text(c.label);
        if (fs) p.fs = fs;
        if (label) p.label = label;
        return p;
      });
    // A file system straight on the disk (no partition table) counts as its one partition.
    if (partitions.length === 0 && (text(d.fstype) || mountsOf(d).length > 0)) {
      const p: DiskPartition = { path: d.path, sizeBytes: size, mountpoints: mountsOf(d) };
      if (text(d.fstype)) p.fs = text(d.fstype)!;
      if (text(d.label)) p.label = text(d.label)!;
      partitions.push(p);
    }
    const disk: WizardDisk = {
      path: d.path,
      name: model ?? d.name,
      sizeBytes: size,
      bus,
      removable,
      internal,
      system: systemMount !== undefined,
      partitions,
      offered: true,
    };
    if (model) disk.model = model;
    const serial = text(d.serial);
    if (serial) disk.serial = serial;
    if (isLoop) {
      const file = ctx.backingFile?.(d.name);
      if (file) disk.backingFile = file;
    }
    const foreignMount = mounts.find((m) => !isSystemMount(m));
    if (disk.system) disk.reason = `It holds the running system (${systemMount === '[SWAP]' ? 'swap' : `mounted at ${systemMount}`}).`;
    else if (flag(d.ro)) disk.reason = 'It is read-only.';
    else if (internal && !ctx.includeInternal) disk.reason = 'It is an internal disk: turn on "Show internal disks" to use it.';
    else if (foreignMount) {
      const part = all.find((x) => mountsOf(x).includes(foreignMount));
      disk.reason = `${part?.path ?? d.path} is in use (mounted at ${foreignMount}): unmount it first.`;
    }
    disk.offered = disk.reason === undefined;
    disks.push(disk);
  }
  return disks;
}

const FORMAT_LABELS: Record<string, string> = {
  ext4: 'ext4',
  'ext4-fscrypt': 'ext4 (fscrypt encrypted)',
  'ext4-luks': 'ext4 on LUKS (encrypted)',
  xfs: 'XFS',
  btrfs: 'Btrfs',
  exfat: 'exFAT',
  ntfs: 'NTFS',
  fat32: 'FAT32',
};

export const LINUX_FORMATS = ['ext4', 'ext4-fscrypt', 'ext4-luks', 'xfs', 'btrfs', 'exfat', 'ntfs', 'fat32'] as const satisfies readonly FormatId[];

/** What this machine has: commands on PATH, file systems the kernel mounts, device-mapper. */
export interface LinuxProbe {
  has(cmd: string): boolean;
  /** /proc/filesystems names (ext4, xfs, btrfs, vfat, fuseblk…). */
  filesystems: ReadonlySet<string>;
  /** /dev/mapper/control exists: dm-crypt can work. */
  deviceMapper: boolean;
}

/** The Linux formats and whether this machine can make and mount each, with the reason. */
export function linuxFormats(p: LinuxProbe): FormatInfo[] {
  const need = (cmd: string, pkg: string): string | undefined => (p.has(cmd) ? undefined : `${cmd} is not installed (Debian: ${pkg})`);
  const kernel = (fs: string, what: string): string | undefined => (p.filesystems.has(fs) ? undefined : `this kernel cannot mount ${what}`);
  const fuse = (helper: string, pkg: string): string | undefined => (p.has(helper) ? undefined : `${helper} is not installed (Debian: ${pkg})`);
  const base = need('sfdisk', 'fdisk') ?? need('wipefs', 'util-linux');
  const reasons: Record<(typeof LINUX_FORMATS)[number], string | undefined> = {
    ext4: need('mkfs.ext4', 'e2fsprogs') ?? kernel('ext4', 'ext4'),
    'ext4-fscrypt': need('mkfs.ext4', 'e2fsprogs') ?? kernel('ext4', 'ext4') ?? need('fscrypt', 'fscrypt'),
    'ext4-luks': need('mkfs.ext4', 'e2fsprogs') ?? need('cryptsetup', 'cryptsetup') ?? (p.deviceMapper ? undefined : 'this kernel has no device-mapper (dm-crypt), so LUKS cannot be used'),
    xfs: need('mkfs.xfs', 'xfsprogs') ?? kernel('xfs', 'XFS'),
    btrfs: need('mkfs.btrfs', 'btrfs-progs') ?? kernel('btrfs', 'Btrfs'),
    exfat: need('mkfs.exfat', 'exfatprogs') ?? (p.filesystems.has('exfat') ? undefined : fuse('mount.exfat-fuse', 'exfat-fuse')),
    ntfs: need('mkntfs', 'ntfs-3g') ?? (p.filesystems.has('ntfs3') ? undefined : fuse('mount.ntfs-3g', 'ntfs-3g')),
    fat32: need('mkfs.vfat', 'dosfstools') ?? kernel('vfat', 'FAT (no vfat module)'),
  };
  return LINUX_FORMATS.map((id) => {
    const reason = base ?? reasons[id];
    const info: FormatInfo = { id, label: FORMAT_LABELS[id]!, encrypted: id === 'ext4-fscrypt' || id === 'ext4-luks', available: reason === undefined };
    if (reason) info.reason = `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;
    return info;
  });
}

export function formatLabel(id: FormatId): string {
  return FORMAT_LABELS[id] ?? id;
}

/** GPT partition types: Linux file system, or Microsoft basic data for exFAT, NTFS and FAT32. */
const MS_BASIC_DATA = 'EBD0A0A2-B9E5-4433-87C0-68B6B72699C7';

/** Wipes the disk and writes one GPT partition spanning it. */
export function partitionCommands(disk: WizardDisk, format: FormatId): Command[] {
  const type = format === 'exfat' || format === 'ntfs' || format === 'fat32' ? MS_BASIC_DATA : 'L';
  return [
    ...disk.partitions.filter((p) => p.path !== disk.path).map((p): Command => ({ argv: ['wipefs', '--all', '--quiet', p.path], privileged: true, why: `Wiping the old file system signatures on ${p.path}` })),
    { argv: ['wipefs', '--all', '--quiet', disk.path], privileged: true, why: `Wiping the partition table of ${disk.path}` },
    { argv: ['sfdisk', '--quiet', '--wipe', 'always', disk.path], privileged: true, stdin: `label: gpt\n,,${type}\n`, why: `Writing a new GPT partition table on ${disk.path}` },
    { argv: ['partx', '--update', disk.path], privileged: true, why: `Telling the kernel about the new partition on ${disk.path}` },
  ];
}

/** The mkfs command for a format on a (partition or mapper) device. */
export function mkfsCommand(format: FormatId, device: string, label: string): Command {
  const why = `Making ${formatLabel(format)} on ${device}`;
  switch (format) {
    case 'ext4':
    case 'ext4-luks':
      return { argv: ['mkfs.ext4', '-q', '-F', '-L', label, device], privileged: true, why };
    case 'ext4-fscrypt':
      return { argv: ['mkfs.ext4', '-q', '-F', '-O', 'encrypt', '-L', label, device], privileged: true, why };
    case 'xfs':
      return { argv: ['mkfs.xfs', '-q', '-f', '-L', label, device], privileged: true, why };
    case 'btrfs':
      return { argv: ['mkfs.btrfs', '-q', '-f', '-L', label, device], privileged: true, why };
    case 'exfat':
      return { argv: ['mkfs.exfat', '-L', label, device], privileged: true, why };
    case 'ntfs':
      // -Q: quick (no zeroing), as Windows' and macOS's default "format".
      return { argv: ['mkntfs', '-Q', '-F', '-q', '-L', label, device], privileged: true, why };
    case 'fat32':
      return { argv: ['mkfs.vfat', '-F', '32', '-n', label.toUpperCase(), device], privileged: true, why };
    default:
      throw new DiskDialError(`${format} is not a Linux format.`, { code: 'ERR_UNSUPPORTED_FORMAT', category: 'input' });
  }
}

/** mount's argv for a format: FUSE drivers for exFAT and NTFS where the kernel has none; files
 *  owned by the desktop user when the wizard runs elevated for someone else. */
export function mountCommand(format: FormatId, device: string, dir: string, probe: Pick<LinuxProbe, 'filesystems'>, owner?: { uid: number; gid: number }): Command {
  const ids = owner ? [`uid=${owner.uid}`, `gid=${owner.gid}`] : [];
  const opts = (o: string[]): string[] => (o.length ? ['-o', o.join(',')] : []);
  let argv: string[];
  if (format === 'exfat') argv = probe.filesystems.has('exfat') ? ['mount', '-t', 'exfat', ...opts(ids), device, dir] : ['mount', '-t', 'exfat-fuse', ...opts(ids), device, dir];
  else if (format === 'ntfs') argv = probe.filesystems.has('ntfs3') ? ['mount', '-t', 'ntfs3', ...opts(ids), device, dir] : ['mount', '-t', 'ntfs-3g', ...opts(ids), device, dir];
  else if (format === 'fat32') argv = ['mount', '-t', 'vfat', ...opts(ids), device, dir];
  else argv = ['mount', device, dir];
  return { argv, privileged: true, why: `Mounting ${device} at ${dir}` };
}

export interface LinuxDeps {
  /** Runs a read-only command (lsblk) and returns its stdout. */
  exec(argv: string[]): Promise<string>;
  probe(): LinuxProbe;
  /** Reads /sys/block/<name>/loop/backing_file. */
  backingFile?(name: string): string | undefined;
  /** The desktop user's ids when running elevated for them (mount points are handed to them). */
  owner?: { uid: number; gid: number };
  /** How long to wait for a new partition's device node, ms (default 10 s). */
  partitionTimeoutMs?: number;
}

/** The real machine's probe: PATH, /proc/filesystems, /dev/mapper/control. */
export function systemProbe(): LinuxProbe {
  const dirs = (process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin').split(':').concat(['/usr/sbin', '/sbin']);
  let filesystems = new Set<string>();
  try {
    filesystems = new Set(
      readFileSync('/proc/filesystems', 'utf8')
        .split('\n')
        .map((l) => l.split('\t').pop()!.trim())
        .filter(Boolean),
    );
  } catch {
    /* not Linux */
  }
  return {
    has: (cmd) => dirs.some((d) => existsSync(path.join(d, cmd))),
    filesystems,
    deviceMapper: existsSync('/dev/mapper/control'),
  };
}

export function sysBackingFile(name: string): string | undefined {
  try {
    return readFileSync(`/sys/block/${name}/loop/backing_file`, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

export function createLinuxProvider(deps: LinuxDeps): WizardProvider & { listDisksWith(ctx: LsblkContext): Promise<WizardDisk[]> } {
  const listDisksWith = async (ctx: LsblkContext): Promise<WizardDisk[]> => {
    const json = await deps.exec(LSBLK_ARGV);
    return parseLsblk(json, { backingFile: deps.backingFile ?? sysBackingFile, ...ctx });
  };
  return {
    platform: 'linux',
    listDisksWith,
    listDisks: (opts = {}) => listDisksWith({ ...(opts.includeInternal ? { includeInternal: true } : {}) }),
    formats: async () => linuxFormats(deps.probe()),
    async prepare(disk, format, { label, run, workDir }): Promise<PreparedVolume> {
      const probe = deps.probe();
      for (const cmd of partitionCommands(disk, format)) await run(cmd);
      const partition = await waitForPartition(disk.path, deps);
      const undo: Array<() => Promise<unknown>> = [];
      const release = async (): Promise<void> => {
        // Last done, first undone; each step is tried even when an earlier one failed.
        let first: unknown;
        for (const step of undo.reverse()) await step().catch((err: unknown) => (first ??= err));
        undo.length = 0;
        if (first) throw first;
      };
      try {
        let device = partition;
        if (format === 'ext4-luks') {
          const name = `diskdial-${randomBytes(4).toString('hex')}`;
          const key = randomBytes(32).toString('hex');
          await run({ argv: ['cryptsetup', 'luksFormat', '--batch-mode', '--key-file=-', partition], privileged: true, stdin: key, why: `Setting up LUKS encryption on ${partition}` });
          await run({ argv: ['cryptsetup', 'open', '--key-file=-', partition, name], privileged: true, stdin: key, why: `Unlocking ${partition}` });
          undo.push(() => run({ argv: ['cryptsetup', 'close', name], privileged: true, why: `Locking ${partition}` }));
          device = `/dev/mapper/${name}`;
        }
        await run(mkfsCommand(format, device, label));
        const mountPoint = path.join(workDir, `mnt-${format}`);
        await fsp.mkdir(mountPoint, { recursive: true });
        undo.push(() => fsp.rmdir(mountPoint).catch(() => undefined));
        await run(mountCommand(format, device, mountPoint, probe, deps.owner));
        undo.push(() => run({ argv: ['umount', mountPoint], privileged: true, why: `Unmounting ${mountPoint}` }));
        let testPath = mountPoint;
        if (format === 'ext4-fscrypt') testPath = await fscryptFolder(mountPoint, workDir, run);
        if (deps.owner && !['exfat', 'ntfs', 'fat32'].includes(format)) {
          await run({ argv: ['chown', `${deps.owner.uid}:${deps.owner.gid}`, testPath], privileged: true, why: `Handing ${testPath} to you` });
        }
        return { testPath, mountPoint, partition, release };
      } catch (err) {
        await release().catch(() => undefined);
        throw err;
      }
    },
  };
}

/** An fscrypt-encrypted folder on a fresh ext4 (-O encrypt): a private fscrypt config (nothing
 *  written to /etc), a random 32-byte raw key in the plan's work folder, removed once used. */
async function fscryptFolder(mountPoint: string, workDir: string, run: CommandRunner): Promise<string> {
  const env = { FSCRYPT_CONF: path.join(workDir, 'fscrypt.conf') };
  if (!existsSync(env.FSCRYPT_CONF)) {
    await run({ argv: ['fscrypt', 'setup', '--force', '--quiet'], privileged: true, env, why: 'Writing fscrypt settings for this plan' });
  }
  await run({ argv: ['fscrypt', 'setup', mountPoint, '--quiet'], privileged: true, env, why: `Enabling fscrypt on ${mountPoint}` });
  const folder = path.join(mountPoint, 'encrypted');
  await run({ argv: ['mkdir', folder], privileged: true, why: `Making ${folder}` });
  const keyFile = path.join(workDir, `fscrypt-${randomBytes(4).toString('hex')}.key`);
  await fsp.writeFile(keyFile, randomBytes(32), { mode: 0o600 });
  try {
    await run({
      argv: ['fscrypt', 'encrypt', folder, '--source=raw_key', '--name=diskdial', `--key=${keyFile}`, '--quiet'],
      privileged: true,
      env,
      why: `Encrypting ${folder} with fscrypt`,
    });
  } finally {
    await fsp.rm(keyFile, { force: true });
  }
  return folder;
}

/** The first partition of a freshly partitioned disk, once its device node exists. */
async function waitForPartition(diskPath: string, deps: LinuxDeps): Promise<string> {
  const end = Date.now() + (deps.partitionTimeoutMs ?? 10_000);
  for (;;) {
    const json = await deps.exec([...LSBLK_ARGV, diskPath]).catch(() => '');
    if (json) {
      const dev = (JSON.parse(json) as { blockdevices?: LsblkDevice[] }).blockdevices?.[0];
      const part = dev?.children?.find((c) => c.type === 'part');
      if (part && existsSync(part.path)) return part.path;
    }
    if (Date.now() > end) {
      const hint = diskPath.includes('/loop') ? ' A loop device must be attached with partition scanning (losetup -P).' : '';
      throw new DiskDialError(`The new partition on ${diskPath} did not appear.${hint}`, { code: 'ERR_NO_PARTITION' });
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
