// The wizard on Linux: whole disks from lsblk (and which may be erased), the file systems this
// machine can make (mkfs.* installed, the kernel or a FUSE driver able to mount them), and
// "erase the disk and make this format on it" as argv commands: wipefs, sfdisk (one GPT
// partition), mkfs.*, mount — and for ext4 + fscrypt, fscrypt with a private config and a random
// raw key that lives only for the plan; for LUKS (where dm-crypt exists), cryptsetup.
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { DiskDialError } from '../../model/errors.js';
import type { Command, CommandRunner, PrepareOptions, PreparedVolume, WizardProvider } from './provider.js';
import type { FormatId, FormatInfo, WizardDisk } from '../../model/wizard/types.js';
import type { ReadCommand } from '../exec/commands.js';
import { LSBLK_ARGV, parseLsblk, type DiskSysInfo, type LsblkDevice, type LinuxUsage, type LsblkContext } from './linux-lsblk.js';
import { procMounts, systemSysInfo, systemUsage, type LinuxProbe } from './linux-system.js';
import { LINUX_FORMAT_IDS } from '../../model/wizard/format-ids.js';

// The disk listing and the machine's facts live beside this file; callers keep one import.
export * from './linux-lsblk.js';
export * from './linux-system.js';

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

export const LINUX_FORMATS = LINUX_FORMAT_IDS;

