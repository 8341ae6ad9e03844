// Linux: the whole disks lsblk lists, and which of them may be erased — not the system's, not
// one in use by a mount, swap, RAID, LVM or btrfs elsewhere (the parsers for those listings).
import type { DiskPartition, WizardDisk } from '../../model/wizard/types.js';

/** Mount points that make a disk the system's: erasing it would take the machine down. */
export const SYSTEM_MOUNTS = ['/', '/boot', '/boot/efi', '/efi', '/usr', '/var', '/home', '/opt', '/srv', '/nix', '[SWAP]'];

export const LSBLK_ARGV = [
  'lsblk',
  '--json',
  '--bytes',
  '--output',
  'NAME,PATH,TYPE,SIZE,MODEL,SERIAL,WWN,PTUUID,TRAN,RM,HOTPLUG,RO,FSTYPE,LABEL,MOUNTPOINTS,PKNAME',
];

export interface LsblkDevice {
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
  /** A device's file system and label from blkid, for when lsblk has none: lsblk reads them from
   *  udev's database, which containers and minimal systems lack (a mounted ext4 read "no file system"). */
  blkid?: (devicePath: string) => BlkidInfo | undefined;
}

export interface BlkidInfo {
  fs?: string;
  label?: string;
}

/** `blkid -o export` (blank-line separated KEY=value blocks) as device path → file system, label. */
export function parseBlkidExport(text: string): Map<string, BlkidInfo> {
  const out = new Map<string, BlkidInfo>();
  for (const block of text.split(/\n\s*\n/)) {
    const kv = new Map(
      block
        .split('\n')
        .map((l) => /^([A-Z_]+)=(.*)$/.exec(l.trim()))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1]!, m[2]!.replace(/\\(.)/g, '$1')] as const),
    );
    const dev = kv.get('DEVNAME');
    if (!dev) continue;
    const info: BlkidInfo = {};
    if (kv.get('TYPE')) info.fs = kv.get('TYPE')!;
    if (kv.get('LABEL')) info.label = kv.get('LABEL')!;
    out.set(dev, info);
  }
  return out;
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
        const fs = text(c.fstype) ?? ctx.blkid?.(c.path)?.fs;
        const label = text(c.label) ?? ctx.blkid?.(c.path)?.label;
        if (fs) p.fs = fs;
        if (label) p.label = label;
        return p;
      });
    // A file system straight on the disk (no partition table) counts as its one partition.
    const whole = { fs: text(d.fstype) ?? ctx.blkid?.(d.path)?.fs, label: text(d.label) ?? ctx.blkid?.(d.path)?.label };
    if (partitions.length === 0 && (whole.fs || mountsOf(d).length > 0)) {
      const p: DiskPartition = { path: d.path, sizeBytes: size, mountpoints: mountsOf(d) };
      if (whole.fs) p.fs = whole.fs;
      if (whole.label) p.label = whole.label;
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
