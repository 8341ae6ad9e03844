// Linux: what the real machine says — the tools on PATH and the kernel's file systems (the
// probe), the sysfs facts that identify a disk, who else uses block devices, the mount table.
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { ReadCommand } from '../exec/commands.js';
import { parseBlkidExport, parseBtrfsShow, parseMdstat, parsePvs, parseSwaps, type DiskSysInfo, type LinuxUsage } from './linux-lsblk.js';

/** What this machine has: commands on PATH, file systems the kernel mounts, device-mapper. */
export interface LinuxProbe {
  has(cmd: string): boolean;
  /** /proc/filesystems names (ext4, xfs, btrfs, vfat, fuseblk…). */
  filesystems: ReadonlySet<string>;
  /** /dev/mapper/control exists: dm-crypt can work. */
  deviceMapper: boolean;
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
export async function systemSysInfo(exec: ReadCommand): Promise<DiskSysInfo> {
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
  const [json, blkid] = await Promise.all([
    exec(['losetup', '--json', '--list', '--output', 'NAME,BACK-INO,BACK-MAJ:MIN']).catch(() => ''),
    exec(['blkid', '-o', 'export']).catch(() => ''),
  ]);
  const probed = parseBlkidExport(blkid);
  // Where blkid has nothing (it can skip a device its cache does not hold), a mounted device's
  // type in the mount table; not FUSE's generic "fuseblk", which names no file system.
  const mounted = new Map(
    procMounts()
      .filter((m) => m.source.startsWith('/dev/') && !/^fuse/.test(m.fstype))
      .map((m) => [m.source, m.fstype]),
  );
  if (json) {
    for (const l of (JSON.parse(json) as { loopdevices?: Array<Record<string, string | number | null>> }).loopdevices ?? []) {
      const ino = Number(l['back-ino']);
      const dev = String(l['back-maj:min'] ?? '').trim();
      if (typeof l.name === 'string' && Number.isFinite(ino) && dev) loops.set(path.basename(l.name), { ino, dev });
    }
  }
  return {
    backingFile: sysBackingFile,
    loopInode: (n) => loops.get(n),
    byId: (n) => byId.get(n) ?? [],
    usbSerial: sysUsbSerial,
    blkid: (dev) => probed.get(dev) ?? (mounted.has(dev) ? { fs: mounted.get(dev)! } : undefined),
  };
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
export async function systemUsage(exec: ReadCommand, probe: Pick<LinuxProbe, 'has'>): Promise<LinuxUsage> {
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

/** /proc/self/mounts: source, mount point and type of each mount (octal escapes undone). */
export function procMounts(): Array<{ source: string; target: string; fstype: string }> {
  const unescape = (x: string): string => x.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
  return readIfThere('/proc/self/mounts')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [source = '', target = '', fstype = ''] = line.split(' ');
      return { source: unescape(source), target: unescape(target), fstype };
    });
}

/** The LUKS mapping a plan opens is named after the plan, so a resume can prove it is its own. */