/** The Linux formats and whether this machine can make and mount each, with the reason. */
export function linuxFormats(p: LinuxProbe): FormatInfo[] {
  const need = (cmd: string, pkg: string): string | undefined => (p.has(cmd) ? undefined : `${cmd} is not installed (Debian: ${pkg})`);
  const kernel = (fs: string, what: string): string | undefined => (p.filesystems.has(fs) ? undefined : `this kernel cannot mount ${what}`);
  const fuse = (helper: string, pkg: string): string | undefined =>
    p.has(helper) ? undefined : `${helper} is not installed (Debian: ${pkg})`;
  const base = need('sfdisk', 'fdisk') ?? need('wipefs', 'util-linux');
  const reasons: Record<(typeof LINUX_FORMATS)[number], string | undefined> = {
    ext4: need('mkfs.ext4', 'e2fsprogs') ?? kernel('ext4', 'ext4'),
    'ext4-fscrypt': need('mkfs.ext4', 'e2fsprogs') ?? kernel('ext4', 'ext4') ?? need('fscrypt', 'fscrypt'),
    'ext4-luks':
      need('mkfs.ext4', 'e2fsprogs') ??
      need('cryptsetup', 'cryptsetup') ??
      (p.deviceMapper ? undefined : 'this kernel has no device-mapper (dm-crypt), so LUKS cannot be used'),
    xfs: need('mkfs.xfs', 'xfsprogs') ?? kernel('xfs', 'XFS'),
    btrfs: need('mkfs.btrfs', 'btrfs-progs') ?? kernel('btrfs', 'Btrfs'),
    exfat: need('mkfs.exfat', 'exfatprogs') ?? (p.filesystems.has('exfat') ? undefined : fuse('mount.exfat-fuse', 'exfat-fuse')),
    ntfs: need('mkntfs', 'ntfs-3g') ?? (p.filesystems.has('ntfs3') ? undefined : fuse('mount.ntfs-3g', 'ntfs-3g')),
    fat32: need('mkfs.vfat', 'dosfstools') ?? kernel('vfat', 'FAT (no vfat module)'),
  };
  return LINUX_FORMATS.map((id) => {
    const reason = base ?? reasons[id];
    const info: FormatInfo = {
      id,
      label: FORMAT_LABELS[id]!,
      encrypted: id === 'ext4-fscrypt' || id === 'ext4-luks',
      available: reason === undefined,
    };
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
export function partitionCommands(disk: WizardDisk, format: FormatId, ptuuid?: string): Command[] {
  const type = format === 'exfat' || format === 'ntfs' || format === 'fat32' ? MS_BASIC_DATA : 'L';
  // The plan's own table id: read back before every later erase, it proves the disk is this one.
  const labelId = ptuuid ? `label-id: ${ptuuid}\n` : '';
  return [
    ...disk.partitions
      .filter((p) => p.path !== disk.path)
      .map((p): Command => ({
        argv: ['wipefs', '--all', '--quiet', p.path],
        privileged: true,
        why: `Wiping the old file system signatures on ${p.path}`,
      })),
    { argv: ['wipefs', '--all', '--quiet', disk.path], privileged: true, why: `Wiping the partition table of ${disk.path}` },
    {
      argv: ['sfdisk', '--quiet', '--wipe', 'always', disk.path],
      privileged: true,
      stdin: `label: gpt\n${labelId},,${type}\n`,
      why: `Writing a new GPT partition table on ${disk.path}`,
    },
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
export function mountCommand(
  format: FormatId,
  device: string,
  dir: string,
  probe: Pick<LinuxProbe, 'filesystems'>,
  owner?: { uid: number; gid: number },
): Command {
  const ids = owner ? [`uid=${owner.uid}`, `gid=${owner.gid}`] : [];
  const opts = (o: string[]): string[] => (o.length ? ['-o', o.join(',')] : []);
  let argv: string[];
  if (format === 'exfat')
    argv = probe.filesystems.has('exfat')
      ? ['mount', '-t', 'exfat', ...opts(ids), device, dir]
      : ['mount', '-t', 'exfat-fuse', ...opts(ids), device, dir];
  else if (format === 'ntfs')
    argv = probe.filesystems.has('ntfs3')
      ? ['mount', '-t', 'ntfs3', ...opts(ids), device, dir]
      : ['mount', '-t', 'ntfs-3g', ...opts(ids), device, dir];
  else if (format === 'fat32') argv = ['mount', '-t', 'vfat', ...opts(ids), device, dir];
  else argv = ['mount', device, dir];
  return { argv, privileged: true, why: `Mounting ${device} at ${dir}` };
}

export interface LinuxDeps {
  /** Runs a read-only command (lsblk) and returns its stdout. */
  exec: ReadCommand;
  probe(): LinuxProbe;
  /** Reads /sys/block/<name>/loop/backing_file, by-id names, the USB serial (default: the real
   *  machine's; see systemSysInfo). */
  sysInfo?: () => Promise<DiskSysInfo>;
  /** Who else uses block devices (default: the real machine's; see systemUsage). */
  usage?: () => Promise<LinuxUsage>;
  /** The mount table (default /proc/self/mounts): mount point and source of each. */
  mounts?: () => Array<{ source: string; target: string }>;
  /** The desktop user's ids when running elevated for them (mount points are handed to them). */
  owner?: { uid: number; gid: number };
  /** How long to wait for a new partition's device node, ms (default 10 s). */
  partitionTimeoutMs?: number;
}

export function luksName(workDir: string): string {
  return `diskdial-${path.basename(workDir)}`;
}

export function createLinuxProvider(deps: LinuxDeps): WizardProvider & { listDisksWith(ctx: LsblkContext): Promise<WizardDisk[]> } {
  const listDisksWith = async (ctx: LsblkContext): Promise<WizardDisk[]> => {
    const [json, sys, usage] = await Promise.all([
      deps.exec(LSBLK_ARGV),
      deps.sysInfo ? deps.sysInfo() : systemSysInfo(deps.exec),
      deps.usage ? deps.usage() : systemUsage(deps.exec, deps.probe()),
    ]);
    return parseLsblk(json, { ...sys, usage, ...ctx });
  };
  const mounts = deps.mounts ?? procMounts;
  return {
    platform: 'linux',
    listDisksWith,
    listDisks: (opts = {}) => listDisksWith({ ...(opts.includeInternal ? { includeInternal: true } : {}) }),
    formats: async () => linuxFormats(deps.probe()),
    async readPtuuid(disk) {
      // -p: probe the disk itself, never a cache that may still describe the disk that was there.
      const out = await deps.exec(['blkid', '-p', '-s', 'PTUUID', '-o', 'value', disk.path]).catch(() => '');
      return out.trim().toLowerCase() || undefined;
    },
    async reclaim(workDir, run) {
      const undone: string[] = [];
      // Only mount points inside this plan's own folder (its id is the folder's name); deepest first.
      const own = mounts()
        .filter((m) => m.target.startsWith(`${workDir}${path.sep}`))
        .sort((a, b) => b.target.length - a.target.length);
      const conf = path.join(workDir, 'fscrypt.conf');
      for (const m of own) {
        const encrypted = path.join(m.target, 'encrypted');
        if (existsSync(conf) && existsSync(encrypted)) {
          // Already locked, or the key is gone with the process: unmounting drops it either way.
          await run({
            argv: ['fscrypt', 'lock', encrypted, '--quiet'],
            privileged: true,
            env: { FSCRYPT_CONF: conf },
            why: `Locking ${encrypted}, left unlocked by the interrupted plan`,
          }).catch(() => undefined);
        }
        await unmountRetrying(run, m.target);
        undone.push(m.target);
      }
      const mapper = `/dev/mapper/${luksName(workDir)}`;
      if (existsSync(mapper)) {
        await run({
          argv: ['cryptsetup', 'close', luksName(workDir)],
          privileged: true,
          why: `Locking ${mapper}, left open by the interrupted plan`,
        });
        undone.push(mapper);
      }
      return undone;
    },
    async prepare(disk, format, { label, run, workDir, ptuuid, onErase }: PrepareOptions): Promise<PreparedVolume> {
      const probe = deps.probe();
      await onErase?.('start');
      const commands = partitionCommands(disk, format, ptuuid);
      for (const cmd of commands) {
        await run(cmd);
        if (cmd.argv[0] === 'sfdisk') await onErase?.('table-written');
      }
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
          const name = luksName(workDir);
          const key = randomBytes(32).toString('hex');
          await run({
            argv: ['cryptsetup', 'luksFormat', '--batch-mode', '--key-file=-', partition],
            privileged: true,
            stdin: key,
            why: `Setting up LUKS encryption on ${partition}`,
          });
          await run({
            argv: ['cryptsetup', 'open', '--key-file=-', partition, name],
            privileged: true,
            stdin: key,
            why: `Unlocking ${partition}`,
          });
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
          await run({
            argv: ['chown', `${deps.owner.uid}:${deps.owner.gid}`, testPath],
            privileged: true,
            why: `Handing ${testPath} to you`,
          });
        }
        return { testPath, mountPoint, partition, release };
      } catch (err) {
        await release().catch(() => undefined);
        throw err;
      }
    },
  };
}

/** umount, tried again for a few seconds: a FUSE daemon or the kernel may hold the mount a moment
 *  after the process using it died. */
async function unmountRetrying(run: CommandRunner, target: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await run({ argv: ['umount', target], privileged: true, why: `Unmounting ${target}, left mounted by the interrupted plan` });
      return;
    } catch (err) {
      if (attempt >= 9) throw err;
      await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
    }
  }
}

/** An fscrypt-encrypted folder on a fresh ext4 (-O encrypt): a private fscrypt config (nothing
 *  written to /etc), a random 32-byte raw key in the plan's work folder, removed once used. */
async function fscryptFolder(mountPoint: string, workDir: string, run: CommandRunner): Promise<string> {
  const env = { FSCRYPT_CONF: path.join(workDir, 'fscrypt.conf') };
  if (!existsSync(env.FSCRYPT_CONF)) {
    // --time: the folder's protector is a raw key, never a passphrase, so the passphrase hashing
    // cost that setup would otherwise tune to 1 s (10 s of calibration here) is never used.
    await run({
      argv: ['fscrypt', 'setup', '--force', '--quiet', '--time=1ms'],
      privileged: true,
      env,
      why: 'Writing fscrypt settings for this plan',
    });
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
