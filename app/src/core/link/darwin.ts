// macOS link detection: pure parsers for `system_profiler -json` (USB speed, NVMe link, SATA
// rate, each volume's bus) and the lookup that runs `df` and system_profiler for a folder.
import { asArray, asObject, parseJson, text, type Json } from '../exec/json.js';
import type { ReadCommand } from '../exec/commands.js';
import type { LinkInfo, LinkKind } from '../../model/link-types.js';
import { namedLink, parseGtPerS, pcieLink, sataLink, usbLink } from './ceilings.js';
import { linkRead, type PlatformDisk } from './platform.js';

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
  const own = text(item.bsd_name);
  if (own) names.push(own);
  for (const m of asArray(item.Media)) {
    const b = text(asObject(m)?.bsd_name);
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
    const speed = text(item.device_speed);
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
    const bsd = text(item.bsd_name);
    if (!bsd) return;
    const key = (re: RegExp): string | undefined => {
      for (const [k, v] of Object.entries(item)) if (re.test(k)) return text(v);
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
    const bsd = text(item.bsd_name);
    if (!bsd) return;
    const speedText = text(item.spsata_negotiatedlinkspeed) ?? text(parent?.spsata_negotiatedlinkspeed) ?? text(parent?.spsata_portspeed);
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
    const bsd = text(o?.bsd_name);
    if (!o || !bsd) continue;
    const drive = asObject(o.physical_drive);
    const protocol = text(drive?.protocol);
    const [kind, label] = (protocol && MAC_PROTOCOL[protocol.toLowerCase()]) || ['unknown', protocol ?? 'unknown'];
    const entry: MacVolumeLink = { bsdName: bsd, link: namedLink(kind, label, 'system_profiler') };
    const mp = text(o.mount_point);
    if (mp) entry.mountPoint = mp;
    const name = text(drive?.device_name);
    if (name) entry.deviceName = name;
    const internal = text(drive?.is_internal_disk);
    if (internal) entry.internal = internal === 'yes';
    out.push(entry);
  }
  return out;
}

const MAC_TYPES = ['SPStorageDataType', 'SPUSBDataType', 'SPNVMeDataType', 'SPSerialATADataType'];

/** macOS: `df -P` names the volume's BSD device; system_profiler gives its bus (per volume) and
 *  the negotiated speed (per whole disk, where the bus reports one). */
export async function macDiskFor(target: string, run: ReadCommand = linkRead): Promise<PlatformDisk | undefined> {
  try {
    const df = (await run(['df', '-P', target])).trim().split('\n').at(-1)?.split(/\s+/) ?? [];
    const volume = df[0]?.replace(/^\/dev\//, '');
    if (!volume || !/^disk\d+/.test(volume)) return undefined;
    const whole = /^disk\d+/.exec(volume)![0];
    const json = await run(['system_profiler', '-json', ...MAC_TYPES]);
    const storage = parseSystemProfilerStorage(json).find((v) => v.bsdName === volume);
    const speed = parseSystemProfiler(json)[whole];
    const link = speed ?? storage?.link;
    if (!link) return undefined;
    const disk: PlatformDisk = { name: whole, link };
    const mp = storage?.mountPoint ?? df.at(-1);
    if (mp) disk.mountPoint = mp;
    if (storage?.deviceName) disk.model = storage.deviceName;
    if (storage?.internal !== undefined) disk.internal = storage.internal;
    return disk;
  } catch {
    return undefined;
  }
}
