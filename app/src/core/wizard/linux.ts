// The wizard on Linux: whole disks from lsblk (and which may be erased), the file systems this
// machine can make (mkfs.* installed, the kernel or a FUSE driver able to mount them), and
// "erase the disk and make this format on it" as argv commands: wipefs, sfdisk (one GPT
// partition), mkfs.*, mount — and for ext4 + fscrypt, fscrypt with a private config and a random
// raw key that lives only for the plan; for LUKS (where dm-crypt exists), cryptsetup.
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fsp, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { DiskDialError } from '../../model/errors.js';
import type { Command, CommandRunner, PrepareOptions, PreparedVolume, WizardProvider } from './provider.js';
import type { DiskPartition, FormatId, FormatInfo, WizardDisk } from '../../model/wizard/types.js';

/** Mount points that make a disk the system's: erasing it would take the machine down. */
export const SYSTEM_MOUNTS = ['/', '/boot', '/boot/efi', '/efi', '/usr', '/var', '/home', '/opt', '/srv', '/nix', '[SWAP]'];

export const LSBLK_ARGV = [
  'lsblk',
  '--json',
  '--bytes',
  '--output',
  'NAME,PATH,TYPE,SIZE,MODEL,SERIAL,WWN,PTUUID,TRAN,RM,HOTPLUG,RO,FSTYPE,LABEL,MOUNTPOINTS,PKNAME',
];

interface LsblkDevice {
  name: string;
  path: string;
  type: string;
  size: number | string | null;
  model?: string | null;
  serial?: string | null;
  wwn?: string | null;
  ptuuid?: string | null;
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
const mountsOf = (d: LsblkDevice): string[] =>
  [...(d.mountpoints ?? []), d.mountpoint ?? null].filter((m): m is string => typeof m === 'string' && m !== '');

function descendants(d: LsblkDevice): LsblkDevice[] {
  return (d.children ?? []).flatMap((c) => [c, ...descendants(c)]);
}

/** Is this mount point one of the system's (or below /usr, /var…)? */
export function isSystemMount(m: string): boolean {
  if (m === '[SWAP]' || m === '/') return true;
  return SYSTEM_MOUNTS.some((s) => s !== '/' && (m === s || m.startsWith(`${s}/`)));
}

/** What sysfs, /dev/disk/by-id and the loop driver say about a whole disk (by kernel name). */
export interface DiskSysInfo {
  /** The image behind a loop device (/sys/block/loopN/loop/backing_file). */
  backingFile?: (name: string) => string | undefined;
  /** The image's inode and device as the loop driver holds them (losetup BACK-INO, BACK-MAJ:MIN). */
  loopInode?: (name: string) => { ino: number; dev: string } | undefined;
  /** /dev/disk/by-id names that point at the whole disk. */
  byId?: (name: string) => string[];
  /** The serial of the USB device the disk sits behind. */
  usbSerial?: (name: string) => string | undefined;
}

/** Who else uses block devices, beyond lsblk's mount points: the members of mounted multi-device
 *  Btrfs file systems, MD arrays, LVM physical volumes and swap (device paths). */
export interface LinuxUsage {
  /** Each mounted Btrfs file system's member devices (`btrfs filesystem show --mounted`). */
  btrfs?: string[][];
  /** MD array members → the array (/proc/mdstat). */
  md?: Map<string, string>;
  /** LVM physical volumes → their volume group (`pvs`). */
  pvs?: Map<string, string>;
  /** Swap devices in use (/proc/swaps). */
  swaps?: Set<string>;
}

export interface LsblkContext extends DiskSysInfo {
  /** Mount points the wizard itself made (under its work folder): not "in use" by anyone else. */
  ownMount?: (mountPoint: string) => boolean;
  includeInternal?: boolean;
  usage?: LinuxUsage;
}

/** `btrfs filesystem show --mounted` as each file system's member device paths. */
export function parseBtrfsShow(text: string): string[][] {
  const groups: string[][] = [];
  for (const line of text.split('\n')) {
    if (/^Label:/.test(line.trim())) groups.push([]);
    const m = /\bdevid\s+\d+\s.*\spath\s+(\S+)\s*$/.exec(line);
    if (m && groups.length > 0) groups[groups.length - 1]!.push(m[1]!);
  }
  return groups.filter((g) => g.length > 0);
}

/** /proc/mdstat as member device path → array path ("md0 : active raid1 sdc1[1] sdb1[0]"). */
export function parseMdstat(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^(md\S*)\s*:\s*\S+\s+(.*)$/.exec(line);
    if (!m) continue;
    for (const word of m[2]!.split(/\s+/)) {
      const member = /^([^\s[]+)\[\d+\]/.exec(word);
      if (member) out.set(`/dev/${member[1]}`, `/dev/${m[1]}`);
    }
  }
  return out;
}

/** `pvs --noheadings -o pv_name,vg_name` as physical volume → volume group. */
export function parsePvs(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const [pv, vg] = line.trim().split(/\s+/);
    if (pv?.startsWith('/dev/')) out.set(pv, vg ?? '');
  }
  return out;
}

