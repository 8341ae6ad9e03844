// What a path lives on: mount point, device, file system, mount options, size and free space,
// and the physical disk behind it (model, serial, bus, link). Linux reads /proc/self/mountinfo
// and sysfs; macOS and Windows get the minimum (statfs sizes, fs 'unknown') until their own
// probes exist. Everything here is best-effort: a missing sysfs file leaves a field out, it
// never throws — only a path that does not exist does.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import {
  detectLink,
  driveHealth,
  exists,
  macDiskFor,
  readTrim,
  windowsDiskLookup,
  type PlatformDisk,
  type PlatformDiskLookup,
} from './link/index.js';
import type { LinkInfo } from '../model/link-types.js';
import { isNetworkFs } from '../model/network.js';
import { linuxNetworkPath } from './link/network.js';
import { macShareFor, windowsNetworkFor } from './link/network-platform.js';
import type { Bus, DiskInfo, VolumeInfo } from '../model/volume.js';
import { fscryptOf } from './fscrypt.js';

export interface MountEntry {
  mountId: number;
  parentId: number;
  /** "MAJ:MIN" as the kernel reports it (0:N for virtual and some multi-device file systems). */
  devNumber: string;
  /** The path inside the file system that is mounted here (not "/" for bind mounts). */
  root: string;
  mountPoint: string;
  /** Per-mount options: rw, noatime, nosuid … */
  mountOptions: string[];
  fsType: string;
  /** The mount source: /dev/sda1, a fuse name, 'tmpfs' … */
  source: string;
  /** File-system-wide options: discard, errors=remount-ro … */
  superOptions: string[];
}

/** Undoes mountinfo's octal escapes (\040 space, \011 tab, \012 newline, \134 backslash). */
export function unescapeMountField(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}

/** Parses /proc/self/mountinfo text (see proc(5)); malformed lines are skipped. */
export function parseMountinfo(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const sep = line.indexOf(' - ');
    if (sep < 0) continue;
    const left = line.slice(0, sep).split(' ');
    const right = line.slice(sep + 3).split(' ');
    const [id, parent, dev, root, mp, opts] = left;
    const [fsType, source, superOpts] = right;
    if (!id || !parent || !dev || root === undefined || mp === undefined || !fsType) continue;
    entries.push({
      mountId: Number(id),
      parentId: Number(parent),
      devNumber: dev,
      root: unescapeMountField(root),
      mountPoint: unescapeMountField(mp),
      mountOptions: (opts ?? '').split(',').filter(Boolean),
      fsType,
      source: unescapeMountField(source ?? ''),
      superOptions: (superOpts ?? '').split(',').filter(Boolean),
    });
  }
  return entries;
}

/** The mount a real (symlink-free) path lives on: the longest mount point that prefixes it; the
 *  latest mount wins when several share a mount point (the one on top is the visible one). */
export function findMount(entries: readonly MountEntry[], realPath: string): MountEntry | undefined {
  let best: MountEntry | undefined;
  for (const e of entries) {
    const mp = e.mountPoint;
    const under = mp === '/' || realPath === mp || realPath.startsWith(mp.endsWith('/') ? mp : `${mp}/`);
    if (!under) continue;
    if (!best || mp.length >= best.mountPoint.length) best = e;
  }
  return best;
}

/** Every mount of this process's namespace; empty where there is no /proc (macOS, Windows). */
export async function readMountinfo(): Promise<MountEntry[]> {
  try {
    return parseMountinfo(await fsp.readFile('/proc/self/mountinfo', 'utf8'));
  } catch {
    return [];
  }
}

// glibc's encoding of dev_t (gnu_dev_major/minor), for device nodes of 0:N mounts such as Btrfs.
export function majorMinor(rdev: bigint): string {
  const major = ((rdev >> 8n) & 0xfffn) | ((rdev >> 32n) & ~0xfffn);
  const minor = (rdev & 0xffn) | ((rdev >> 12n) & ~0xffn);
  return `${major}:${minor}`;
}

/** A mount's block device "MAJ:MIN". Btrfs and friends report an anonymous 0:N (one per
 *  subvolume); the source device node has the real number. 0:N stays for mounts with no device. */
export async function mountDevNumber(m: MountEntry): Promise<string> {
  if (!m.devNumber.startsWith('0:') || !m.source.startsWith('/dev/')) return m.devNumber;
  try {
    const s = await fsp.stat(m.source, { bigint: true });
    if (s.isBlockDevice()) return majorMinor(s.rdev);
  } catch {
    /* keep 0:N */
  }
  return m.devNumber;
}

