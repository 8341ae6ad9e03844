// Linux link detection from sysfs: what interface a disk hangs off (USB and its storage driver,
// NVMe's PCIe link or the Thunderbolt tunnel it rides, SATA, virtio), plus firmware and
// temperature. sysfs is read from an injectable root (`sysRoot`) so tests build fake trees.
// Nothing here throws: an unreadable file leaves a field out, or gives `undefined` for the link.
import { promises as fsp } from 'node:fs';
import path from 'node:path';

import type { DriveHealth, LinkInfo } from '../../model/link-types.js';
import { namedLink, parseGtPerS, pcieLink, sataLink, thunderboltLink, usbLink } from './ceilings.js';

export interface SysOptions {
  /** Where sysfs is mounted; tests point this at a fake tree. */
  sysRoot?: string;
}

/** A sysfs attribute's text, trimmed; undefined when missing, unreadable or empty. */
export async function readTrim(file: string): Promise<string | undefined> {
  try {
    const s = (await fsp.readFile(file, 'utf8')).trim();
    return s || undefined;
  } catch {
    return undefined;
  }
}

async function isDir(p: string): Promise<boolean> {
  try {
    return (await fsp.stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** Whether a path exists (a sysfs attribute, a device node); never rejects. */
export async function exists(p: string): Promise<boolean> {
  try {
    await fsp.access(p);
    return true;
  } catch {
    return false;
  }
}

async function listDir(p: string): Promise<string[]> {
  try {
    return (await fsp.readdir(p)).sort();
  } catch {
    return [];
  }
}

async function realpathOr(p: string): Promise<string | undefined> {
  try {
    return await fsp.realpath(p);
  } catch {
    return undefined;
  }
}

/** The whole disk's sysfs folder for a MAJ:MIN (a partition's folder sits inside its disk's). */
async function diskDir(devNumber: string, root: string): Promise<string | undefined> {
  if (!/^\d+:\d+$/.test(devNumber)) return undefined;
  const node = await realpathOr(path.join(root, 'dev/block', devNumber));
  if (!node) return undefined;
  return (await exists(path.join(node, 'partition'))) ? path.dirname(node) : node;
}

/**
 * NVMe controllers behind a namespace. Without native multipath `device` points at the controller
 * (…/nvme/nvme0); with it the namespace lives under /sys/devices/virtual/nvme-subsystem/nvme-subsysN
 * and the controllers are the nvmeN links in that folder.
 */
async function nvmeControllers(disk: string): Promise<string[]> {
  const dev = await realpathOr(path.join(disk, 'device'));
  if (dev && /^nvme\d+$/.test(path.basename(dev))) return [dev];
  const parent = path.dirname(disk);
  if (!/^nvme-subsys\d+$/.test(path.basename(parent))) return [];
  const out: string[] = [];
  for (const n of await listDir(parent)) {
    if (!/^nvme\d+$/.test(n)) continue;
    const r = await realpathOr(path.join(parent, n));
    if (r) out.push(r);
  }
  return out;
}

/** The attached Thunderbolt/USB4 devices' generation and fastest lane, for the tunnel's ceiling.
 *  sysfs does not say which of them carries a given PCIe tunnel, so TB5 figures are used only
 *  when every attached device runs 40 Gb/s lanes (never overstating a TB3 disk's ceiling). */
async function thunderboltFabric(root: string): Promise<{ laneGbps?: number; generation?: number }> {
  const dir = path.join(root, 'bus/thunderbolt/devices');
  let minLane: number | undefined;
  let maxGen: number | undefined;
  for (const n of await listDir(dir)) {
    // Routers are "domain-route" (0-0 is the host's own); skip domains, the host, and XDomain/services.
    if (!/^\d+-[0-9a-f]+$/.test(n) || /^\d+-0$/.test(n)) continue;
    const speed = Number((await readTrim(path.join(dir, n, 'rx_speed')))?.match(/[\d.]+/)?.[0]);
    if (Number.isFinite(speed) && speed > 0) minLane = minLane === undefined ? speed : Math.min(minLane, speed);
    const gen = Number(await readTrim(path.join(dir, n, 'generation')));
    if (Number.isFinite(gen) && gen > 0) maxGen = Math.max(maxGen ?? 0, gen);
  }
  const out: { laneGbps?: number; generation?: number } = {};
  if (minLane !== undefined) out.laneGbps = minLane;
  if (maxGen !== undefined) out.generation = maxGen;
  return out;
}

/**
 * Whether a PCIe function sits behind a Thunderbolt/USB4 tunnel. The tunnelled devices hang off
 * the controller's PCIe bridges, not off the thunderbolt domain, so the reliable signal is the
 * kernel marking the function (or a bridge above it) `removable` — set for devices behind an
 * external-facing port (Linux 5.16+). A path through a "domainN" folder is accepted as well.
 */
async function behindThunderbolt(pciDirs: readonly string[], root: string): Promise<boolean> {
  if (!(await isDir(path.join(root, 'bus/thunderbolt')))) return false;
  for (const d of pciDirs) {
    if (/\/domain\d+(\/|$)/.test(d)) return true;
    if ((await readTrim(path.join(d, 'removable'))) === 'removable') return true;
  }
  return false;
}

/** sata_spd of the link for an "ataN" port folder: class/ata_link/linkN, or inside the port. */
async function sataSpeed(ataDir: string, root: string): Promise<number | undefined> {
  const n = path.basename(ataDir).slice(3);
  const candidates = [
    path.join(root, 'class/ata_link', `link${n}`, 'sata_spd'),
    path.join(ataDir, `link${n}`, 'ata_link', `link${n}`, 'sata_spd'),
  ];
  for (const c of candidates) {
    const m = (await readTrim(c))?.match(/([\d.]+)\s*Gbps/i);
    if (m) return Number(m[1]);
  }
  return undefined;
}

const USB_INTERFACE = /^\d+-[\d.]+:\d+\.\d+$/;
const ATA_PORT = /^ata\d+$/;

async function linkOfDisk(disk: string, root: string, depth: number): Promise<LinkInfo | undefined> {
  // dm-crypt, LVM and friends: follow a single underlying device (LUKS on a USB disk is common).
  // Several slaves (RAID, spanning) have no single link to report.
  const slaves = (await listDir(path.join(disk, 'slaves'))).filter((n) => !n.startsWith('.'));
  if (slaves.length === 1 && depth < 4) {
    const slave = await realpathOr(path.join(disk, 'slaves', slaves[0]!));
    if (!slave) return undefined;
    const whole = (await exists(path.join(slave, 'partition'))) ? path.dirname(slave) : slave;
    return linkOfDisk(whole, root, depth + 1);
  }
  if (slaves.length > 1) return undefined;

  const controllers = await nvmeControllers(disk);
  const start = controllers[0] ?? disk;
  const nvme = controllers.length > 0 || /\/nvme\//.test(start);
  const devicesRoot = path.join(root, 'devices');
  let usbDriver: string | undefined;
  const pciDirs: string[] = [];
  let pcie: LinkInfo | undefined;

  for (let dir = start; dir.startsWith(`${root}/`) && dir !== devicesRoot; dir = path.dirname(dir)) {
    const name = path.basename(dir);
    // virtio-blk sits on a virtioN device under a PCI function that may report a link of its own:
    // the virtual disk's speed has nothing to do with it.
    if (/^virtio\d+$/.test(name)) return namedLink('virtio', 'virtio (virtual disk)', 'sysfs');
    if (USB_INTERFACE.test(name) && usbDriver === undefined) {
      const drv = await realpathOr(path.join(dir, 'driver'));
      if (drv) usbDriver = path.basename(drv);
      continue;
    }
    if (!pcie) {
      const speed = await readTrim(path.join(dir, 'speed'));
      if (speed !== undefined && (await exists(path.join(dir, 'idVendor')))) {
        const mbps = Number(speed);
        if (Number.isFinite(mbps) && mbps > 0) {
          const link = usbLink(mbps, usbDriver === 'uas' || usbDriver === 'usb-storage' ? usbDriver : undefined);
          return link;
        }
        return undefined;
      }
      if (ATA_PORT.test(name)) {
        const gbps = await sataSpeed(dir, root);
        return gbps ? sataLink(gbps) : namedLink('sata', 'SATA', 'sysfs');
      }
      if (/^end_device-/.test(name)) return namedLink('sas', 'SAS', 'sysfs');
    }
    // The first PCI function with a link is the NVMe controller's own; further up are bridges,
    // kept only to spot a Thunderbolt tunnel. A SCSI HBA's or USB host controller's PCIe link
    // says nothing about the disk, so PCIe is reported for NVMe only.
    const gt = await readTrim(path.join(dir, 'current_link_speed'));
    if (gt !== undefined) {
      pciDirs.push(dir);
      if (!pcie && nvme) {
        const rate = parseGtPerS(gt);
        const width = Number(await readTrim(path.join(dir, 'current_link_width')));
        if (rate && Number.isInteger(width) && width > 0) pcie = pcieLink(rate, width);
      }
    }
  }
  if (nvme && pcie && (await behindThunderbolt(pciDirs, root))) {
    return thunderboltLink({ ...(await thunderboltFabric(root)), pcie });
  }
  if (pcie) return pcie;
  if (nvme) return namedLink('pcie', 'NVMe (PCIe)', 'sysfs');
  return undefined;
}

/**
 * The link of the disk holding block device MAJ:MIN (a disk or a partition): USB speed and
 * storage driver, NVMe PCIe generation × lanes (or the Thunderbolt tunnel it rides), SATA link
 * speed, virtio. Undefined when sysfs does not say; never rejects.
 */
export async function detectLink(devNumber: string, opts: SysOptions = {}): Promise<LinkInfo | undefined> {
  try {
    // The root is resolved too: sysfs paths are compared against it after realpath().
    const root = await realpathOr(opts.sysRoot ?? '/sys');
    if (!root) return undefined;
    const disk = await diskDir(devNumber, root);
    if (!disk) return undefined;
    return await linkOfDisk(disk, root, 0);
  } catch {
    return undefined;
  }
}

/** temp1_input of the first hwmon in `dir` (hwmonN folders, or a hwmon/hwmonN class folder). */
async function hwmonTemp(dir: string): Promise<number | undefined> {
  const entries = await listDir(dir);
  const hwmons = entries.filter((n) => /^hwmon\d+$/.test(n)).map((n) => path.join(dir, n));
  if (entries.includes('hwmon'))
    hwmons.push(...(await listDir(path.join(dir, 'hwmon'))).filter((n) => /^hwmon\d+$/.test(n)).map((n) => path.join(dir, 'hwmon', n)));
  for (const h of hwmons) {
    const raw = await readTrim(path.join(h, 'temp1_input'));
    const milli = Number(raw);
    // millidegrees Celsius; NVMe reports the composite temperature as temp1.
    if (raw !== undefined && Number.isFinite(milli)) return milli / 1000;
  }
  return undefined;
}

/**
 * Firmware revision and temperature of the disk holding MAJ:MIN. Firmware: NVMe's
 * device/firmware_rev, else SCSI/ATA's device/rev. Temperature: the hwmon the nvme driver
 * registers under the controller, or one the drivetemp module registers under the SCSI device.
 * Empty when nothing is readable; never rejects.
 */
export async function driveHealth(devNumber: string, opts: SysOptions = {}): Promise<DriveHealth> {
  const health: DriveHealth = {};
  try {
    const root = await realpathOr(opts.sysRoot ?? '/sys');
    if (!root) return health;
    const disk = await diskDir(devNumber, root);
    if (!disk) return health;
    const controllers = await nvmeControllers(disk);
    const deviceDir = controllers[0] ?? (await realpathOr(path.join(disk, 'device')));
    if (!deviceDir) return health;
    const firmware = (await readTrim(path.join(deviceDir, 'firmware_rev'))) ?? (await readTrim(path.join(deviceDir, 'rev')));
    if (firmware) health.firmware = firmware;
    const t = await hwmonTemp(deviceDir);
    if (t !== undefined) health.temperatureC = t;
  } catch {
    /* best effort: whatever was read stays */
  }
  return health;
}