/** /proc/swaps as the set of swap files and devices in use. */
export function parseSwaps(text: string): Set<string> {
  return new Set(
    text
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s+/)[0] ?? '')
      .filter((f) => f.startsWith('/')),
  );
}

/** Why the devices of one disk (`all`: the disk and everything under it) are used by someone
 *  else: mounted (not by the wizard), a member of a mounted multi-device Btrfs, of an MD array,
 *  of an LVM volume group, or swap. */
function usedBy(all: LsblkDevice[], every: LsblkDevice[], ctx: LsblkContext): string[] {
  const own = (m: string): boolean => ctx.ownMount?.(m) === true;
  const out: string[] = [];
  const everyDevice = every.flatMap((d) => [d, ...descendants(d)]);
  for (const x of all) {
    for (const m of mountsOf(x).filter((m) => !own(m) && m !== '[SWAP]')) out.push(`${x.path} is mounted at ${m}`);
    if (ctx.usage?.swaps?.has(x.path) || mountsOf(x).includes('[SWAP]')) out.push(`${x.path} is in use as swap`);
    const md = ctx.usage?.md?.get(x.path);
    if (md) out.push(`${x.path} is a member of the RAID array ${md}`);
    const vg = ctx.usage?.pvs?.get(x.path);
    if (vg !== undefined) out.push(`${x.path} is an LVM physical volume${vg ? ` of volume group ${vg}` : ''}`);
    if (mountsOf(x).length === 0) {
      for (const group of ctx.usage?.btrfs ?? []) {
        if (!group.includes(x.path)) continue;
        // Where the file system is mounted: through whichever member lsblk shows it on.
        const at = group.flatMap((p) => everyDevice.filter((e) => e.path === p).flatMap(mountsOf));
        if (at.length > 0 && at.every(own)) continue;
        const others = group.filter((p) => p !== x.path);
        out.push(
          `${x.path} is a member of the Btrfs file system${at.length ? ` mounted at ${at.find((m) => !own(m))}` : ' that is mounted'}${others.length ? ` (with ${others.join(', ')})` : ''}`,
        );
      }
    }
  }
  return [...new Set(out)];
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
    const bus = isLoop
      ? 'loop'
      : (tran ??
        (d.name.startsWith('nvme') ? 'nvme' : d.name.startsWith('vd') ? 'virtio' : d.name.startsWith('mmcblk') ? 'mmc' : 'unknown'));
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
    const wwn = text(d.wwn);
    if (wwn) disk.wwn = wwn;
    const ptuuid = text(d.ptuuid);
    if (ptuuid) disk.ptuuid = ptuuid;
    const byId = ctx.byId?.(d.name) ?? [];
    if (byId.length > 0) disk.byId = [...byId].sort();
    const usbSerial = ctx.usbSerial?.(d.name);
    if (usbSerial) disk.usbSerial = usbSerial;
    if (isLoop) {
      const ino = ctx.loopInode?.(d.name);
      if (ino) disk.backingInode = ino;
    }
    const inUse = usedBy(all, parsed.blockdevices ?? [], ctx);
    if (inUse.length > 0) disk.inUse = inUse;
    const foreignMount = mounts.find((m) => !isSystemMount(m));
    if (disk.system) disk.reason = `It holds the running system (${systemMount === '[SWAP]' ? 'swap' : `mounted at ${systemMount}`}).`;
    else if (flag(d.ro)) disk.reason = 'It is read-only.';
    else if (internal && !ctx.includeInternal) disk.reason = 'It is an internal disk: turn on "Show internal disks" to use it.';
    else if (foreignMount) {
      const part = all.find((x) => mountsOf(x).includes(foreignMount));
      disk.reason = `${part?.path ?? d.path} is in use (mounted at ${foreignMount}): unmount it first.`;
    } else if (inUse.length > 0) disk.reason = `${inUse.join('; ')}: stop using it first.`;
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

export const LINUX_FORMATS = [
  'ext4',
  'ext4-fscrypt',
  'ext4-luks',
  'xfs',
  'btrfs',
  'exfat',
  'ntfs',
  'fat32',
] as const satisfies readonly FormatId[];

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
  exec(argv: string[]): Promise<string>;
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

/** The serial of the USB device above a disk in sysfs (the bridge of a USB enclosure). */
function sysUsbSerial(name: string): string | undefined {
  let dir: string;
  try {
    dir = realpathSync(`/sys/block/${name}/device`);
  } catch {
    return undefined;
  }
  for (; dir.startsWith('/sys/devices/') && dir !== '/sys/devices'; dir = path.dirname(dir)) {
    if (!existsSync(path.join(dir, 'idVendor'))) continue;
    try {
      return readFileSync(path.join(dir, 'serial'), 'utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The real machine's DiskSysInfo: sysfs, /dev/disk/by-id and losetup's view of each loop device. */
export async function systemSysInfo(exec: (argv: string[]) => Promise<string>): Promise<DiskSysInfo> {
  const byId = new Map<string, string[]>();
  try {
    for (const link of readdirSync('/dev/disk/by-id')) {
      // Partitions, and names made from what is on the disk (an LVM or MD signature): the erase
      // changes those, the disk stays the same.
      if (/-part\d+$/.test(link) || /^(lvm-pv-uuid|md-uuid|dm-)/.test(link)) continue;
      const target = path.basename(readlinkSync(path.join('/dev/disk/by-id', link)));
      byId.set(target, [...(byId.get(target) ?? []), link]);
    }
  } catch {
    /* no udev (containers): no by-id names */
  }
  const loops = new Map<string, { ino: number; dev: string }>();
  const json = await exec(['losetup', '--json', '--list', '--output', 'NAME,BACK-INO,BACK-MAJ:MIN']).catch(() => '');
  if (json) {
    for (const l of (JSON.parse(json) as { loopdevices?: Array<Record<string, string | number | null>> }).loopdevices ?? []) {
      const ino = Number(l['back-ino']);
      const dev = String(l['back-maj:min'] ?? '').trim();
      if (typeof l.name === 'string' && Number.isFinite(ino) && dev) loops.set(path.basename(l.name), { ino, dev });
    }
  }
  return { backingFile: sysBackingFile, loopInode: (n) => loops.get(n), byId: (n) => byId.get(n) ?? [], usbSerial: sysUsbSerial };
}

const readIfThere = (file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** The real machine's LinuxUsage: /proc/swaps, /proc/mdstat, `pvs` and `btrfs filesystem show
 *  --mounted` where those tools are installed. */
export async function systemUsage(exec: (argv: string[]) => Promise<string>, probe: Pick<LinuxProbe, 'has'>): Promise<LinuxUsage> {
  const [pvs, btrfs] = await Promise.all([
    probe.has('pvs') ? exec(['pvs', '--noheadings', '-o', 'pv_name,vg_name']).catch(() => '') : '',
    probe.has('btrfs') ? exec(['btrfs', 'filesystem', 'show', '--mounted']).catch(() => '') : '',
  ]);
  return {
    swaps: parseSwaps(readIfThere('/proc/swaps')),
    md: parseMdstat(readIfThere('/proc/mdstat')),
    pvs: parsePvs(pvs),
    btrfs: parseBtrfsShow(btrfs),
  };
}

/** /proc/self/mounts: source and mount point of each mount (octal escapes undone). */
export function procMounts(): Array<{ source: string; target: string }> {
  const unescape = (x: string): string => x.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
  return readIfThere('/proc/self/mounts')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [source = '', target = ''] = line.split(' ');
      return { source: unescape(source), target: unescape(target) };
    });
}

/** The LUKS mapping a plan opens is named after the plan, so a resume can prove it is its own. */
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