function busFromSysfsPath(real: string, name: string): Bus {
  if (name.startsWith('loop') || real.includes('/virtual/block/loop')) return 'loop';
  if (name.startsWith('dm-')) return 'dm';
  if (name.startsWith('md')) return 'md';
  if (real.includes('/usb')) return 'usb';
  if (real.includes('/nvme/') || name.startsWith('nvme')) return 'nvme';
  if (real.includes('/mmc_host/') || name.startsWith('mmcblk')) return 'mmc';
  if (real.includes('/virtio')) return 'virtio';
  if (/\/ata\d+\//.test(real)) return 'ata';
  if (real.includes('/host') && real.includes('/target')) return 'scsi';
  return 'unknown';
}

// The negotiated link lives on an ancestor device: the USB device (speed, in Mbps) or the PCIe
// function (current_link_speed/width). Walk up from the disk until one says.
async function linkFromAncestors(real: string, bus: Bus): Promise<string | undefined> {
  let dir = real;
  while (dir.startsWith('/sys/devices/') && dir !== '/sys/devices') {
    if (bus === 'usb') {
      const speed = await readTrim(path.join(dir, 'speed'));
      if (speed && (await exists(path.join(dir, 'idVendor')))) return `USB ${speed} Mbps`;
    } else {
      const speed = await readTrim(path.join(dir, 'current_link_speed'));
      if (speed) {
        const width = await readTrim(path.join(dir, 'current_link_width'));
        return width ? `${speed} x${width}` : speed;
      }
    }
    dir = path.dirname(dir);
  }
  return undefined;
}

/** The whole disk behind a block device number, from /sys/dev/block. Undefined when sysfs has none. */
export async function diskInfo(devNumber: string): Promise<(DiskInfo & { encrypted?: boolean }) | undefined> {
  let node: string;
  try {
    node = await fsp.realpath(`/sys/dev/block/${devNumber}`);
  } catch {
    return undefined;
  }
  // A partition's sysfs folder sits inside its disk's folder.
  const disk = (await exists(path.join(node, 'partition'))) ? path.dirname(node) : node;
  const name = path.basename(disk);
  const bus = busFromSysfsPath(disk, name);
  const info: DiskInfo & { encrypted?: boolean } = { name, bus };
  const model = await readTrim(path.join(disk, 'device/model'));
  if (model) info.model = model;
  const vendor = await readTrim(path.join(disk, 'device/vendor'));
  if (vendor) info.vendor = vendor;
  // SCSI/ATA/NVMe put the serial under device/, virtio-blk directly in the disk folder.
  const serial = (await readTrim(path.join(disk, 'device/serial'))) ?? (await readTrim(path.join(disk, 'serial')));
  if (serial) info.serial = serial;
  const removable = await readTrim(path.join(disk, 'removable'));
  if (removable !== undefined) info.removable = removable === '1';
  const rotational = await readTrim(path.join(disk, 'queue/rotational'));
  if (rotational !== undefined) info.rotational = rotational === '1';
  const sectors = await readTrim(path.join(disk, 'size'));
  if (sectors && /^\d+$/.test(sectors)) info.sizeBytes = Number(sectors) * 512; // always 512-byte units
  if (bus === 'loop') {
    const backing = await readTrim(path.join(disk, 'loop/backing_file'));
    if (backing) info.backingFile = backing;
    const dio = await readTrim(path.join(disk, 'loop/dio'));
    if (dio === '0' || dio === '1') info.loopDirectIo = dio === '1';
  }
  if (bus === 'dm') {
    const uuid = await readTrim(path.join(disk, 'dm/uuid'));
    if (uuid) info.encrypted = uuid.startsWith('CRYPT-');
    const dmName = await readTrim(path.join(disk, 'dm/name'));
    if (dmName) info.model ??= dmName;
  }
  // detectLink classifies the link (and follows a dm/LUKS mapping to its one underlying disk);
  // the raw words stay as a fallback for links it does not know.
  const linkInfo = await detectLink(devNumber);
  if (linkInfo) {
    info.linkInfo = linkInfo;
    info.link = linkInfo.label;
  } else if (bus === 'usb' || bus === 'nvme' || bus === 'ata' || bus === 'scsi') {
    const link = await linkFromAncestors(disk, bus);
    if (link) info.link = link;
  }
  const health = await driveHealth(devNumber);
  if (health.firmware !== undefined || health.temperatureC !== undefined) info.health = health;
  return info;
}

// /dev/disk/by-label holds one symlink per labelled file system (udev escapes spaces as \x20);
// cheap to scan.
async function labelFor(device: string): Promise<string | undefined> {
  if (!device.startsWith('/dev/')) return undefined;
  let real: string;
  try {
    real = await fsp.realpath(device);
  } catch {
    return undefined;
  }
  let names: string[];
  try {
    names = await fsp.readdir('/dev/disk/by-label');
  } catch {
    return undefined;
  }
  for (const n of names) {
    try {
      if ((await fsp.realpath(path.join('/dev/disk/by-label', n))) === real)
        return n.replace(/\\x([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    } catch {
      /* a dangling link is not our business */
    }
  }
  return undefined;
}

/** Volume facts for a path. Rejects only when the path itself cannot be resolved. */
const BUS_OF_LINK: Partial<Record<LinkInfo['kind'], Bus>> = {
  usb: 'usb',
  pcie: 'nvme',
  thunderbolt: 'nvme',
  sata: 'ata',
  sas: 'scsi',
  virtio: 'virtio',
};

/** macOS/Windows: what their tools said about the disk, in Linux's DiskInfo shape. */
export function diskFromPlatform(d: PlatformDisk): DiskInfo {
  const disk: DiskInfo = { name: d.name, bus: BUS_OF_LINK[d.link.kind] ?? 'unknown', link: d.link.label, linkInfo: d.link };
  if (d.model) disk.model = d.model;
  if (d.serial) disk.serial = d.serial;
  if (d.firmware) disk.health = { firmware: d.firmware };
  if (d.internal !== undefined) disk.removable = !d.internal;
  return disk;
}

/** For an ENOSPC: the volume's free inodes, so "no space" can be told from "no file slots"
 *  (undefined for other errors, or where the file system counts none: Btrfs says 0 of 0). */
export async function inodesAfter(err: unknown, target: string): Promise<{ freeInodes?: number }> {
  if ((err as NodeJS.ErrnoException | undefined)?.code !== 'ENOSPC') return {};
  const st = await fsp.statfs(target).catch(() => undefined);
  return st && st.files > 0 ? { freeInodes: st.ffree } : {};
}

export async function volumeInfo(target: string): Promise<VolumeInfo> {
  const abs = path.resolve(target);
  const realPath = await fsp.realpath(abs);
  const st = await fsp.statfs(realPath);
  const info: VolumeInfo = {
    path: abs,
    realPath,
    mountPoint: path.parse(realPath).root,
    device: 'unknown',
    fsType: 'unknown',
    mountOptions: [],
    superOptions: [],
    totalBytes: st.blocks * st.bsize,
    freeBytes: st.bavail * st.bsize,
  };
  if (process.platform === 'darwin' || process.platform === 'win32') {
    const lookup: PlatformDiskLookup =
      process.platform === 'darwin' ? { disk: await macDiskFor(realPath) } : await windowsDiskLookup(realPath);
    const d = lookup.disk;
    if (d) {
      info.disk = diskFromPlatform(d);
      if (d.mountPoint) info.mountPoint = d.mountPoint;
    } else if (process.platform === 'darwin') {
      const share = await macShareFor(realPath);
      if (share)
        Object.assign(info, {
          network: share.network,
          fsType: share.fsType,
          mountPoint: share.mountPoint,
          device: share.network.server ?? 'unknown',
        });
    } else {
      const network = await windowsNetworkFor(realPath);
      if (network) info.network = network;
    }
    // A share has no local disk to describe: PowerShell's silence about it is no missing tool.
    if (lookup.note && !info.network) info.diskNote = lookup.note;
    return info;
  }
  if (process.platform !== 'linux') return info;

  const m = findMount(await readMountinfo(), realPath);
  if (!m) return info;
  info.mountPoint = m.mountPoint;
  info.device = m.source;
  info.fsType = m.fsType;
  info.mountOptions = m.mountOptions;
  info.superOptions = m.superOptions;
  if (isNetworkFs(m.fsType)) {
    const options = [...m.mountOptions, ...m.superOptions];
    const network = await linuxNetworkPath({ fsType: m.fsType, source: m.source, mountPoint: m.mountPoint, options, realPath });
    if (network) info.network = network;
  }

  const dev = await mountDevNumber(m);
  info.devNumber = dev;
  if (!dev.startsWith('0:')) {
    const disk = await diskInfo(dev);
    if (disk) {
      const { encrypted, ...rest } = disk;
      info.disk = rest;
      if (encrypted !== undefined) info.encrypted = encrypted;
      if (encrypted) info.encryption = { kind: 'dm-crypt' };
    }
  }
  // A folder fscrypt encrypts on an unencrypted volume: the file system encrypts, in the kernel.
  const fscrypt = await fscryptOf(realPath);
  if (fscrypt) {
    info.encrypted = true;
    info.encryption = fscrypt;
  }
  const label = await labelFor(m.source);
  if (label) info.label = label;
  return info;
}
