// Link detection: what interface a disk hangs off (USB, Thunderbolt, NVMe over PCIe, SATA,
// virtio), the payload ceiling that link allows after line encoding, and the range such links
// typically deliver. Plus the drive's own readings (firmware, temperature) where the OS shows them.
//
// Linux reads sysfs from an injectable root (`sysRoot`, default /sys) so tests can build fake
// trees that mirror the real layout. macOS and Windows get pure parsers for the output of
// `system_profiler -json …` and `Get-PhysicalDisk | … | ConvertTo-Json`; running those commands
// is left to the caller (spawning processes does not belong in core).
//
// Nothing here throws: an unreadable file or an unexpected shape leaves a field out, or gives
// `undefined` for the whole link. Speeds are MB/s (10^6 bytes/s); signalling rates are Mb/s.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { DriveHealth, LinkInfo, LinkKind } from '../model/link-types.js';

export type { DriveHealth, LinkInfo } from '../model/link-types.js';

export interface SysOptions {
  /** Where sysfs is mounted; tests point this at a fake tree. */
  sysRoot?: string;
}

// ---- pure: ceilings and typical ranges ------------------------------------------------------

/** Payload MB/s of a serial link: Mb/s × encoding efficiency / 8 bits. */
function payloadMBps(rawMbps: number, efficiency: number): number {
  return (rawMbps * efficiency) / 8;
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/**
 * A USB link from the negotiated speed sysfs reports (Mb/s) and, when known, the storage driver
 * bound to the disk's interface ('uas' or 'usb-storage'). The bulk-only transport (usb-storage,
 * "BOT") runs one command at a time with a status phase after each, so on SuperSpeed links it
 * typically gets noticeably less than UAS; the typical range is lowered for it and the label says so.
 */
export function usbLink(speedMbps: number, driver?: string): LinkInfo {
  const bot = driver === 'usb-storage';
  const base: Pick<LinkInfo, 'kind' | 'rawMbps' | 'source'> & { driver?: string } = { kind: 'usb', rawMbps: speedMbps, source: 'sysfs' };
  if (driver) base.driver = driver;
  const suffix = driver === 'uas' ? ', UAS' : bot ? ', BOT (usb-storage)' : '';
  let link: LinkInfo;
  if (speedMbps <= 1.5) {
    link = { ...base, label: 'USB 1.1 Low Speed (1.5 Mb/s)', encoding: 'NRZI + bit stuffing' };
  } else if (speedMbps <= 12) {
    // Full Speed bulk: at most 19 packets of 64 bytes per 1 ms frame = 1.216 MB/s of payload.
    link = { ...base, label: 'USB 1.1 Full Speed (12 Mb/s)', encoding: 'NRZI + bit stuffing', ceilingMBps: 1.2, typicalMBps: [0.8, 1.1] };
  } else if (speedMbps <= 480) {
    // Hi-Speed bulk: at most 13 packets of 512 bytes per 125 µs microframe = 53.2 MB/s of payload
    // (USB 2.0 spec §5.8.4), well under the 60 MB/s the raw 480 Mb/s suggests: NRZI with bit
    // stuffing, packet framing and handshakes eat the rest. Disks typically get 25–42 MB/s; UAS
    // is rare on USB 2 and changes little there.
    link = { ...base, label: 'USB 2.0 Hi-Speed (480 Mb/s)', encoding: 'NRZI + bit stuffing', ceilingMBps: 53.2, typicalMBps: [25, 42] };
  } else if (speedMbps <= 5000) {
    // 5 Gb/s with 8b/10b: 500 MB/s before packet headers and flow control.
    link = { ...base, label: 'USB 3.2 Gen 1 (5 Gb/s)', encoding: '8b/10b', ceilingMBps: 500, typicalMBps: bot ? [250, 380] : [350, 450] };
  } else if (speedMbps <= 10000) {
    // 10 Gb/s with 128b/132b: 10e9 × 128/132 / 8 ≈ 1212 MB/s.
    link = {
      ...base,
      label: 'USB 3.2 Gen 2 (10 Gb/s)',
      encoding: '128b/132b',
      ceilingMBps: round1(payloadMBps(10000, 128 / 132)),
      typicalMBps: bot ? [500, 800] : [900, 1050],
    };
  } else if (speedMbps <= 20000) {
    // Two 10 Gb/s lanes, 128b/132b each: ≈ 2424 MB/s.
    link = {
      ...base,
      label: 'USB 3.2 Gen 2x2 (20 Gb/s)',
      encoding: '128b/132b',
      ceilingMBps: round1(payloadMBps(20000, 128 / 132)),
      typicalMBps: bot ? [800, 1400] : [1800, 2100],
    };
  } else {
    // USB4 Gen 3x2 (two 20 Gb/s lanes, 128b/132b). Fast USB4 disks are PCIe tunnelled in
    // practice (ASM2464-class enclosures reach 3–3.8 GB/s).
    const gbps = Math.round(speedMbps / 1000);
    link = {
      ...base,
      label: `USB4 (${gbps} Gb/s)`,
      encoding: '128b/132b',
      ceilingMBps: round1(payloadMBps(speedMbps, 128 / 132)),
      typicalMBps: [3000, 3800],
    };
  }
  link.label += suffix;
  return link;
}

const PCIE_GEN: ReadonlyArray<[gt: number, gen: string]> = [
  [2.5, '1.0'],
  [5, '2.0'],
  [8, '3.0'],
  [16, '4.0'],
  [32, '5.0'],
  [64, '6.0'],
];

/**
 * A PCIe link from its rate per lane (GT/s) and width. Gen 1/2 use 8b/10b, Gen 3–5 128b/130b.
 * Gen 6 moved to PAM4 with 256-byte FLITs whose FEC/CRC leave 242 of 256 bytes for payload; that
 * ratio is used as an approximation (TLP headers come on top for every generation). Fast NVMe
 * drives typically reach 85–95 % of the ceiling in sequential reads.
 */
export function pcieLink(gtPerS: number, lanes: number): LinkInfo {
  const gen = PCIE_GEN.find(([gt]) => Math.abs(gt - gtPerS) < 0.01)?.[1];
  const [encoding, efficiency] =
    gtPerS <= 5 ? ['8b/10b', 8 / 10] : gtPerS < 64 ? ['128b/130b', 128 / 130] : ['PAM4 FLIT (≈242/256)', 242 / 256];
  const ceiling = round1(payloadMBps(gtPerS * 1000 * lanes, efficiency));
  return {
    kind: 'pcie',
    label: gen ? `PCIe ${gen} x${lanes}` : `PCIe ${gtPerS} GT/s x${lanes}`,
    rawMbps: gtPerS * 1000 * lanes,
    encoding,
    ceilingMBps: ceiling,
    typicalMBps: [Math.round(ceiling * 0.85), Math.round(ceiling * 0.95)],
    source: 'sysfs',
  };
}

/** A SATA link from its negotiated rate (Gb/s). All three generations use 8b/10b. */
export function sataLink(gbps: number): LinkInfo {
  const ceiling = round1(payloadMBps(gbps * 1000, 0.8));
  // Typical ranges are what SSDs get on each generation (FIS and command overheads included);
  // spinning disks are limited by the platter, well below any of them.
  const [label, typical]: [string, [number, number]] =
    gbps <= 1.5
      ? ['SATA I (1.5 Gb/s)', [100, 140]]
      : gbps <= 3
        ? ['SATA II (3 Gb/s)', [250, 285]]
        : gbps <= 6
          ? ['SATA III (6 Gb/s)', [500, 560]]
          : [`SATA (${gbps} Gb/s)`, [Math.round(ceiling * 0.85), Math.round(ceiling * 0.93)]];
  return { kind: 'sata', label, rawMbps: gbps * 1000, encoding: '8b/10b', ceilingMBps: ceiling, typicalMBps: typical, source: 'sysfs' };
}

export interface ThunderboltOptions {
  /** Per-lane speed of the Thunderbolt/USB4 link, Gb/s (sysfs rx_speed): 10, 20 or 40. */
  laneGbps?: number;
  /** Thunderbolt generation as sysfs reports it (1–3 Thunderbolt, 4 USB4/Thunderbolt 4). */
  generation?: number;
  /** The PCIe link of the disk to its enclosure's bridge; it caps the ceiling when lower. */
  pcie?: LinkInfo;
}

/**
 * A disk on a PCIe tunnel through Thunderbolt or USB4. Assumptions, from vendor figures and
 * published enclosure tests:
 * - Thunderbolt 3/4 and USB4 40 Gb/s: two 20 Gb/s lanes with 128b/132b (TB3: 64b/66b, same
 *   order) give ≈ 4848 MB/s of fabric payload; that is the hard ceiling used. In practice Intel's
 *   TB3/TB4 controllers cap PCIe data at about 22 Gb/s, so NVMe enclosures get 2300–2800 MB/s;
 *   USB4 hosts with ASM2464-class enclosures reach up to ≈ 3800 MB/s.
 * - Thunderbolt 5 (USB4 v2, 40 Gb/s lanes, 80 Gb/s): the PCIe tunnel is PCIe 4.0 x4-class,
 *   ceiling ≈ 7877 MB/s, enclosures typically 5000–6500 MB/s.
 * The disk's own PCIe link (to the enclosure's bridge) caps the ceiling when it is lower.
 */
export function thunderboltLink(opts: ThunderboltOptions = {}): LinkInfo {
  const tb5 = (opts.laneGbps ?? 0) >= 40;
  let ceiling = tb5 ? round1(payloadMBps(64000, 128 / 130)) : round1(payloadMBps(40000, 128 / 132));
  if (opts.pcie?.ceilingMBps !== undefined) ceiling = Math.min(ceiling, opts.pcie.ceilingMBps);
  const typical: [number, number] = tb5 ? [5000, 6500] : opts.generation === 4 ? [2300, 3800] : [2300, 2800];
  return {
    kind: 'thunderbolt',
    label: tb5 ? 'Thunderbolt 5 (PCIe x4 tunnel)' : 'Thunderbolt (PCIe x4 tunnel)',
    rawMbps: tb5 ? 80000 : 40000,
    encoding: '128b/132b',
    ceilingMBps: ceiling,
    typicalMBps: [Math.min(typical[0], ceiling), Math.min(typical[1], ceiling)],
    source: 'sysfs',
  };
}

/** A link we can name but not measure (virtio, a bus with no speed): no ceiling. */
function namedLink(kind: LinkKind, label: string, source: string): LinkInfo {
  return { kind, label, source };
}

// ---- Linux: sysfs ---------------------------------------------------------------------------

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

async function exists(p: string): Promise<boolean> {
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

/** "16.0 GT/s PCIe", "8 GT/s", "2.5 GT/s" → GT/s; "Unknown" → undefined. */
function parseGtPerS(s: string | undefined): number | undefined {
  const m = s?.match(/([\d.]+)\s*GT\/s/i);
  const n = m ? Number(m[1]) : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
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

// ---- macOS: system_profiler -json -----------------------------------------------------------

type Json = Record<string, unknown>;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function asObject(v: unknown): Json | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/** system_profiler's device_speed ("super_speed_plus") or text ("Up to 10 Gb/s") → Mb/s. */
export function macUsbSpeedMbps(speed: string): number | undefined {
  const s = speed.toLowerCase();
  const rate = s.match(/([\d.]+)\s*(gb|mb)/);
  if (rate) return Number(rate[1]) * (rate[2] === 'gb' ? 1000 : 1);
  if (s.includes('super_speed_plus_by2') || s.includes('superspeedplus_by2')) return 20000;
  if (s.includes('super_speed_plus') || s.includes('superspeedplus')) return 10000;
  if (s.includes('super_speed') || s.includes('superspeed')) return 5000;
  if (s.includes('high_speed')) return 480;
  if (s.includes('full_speed')) return 12;
  if (s.includes('low_speed')) return 1.5;
  return undefined;
}

/** Calls `visit` for every item of a system_profiler tree (items nest under `_items`). */
function walkItems(items: unknown[], visit: (item: Json, parent: Json | undefined) => void, parent?: Json): void {
  for (const it of items) {
    const o = asObject(it);
    if (!o) continue;
    visit(o, parent);
    walkItems(asArray(o._items), visit, o);
  }
}

function bsdNamesOf(item: Json): string[] {
  const names: string[] = [];
  const own = str(item.bsd_name);
  if (own) names.push(own);
  for (const m of asArray(item.Media)) {
    const b = str(asObject(m)?.bsd_name);
    if (b) names.push(b);
  }
  return names;
}

/** Per BSD name (disk4), the USB link of disks in `system_profiler -json SPUSBDataType`.
 *  system_profiler does not say whether UAS or BOT is used, so `driver` stays unset. */
export function parseSystemProfilerUsb(json: string): Record<string, LinkInfo> {
  const out: Record<string, LinkInfo> = {};
  const root = asObject(parseJson(json));
  walkItems(asArray(root?.SPUSBDataType), (item) => {
    const names = bsdNamesOf(item);
    const speed = str(item.device_speed);
    const mbps = speed ? macUsbSpeedMbps(speed) : undefined;
    if (!names.length || mbps === undefined) return;
    for (const n of names) out[n] = { ...usbLink(mbps), source: 'system_profiler' };
  });
  return out;
}

/** Per BSD name, the NVMe link from `system_profiler -json SPNVMeDataType`. Third-party NVMe
 *  (Intel Macs, Thunderbolt enclosures) report link width and speed; Apple's own SSDs on Apple
 *  silicon sit on the internal fabric and report none, so they get a label without a ceiling. */
export function parseSystemProfilerNvme(json: string): Record<string, LinkInfo> {
  const out: Record<string, LinkInfo> = {};
  const root = asObject(parseJson(json));
  walkItems(asArray(root?.SPNVMeDataType), (item) => {
    const bsd = str(item.bsd_name);
    if (!bsd) return;
    const key = (re: RegExp): string | undefined => {
      for (const [k, v] of Object.entries(item)) if (re.test(k)) return str(v);
      return undefined;
    };
    const gt = parseGtPerS(key(/link_?speed/i));
    const width = Number(key(/link_?width/i)?.match(/\d+/)?.[0]);
    out[bsd] =
      gt && width > 0 ? { ...pcieLink(gt, width), source: 'system_profiler' } : namedLink('pcie', 'NVMe (internal)', 'system_profiler');
  });
  return out;
}

/** Per BSD name, the SATA link from `system_profiler -json SPSerialATADataType`; the negotiated
 *  speed ("6 Gigabit") is on the controller entry above the disks. */
export function parseSystemProfilerSata(json: string): Record<string, LinkInfo> {
  const out: Record<string, LinkInfo> = {};
  const root = asObject(parseJson(json));
  walkItems(asArray(root?.SPSerialATADataType), (item, parent) => {
    const bsd = str(item.bsd_name);
    if (!bsd) return;
    const speedText = str(item.spsata_negotiatedlinkspeed) ?? str(parent?.spsata_negotiatedlinkspeed) ?? str(parent?.spsata_portspeed);
    const gbps = Number(speedText?.match(/([\d.]+)\s*Gigabit/i)?.[1]);
    out[bsd] = gbps > 0 ? { ...sataLink(gbps), source: 'system_profiler' } : namedLink('sata', 'SATA', 'system_profiler');
  });
  return out;
}

/** All of the above from one `system_profiler -json SPUSBDataType SPNVMeDataType
 *  SPSerialATADataType` run (the types share one top-level object). */
export function parseSystemProfiler(json: string): Record<string, LinkInfo> {
  return { ...parseSystemProfilerSata(json), ...parseSystemProfilerNvme(json), ...parseSystemProfilerUsb(json) };
}

export interface MacVolumeLink {
  /** The volume's BSD name (disk3s1s1). */
  bsdName: string;
  mountPoint?: string;
  deviceName?: string;
  internal?: boolean;
  link: LinkInfo;
}

const MAC_PROTOCOL: Record<string, [LinkKind, string]> = {
  usb: ['usb', 'USB'],
  'pci-express': ['pcie', 'PCIe'],
  pci: ['pcie', 'PCIe'],
  nvme: ['pcie', 'NVMe (PCIe)'],
  sata: ['sata', 'SATA'],
  thunderbolt: ['thunderbolt', 'Thunderbolt'],
  'apple fabric': ['pcie', 'Apple Fabric (internal)'],
  sas: ['sas', 'SAS'],
  'disk image': ['virtio', 'Disk image'],
};

/** Per mounted volume, the bus protocol from `system_profiler -json SPStorageDataType`
 *  (physical_drive.protocol). It names the bus only; speeds come from the parsers above. */
export function parseSystemProfilerStorage(json: string): MacVolumeLink[] {
  const out: MacVolumeLink[] = [];
  const root = asObject(parseJson(json));
  for (const v of asArray(root?.SPStorageDataType)) {
    const o = asObject(v);
    const bsd = str(o?.bsd_name);
    if (!o || !bsd) continue;
    const drive = asObject(o.physical_drive);
    const protocol = str(drive?.protocol);
    const [kind, label] = (protocol && MAC_PROTOCOL[protocol.toLowerCase()]) || ['unknown', protocol ?? 'unknown'];
    const entry: MacVolumeLink = { bsdName: bsd, link: namedLink(kind, label, 'system_profiler') };
    const mp = str(o.mount_point);
    if (mp) entry.mountPoint = mp;
    const name = str(drive?.device_name);
    if (name) entry.deviceName = name;
    const internal = str(drive?.is_internal_disk);
    if (internal) entry.internal = internal === 'yes';
    out.push(entry);
  }
  return out;
}

// ---- Windows: Get-PhysicalDisk --------------------------------------------------------------

/** The PowerShell this parser expects (one object or an array of them). */
export const WINDOWS_DISKS_COMMAND =
  'Get-PhysicalDisk | Select-Object DeviceId,FriendlyName,BusType,MediaType,SerialNumber,FirmwareVersion | ConvertTo-Json';

// MSFT_PhysicalDisk.BusType: ConvertTo-Json writes the number from CIM, but a formatted pipeline
// gives the name, so both are accepted.
const WIN_BUS_NUMBER: Record<number, string> = {
  0: 'Unknown',
  1: 'SCSI',
  2: 'ATAPI',
  3: 'ATA',
  4: '1394',
  5: 'SSA',
  6: 'Fibre Channel',
  7: 'USB',
  8: 'RAID',
  9: 'iSCSI',
  10: 'SAS',
  11: 'SATA',
  12: 'SD',
  13: 'MMC',
  14: 'Virtual',
  15: 'File Backed Virtual',
  16: 'Storage Spaces',
  17: 'NVMe',
};
const WIN_MEDIA_NUMBER: Record<number, string> = { 0: 'Unspecified', 3: 'HDD', 4: 'SSD', 5: 'SCM' };

function winBusLink(bus: string): LinkInfo {
  const b = bus.toLowerCase();
  const [kind, label]: [LinkKind, string] =
    b === 'usb'
      ? ['usb', 'USB']
      : b === 'nvme'
        ? ['pcie', 'NVMe (PCIe)']
        : b === 'sata' || b === 'ata'
          ? ['sata', 'SATA']
          : b === 'sas'
            ? ['sas', 'SAS']
            : b === 'file backed virtual' || b === 'virtual'
              ? ['virtio', 'Virtual disk']
              : b === 'iscsi'
                ? ['network', 'iSCSI']
                : ['unknown', bus];
  return namedLink(kind, label, 'powershell');
}

export interface WindowsDisk {
  deviceId?: string;
  friendlyName?: string;
  serial?: string;
  firmware?: string;
  mediaType?: string;
  /** Bus only: Get-PhysicalDisk does not report negotiated speed. */
  link: LinkInfo;
}

/** Disks from `WINDOWS_DISKS_COMMAND` output; BusType gives the kind and label, no speed. */
export function parseWindowsDisks(json: string): WindowsDisk[] {
  const parsed = parseJson(json);
  const list = Array.isArray(parsed) ? parsed : parsed ? [parsed] : [];
  const out: WindowsDisk[] = [];
  for (const d of list) {
    const o = asObject(d);
    if (!o) continue;
    const busRaw = o.BusType;
    const bus = typeof busRaw === 'number' ? (WIN_BUS_NUMBER[busRaw] ?? 'Unknown') : (str(busRaw) ?? 'Unknown');
    const disk: WindowsDisk = { link: winBusLink(bus) };
    const id = o.DeviceId;
    if (typeof id === 'string' || typeof id === 'number') disk.deviceId = String(id);
    const name = str(o.FriendlyName);
    if (name) disk.friendlyName = name;
    const serial = str(o.SerialNumber);
    if (serial) disk.serial = serial;
    const fw = str(o.FirmwareVersion);
    if (fw) disk.firmware = fw;
    const media = typeof o.MediaType === 'number' ? WIN_MEDIA_NUMBER[o.MediaType] : str(o.MediaType);
    if (media) disk.mediaType = media;
    out.push(disk);
  }
  return out;
}
