// Link detection (app/src/core/link.ts): the ceilings computed from line encodings, sysfs walks
// over fake trees that mirror the real /sys layout (symlinks included), the macOS and Windows
// parsers against the sample outputs in test/fixtures/link, and one look at this machine's /sys.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  detectLink,
  driveHealth,
  macUsbSpeedMbps,
  parseSystemProfiler,
  parseSystemProfilerNvme,
  parseSystemProfilerSata,
  parseSystemProfilerStorage,
  parseSystemProfilerUsb,
  parseWindowsDisks,
  pcieLink,
  sataLink,
  thunderboltLink,
  usbLink,
} from '../../../app/src/core/link/index.js';
import { volumeInfo } from '../../../app/src/core/volume.js';
import { TargetsService } from '../../../app/src/services/targets.js';

const FIXTURES = path.join(import.meta.dirname, '../../fixtures/link');
const fixture = (name: string): Promise<string> => fsp.readFile(path.join(FIXTURES, name), 'utf8');

describe('ceilings', () => {
  it('USB: encoding-limited payload per generation', () => {
    expect(usbLink(10000).ceilingMBps).toBeCloseTo(1212.1, 1); // 10e9 × 128/132 / 8
    expect(usbLink(10000)).toMatchObject({
      kind: 'usb',
      label: 'USB 3.2 Gen 2 (10 Gb/s)',
      encoding: '128b/132b',
      rawMbps: 10000,
      typicalMBps: [900, 1050],
    });
    expect(usbLink(5000)).toMatchObject({ label: 'USB 3.2 Gen 1 (5 Gb/s)', encoding: '8b/10b', ceilingMBps: 500 });
    expect(usbLink(20000).ceilingMBps).toBeCloseTo(2424.2, 1);
    expect(usbLink(480)).toMatchObject({ label: 'USB 2.0 Hi-Speed (480 Mb/s)', ceilingMBps: 53.2 });
    expect(usbLink(12).label).toBe('USB 1.1 Full Speed (12 Mb/s)');
    expect(usbLink(40000).label).toBe('USB4 (40 Gb/s)');
  });

  it('USB: the bulk-only driver lowers the typical range and says so', () => {
    const bot = usbLink(10000, 'usb-storage');
    const uas = usbLink(10000, 'uas');
    expect(bot.label).toBe('USB 3.2 Gen 2 (10 Gb/s), BOT (usb-storage)');
    expect(uas.label).toBe('USB 3.2 Gen 2 (10 Gb/s), UAS');
    expect(bot.ceilingMBps).toBe(uas.ceilingMBps);
    expect(bot.typicalMBps![1]).toBeLessThan(uas.typicalMBps![0]);
  });

  it('PCIe: GT/s × lanes × encoding', () => {
    expect(pcieLink(16, 4)).toMatchObject({ label: 'PCIe 4.0 x4', encoding: '128b/130b', rawMbps: 64000 });
    expect(pcieLink(16, 4).ceilingMBps).toBeCloseTo(7876.9, 1);
    expect(pcieLink(8, 4).ceilingMBps).toBeCloseTo(3938.5, 1);
    expect(pcieLink(5, 2)).toMatchObject({ label: 'PCIe 2.0 x2', encoding: '8b/10b', ceilingMBps: 1000 });
    expect(pcieLink(64, 4).encoding).toMatch(/FLIT/);
    const t = pcieLink(8, 4).typicalMBps!;
    expect(t[0]).toBeGreaterThan(3300);
    expect(t[1]).toBeLessThan(3938.5);
  });

  it('SATA: 8b/10b', () => {
    expect(sataLink(6)).toMatchObject({ kind: 'sata', label: 'SATA III (6 Gb/s)', ceilingMBps: 600, typicalMBps: [500, 560] });
    expect(sataLink(3).ceilingMBps).toBe(300);
    expect(sataLink(1.5).ceilingMBps).toBe(150);
  });

  it('Thunderbolt: the tunnel, capped by the disk’s own PCIe link', () => {
    const tb = thunderboltLink();
    expect(tb).toMatchObject({ kind: 'thunderbolt', label: 'Thunderbolt (PCIe x4 tunnel)', typicalMBps: [2300, 2800] });
    expect(tb.ceilingMBps).toBeCloseTo(4848.5, 1);
    expect(thunderboltLink({ pcie: pcieLink(8, 4) }).ceilingMBps).toBeCloseTo(3938.5, 1);
    expect(thunderboltLink({ laneGbps: 40 }).label).toBe('Thunderbolt 5 (PCIe x4 tunnel)');
  });
});

// ---- fake sysfs ------------------------------------------------------------------------------

let root: string;

/** Creates `rel` (a folder) under the fake root with the given files. */
async function dir(rel: string, files: Record<string, string> = {}): Promise<string> {
  const d = path.join(root, rel);
  await fsp.mkdir(d, { recursive: true });
  for (const [name, text] of Object.entries(files)) await fsp.writeFile(path.join(d, name), `${text}\n`);
  return d;
}

/** A relative symlink, like sysfs uses (dev/block/8:0 -> ../../devices/…). */
async function link(rel: string, targetRel: string): Promise<void> {
  const at = path.join(root, rel);
  await fsp.mkdir(path.dirname(at), { recursive: true });
  await fsp.symlink(path.relative(path.dirname(at), path.join(root, targetRel)), at);
}

/** A disk with one partition, registered in dev/block like the kernel does. */
async function blockDisk(diskRel: string, maj: number, min: number, deviceRel?: string): Promise<void> {
  const name = path.basename(diskRel);
  await dir(diskRel, { dev: `${maj}:${min}`, size: '1000' });
  await dir(`${diskRel}/${name}1`, { dev: `${maj}:${min + 1}`, partition: '1' });
  if (deviceRel) await link(`${diskRel}/device`, deviceRel);
  await link(`dev/block/${maj}:${min}`, diskRel);
  await link(`dev/block/${maj}:${min + 1}`, `${diskRel}/${name}1`);
}

const XHCI = 'devices/pci0000:00/0000:00:14.0';

beforeAll(async () => {
  root = await fsp.mkdtemp(path.join(os.tmpdir(), 'diskdial-sysfs-'));
  await dir('bus/usb/drivers/uas');
  await dir('bus/usb/drivers/usb-storage');
  // The USB host controller is a PCI function with a link of its own; it must not be reported.
  await dir(XHCI, { current_link_speed: '8.0 GT/s PCIe', current_link_width: '1' });

  // USB 2 stick on usb-storage: …/usb1/1-2/1-2:1.0/host0/target0:0:0/0:0:0:0/block/sdb
  await dir(`${XHCI}/usb1`, { speed: '480', idVendor: '1d6b' });
  await dir(`${XHCI}/usb1/1-2`, { speed: '480', idVendor: '13fe', idProduct: '3825' });
  await dir(`${XHCI}/usb1/1-2/1-2:1.0`, { bInterfaceClass: '08' });
  await link(`${XHCI}/usb1/1-2/1-2:1.0/driver`, 'bus/usb/drivers/usb-storage');
  const sdbDev = `${XHCI}/usb1/1-2/1-2:1.0/host0/target0:0:0/0:0:0:0`;
  await dir(sdbDev, { model: 'USB DISK 2.0', rev: 'PMAP' });
  await blockDisk(`${sdbDev}/block/sdb`, 8, 16, sdbDev);

  // USB 3.2 Gen 2 SSD on uas: …/usb2/2-1/2-1:1.0/host1/target1:0:0/1:0:0:0/block/sdc
  await dir(`${XHCI}/usb2`, { speed: '10000', idVendor: '1d6b' });
  await dir(`${XHCI}/usb2/2-1`, { speed: '10000', idVendor: '04e8' });
  await dir(`${XHCI}/usb2/2-1/2-1:1.0`, { bInterfaceClass: '08' });
  await link(`${XHCI}/usb2/2-1/2-1:1.0/driver`, 'bus/usb/drivers/uas');
  const sdcDev = `${XHCI}/usb2/2-1/2-1:1.0/host1/target1:0:0/1:0:0:0`;
  await dir(sdcDev, { model: 'PSSD T7', rev: '0' });
  await blockDisk(`${sdcDev}/block/sdc`, 8, 32, sdcDev);

  // dm-crypt over the USB 3 disk's partition: devices/virtual/block/dm-0/slaves/sdc1
  await dir('devices/virtual/block/dm-0', { dev: '253:0' });
  await link('devices/virtual/block/dm-0/slaves/sdc1', `${sdcDev}/block/sdc/sdc1`);
  await link('dev/block/253:0', 'devices/virtual/block/dm-0');

  // NVMe on PCIe 4.0 x4 behind a root port; hwmon under the controller.
  const nvmePci = 'devices/pci0000:00/0000:00:01.2/0000:02:00.0';
  await dir('devices/pci0000:00/0000:00:01.2', { current_link_speed: '16.0 GT/s PCIe', current_link_width: '16' });
  await dir(nvmePci, { current_link_speed: '16.0 GT/s PCIe', current_link_width: '4', vendor: '0x144d' });
  await dir(`${nvmePci}/nvme/nvme0`, { model: 'Samsung SSD 980 PRO 1TB', firmware_rev: '5B2QGXA7' });
  await dir(`${nvmePci}/nvme/nvme0/hwmon1`, { name: 'nvme', temp1_input: '41850' });
  await blockDisk(`${nvmePci}/nvme/nvme0/nvme0n1`, 259, 0, `${nvmePci}/nvme/nvme0`);

  // NVMe with native multipath: the namespace lives under the subsystem, controllers are links.
  await dir('devices/virtual/nvme-subsystem/nvme-subsys1');
  const nvme1Pci = 'devices/pci0000:00/0000:00:1b.0/0000:03:00.0';
  await dir(nvme1Pci, { current_link_speed: '8.0 GT/s PCIe', current_link_width: '2' });
  await dir(`${nvme1Pci}/nvme/nvme1`, { firmware_rev: 'ABC123' });
  await link('devices/virtual/nvme-subsystem/nvme-subsys1/nvme1', `${nvme1Pci}/nvme/nvme1`);
  await blockDisk('devices/virtual/nvme-subsystem/nvme-subsys1/nvme1n1', 259, 4, 'devices/virtual/nvme-subsystem/nvme-subsys1');

  // SATA SSD at 6 Gb/s: …/0000:00:17.0/ata1/host2/target2:0:0/2:0:0:0/block/sda, drivetemp hwmon.
  const ahci = 'devices/pci0000:00/0000:00:17.0';
  await dir(ahci, { current_link_speed: '8.0 GT/s PCIe', current_link_width: '1' });
  await dir(`${ahci}/ata1/link1/ata_link/link1`, { sata_spd: '6.0 Gbps', hw_sata_spd_limit: '6.0 Gbps' });
  await link('class/ata_link/link1', `${ahci}/ata1/link1/ata_link/link1`);
  const sdaDev = `${ahci}/ata1/host2/target2:0:0/2:0:0:0`;
  await dir(sdaDev, { model: 'Samsung SSD 860', rev: '4B6Q' });
  await dir(`${sdaDev}/hwmon/hwmon3`, { name: 'drivetemp', temp1_input: '35000' });
  await blockDisk(`${sdaDev}/block/sda`, 8, 0, sdaDev);
  // SATA port 2 at 3 Gb/s, with only the in-port ata_link folder (no class link).
  await dir(`${ahci}/ata2/link2/ata_link/link2`, { sata_spd: '3.0 Gbps' });
  const sddDev = `${ahci}/ata2/host3/target3:0:0/3:0:0:0`;
  await dir(sddDev, { rev: 'CC43' });
  await blockDisk(`${sddDev}/block/sdd`, 8, 48, sddDev);

  // virtio-blk under a PCI function that reports a link (it must not win).
  await dir('devices/pci0000:00/0000:00:02.0', { current_link_speed: '2.5 GT/s PCIe', current_link_width: '1' });
  await dir('devices/pci0000:00/0000:00:02.0/virtio1', { vendor: '0x1af4' });
  await blockDisk('devices/pci0000:00/0000:00:02.0/virtio1/block/vda', 254, 0, 'devices/pci0000:00/0000:00:02.0/virtio1');

  // An NVMe in a Thunderbolt 3 enclosure: PCIe 3.0 x4 to the enclosure's bridges, marked removable.
  await dir('bus/thunderbolt/devices/domain0');
  await dir('bus/thunderbolt/devices/0-0', { generation: '3' });
  await dir('bus/thunderbolt/devices/0-1', { generation: '3', rx_speed: '20.0 Gb/s', rx_lanes: '2' });
  const tbBridge = 'devices/pci0000:00/0000:00:07.0/0000:05:00.0';
  await dir('devices/pci0000:00/0000:00:07.0', { current_link_speed: '8.0 GT/s PCIe', current_link_width: '4', removable: 'fixed' });
  await dir(tbBridge, { current_link_speed: '8.0 GT/s PCIe', current_link_width: '4', removable: 'removable' });
  await dir(`${tbBridge}/0000:06:01.0/0000:07:00.0`, {
    current_link_speed: '8.0 GT/s PCIe',
    current_link_width: '4',
    removable: 'removable',
  });
  await dir(`${tbBridge}/0000:06:01.0/0000:07:00.0/nvme/nvme2`, { firmware_rev: 'TB1' });
  await blockDisk(`${tbBridge}/0000:06:01.0/0000:07:00.0/nvme/nvme2/nvme2n1`, 259, 8, `${tbBridge}/0000:06:01.0/0000:07:00.0/nvme/nvme2`);

  // Something we cannot classify: an SD card on a platform bus.
  await dir('devices/platform/soc/mmc_host/mmc0/mmc0:0001', { name: 'SD64G' });
  await blockDisk('devices/platform/soc/mmc_host/mmc0/mmc0:0001/block/mmcblk0', 179, 0, 'devices/platform/soc/mmc_host/mmc0/mmc0:0001');
});

afterAll(async () => {
  await fsp.rm(root, { recursive: true, force: true });
});

describe('detectLink on fake sysfs trees', () => {
  it('USB 2 at 480 Mb/s with usb-storage, from a partition', async () => {
    const l = await detectLink('8:17', { sysRoot: root });
    expect(l).toMatchObject({ kind: 'usb', rawMbps: 480, driver: 'usb-storage', source: 'sysfs', ceilingMBps: 53.2 });
    expect(l?.label).toContain('USB 2.0');
    expect(l?.label).toContain('usb-storage');
  });

  it('USB 3.2 Gen 2 with uas, from the whole disk', async () => {
    const l = await detectLink('8:32', { sysRoot: root });
    expect(l).toMatchObject({ kind: 'usb', rawMbps: 10000, driver: 'uas', label: 'USB 3.2 Gen 2 (10 Gb/s), UAS' });
    expect(l?.ceilingMBps).toBeCloseTo(1212, 0);
  });

  it('follows a dm-crypt mapping to its one underlying disk', async () => {
    expect((await detectLink('253:0', { sysRoot: root }))?.label).toBe('USB 3.2 Gen 2 (10 Gb/s), UAS');
  });

  it('NVMe on PCIe 4.0 x4 (the controller’s link, not the root port’s x16)', async () => {
    const l = await detectLink('259:1', { sysRoot: root });
    expect(l).toMatchObject({ kind: 'pcie', label: 'PCIe 4.0 x4', rawMbps: 64000 });
    expect(l?.ceilingMBps).toBeCloseTo(7876.9, 1);
  });

  it('NVMe with native multipath finds the controller through the subsystem', async () => {
    expect((await detectLink('259:4', { sysRoot: root }))?.label).toBe('PCIe 3.0 x2');
  });

  it('SATA at 6 Gb/s via class/ata_link, and 3 Gb/s via the port’s own link folder', async () => {
    expect(await detectLink('8:1', { sysRoot: root })).toMatchObject({ kind: 'sata', label: 'SATA III (6 Gb/s)', ceilingMBps: 600 });
    expect(await detectLink('8:48', { sysRoot: root })).toMatchObject({ kind: 'sata', label: 'SATA II (3 Gb/s)', ceilingMBps: 300 });
  });

  it('virtio wins over the PCI function it sits on', async () => {
    const l = await detectLink('254:0', { sysRoot: root });
    expect(l).toEqual({ kind: 'virtio', label: 'virtio (virtual disk)', source: 'sysfs' });
  });

  it('NVMe behind a Thunderbolt tunnel, ceiling capped by its PCIe 3.0 x4 link', async () => {
    const l = await detectLink('259:8', { sysRoot: root });
    expect(l).toMatchObject({ kind: 'thunderbolt', label: 'Thunderbolt (PCIe x4 tunnel)', typicalMBps: [2300, 2800] });
    expect(l?.ceilingMBps).toBeCloseTo(3938.5, 1);
  });

  it('undefined for unknown trees, missing devices and nonsense; no sysfs at all too', async () => {
    expect(await detectLink('179:0', { sysRoot: root })).toBeUndefined();
    expect(await detectLink('7:99', { sysRoot: root })).toBeUndefined();
    expect(await detectLink('../../etc', { sysRoot: root })).toBeUndefined();
    expect(await detectLink('8:0', { sysRoot: path.join(root, 'nope') })).toBeUndefined();
  });
});

describe('driveHealth on fake sysfs trees', () => {
  it('NVMe: firmware_rev and the controller hwmon (millidegrees)', async () => {
    expect(await driveHealth('259:1', { sysRoot: root })).toEqual({ firmware: '5B2QGXA7', temperatureC: 41.85 });
  });

  it('SATA: SCSI rev and a drivetemp hwmon', async () => {
    expect(await driveHealth('8:0', { sysRoot: root })).toEqual({ firmware: '4B6Q', temperatureC: 35 });
  });

  it('multipath NVMe: firmware from the controller', async () => {
    expect(await driveHealth('259:4', { sysRoot: root })).toEqual({ firmware: 'ABC123' });
  });

  it('empty when nothing is readable', async () => {
    expect(await driveHealth('254:0', { sysRoot: root })).toEqual({});
    expect(await driveHealth('7:99', { sysRoot: root })).toEqual({});
  });
});

describe('macOS system_profiler parsers', () => {
  it('USB disks by BSD name, from device_speed', async () => {
    const usb = parseSystemProfilerUsb(await fixture('macos-system-profiler.json'));
    expect(Object.keys(usb).sort()).toEqual(['disk4', 'disk6']);
    expect(usb.disk4).toMatchObject({ kind: 'usb', label: 'USB 3.2 Gen 2 (10 Gb/s)', source: 'system_profiler' });
    expect(usb.disk4?.ceilingMBps).toBeCloseTo(1212, 0);
    expect(usb.disk6).toMatchObject({ label: 'USB 2.0 Hi-Speed (480 Mb/s)', rawMbps: 480 });
  });

  it('NVMe: link speed and width when reported, a bare label for Apple’s internal SSD', async () => {
    const nvme = parseSystemProfilerNvme(await fixture('macos-system-profiler.json'));
    expect(nvme.disk5).toMatchObject({ kind: 'pcie', label: 'PCIe 3.0 x4', source: 'system_profiler' });
    expect(nvme.disk0).toEqual({ kind: 'pcie', label: 'NVMe (internal)', source: 'system_profiler' });
  });

  it('SATA: the negotiated speed from the controller entry', async () => {
    const sata = parseSystemProfilerSata(await fixture('macos-system-profiler.json'));
    expect(sata.disk1).toMatchObject({ kind: 'sata', label: 'SATA III (6 Gb/s)', ceilingMBps: 600, source: 'system_profiler' });
  });

  it('all at once, and garbage gives nothing', async () => {
    const all = parseSystemProfiler(await fixture('macos-system-profiler.json'));
    expect(Object.keys(all).sort()).toEqual(['disk0', 'disk1', 'disk4', 'disk5', 'disk6']);
    expect(parseSystemProfiler('not json')).toEqual({});
    expect(parseSystemProfiler('{"SPUSBDataType": 5}')).toEqual({});
  });

  it('speed words and numbers', () => {
    expect(macUsbSpeedMbps('super_speed')).toBe(5000);
    expect(macUsbSpeedMbps('super_speed_plus_by2')).toBe(20000);
    expect(macUsbSpeedMbps('Up to 10 Gb/s')).toBe(10000);
    expect(macUsbSpeedMbps('Up to 480 Mb/s')).toBe(480);
    expect(macUsbSpeedMbps('warp')).toBeUndefined();
  });

  it('SPStorageDataType: volumes with their bus protocol', async () => {
    const vols = parseSystemProfilerStorage(await fixture('macos-system-profiler-storage.json'));
    expect(vols.map((v) => [v.bsdName, v.mountPoint, v.link.kind, v.internal])).toEqual([
      ['disk3s5', '/System/Volumes/Data', 'pcie', true],
      ['disk4s1', '/Volumes/T7', 'usb', false],
      ['disk5s2', '/Volumes/Scratch', 'pcie', false],
    ]);
    expect(vols[0]?.link.label).toBe('Apple Fabric (internal)');
    expect(vols[1]?.deviceName).toBe('PSSD T7');
  });
});

describe('Windows Get-PhysicalDisk parser', () => {
  it('numeric BusType/MediaType from ConvertTo-Json', async () => {
    const disks = parseWindowsDisks(await fixture('windows-get-physicaldisk.json'));
    expect(disks.map((d) => [d.deviceId, d.link.kind, d.link.label, d.mediaType])).toEqual([
      ['0', 'pcie', 'NVMe (PCIe)', 'SSD'],
      ['1', 'sata', 'SATA', 'HDD'],
      ['2', 'usb', 'USB', 'Unspecified'],
      ['3', 'virtio', 'Virtual disk', 'Unspecified'],
    ]);
    expect(disks[0]).toMatchObject({ friendlyName: 'Samsung SSD 980 PRO 1TB', firmware: '5B2QGXA7', serial: '0025_38B2_0000_0000.' });
    expect(disks[0]?.link.ceilingMBps).toBeUndefined();
    expect(disks[3]?.serial).toBeUndefined();
    expect(disks.every((d) => d.link.source === 'powershell')).toBe(true);
  });

  it('a single disk comes as one object, with names instead of numbers', async () => {
    const disks = parseWindowsDisks(await fixture('windows-get-physicaldisk-single.json'));
    expect(disks).toEqual([
      {
        deviceId: '0',
        friendlyName: 'WDC WDS100T2B0A',
        serial: '21000000000000',
        firmware: '411010WD',
        mediaType: 'SSD',
        link: { kind: 'sata', label: 'SATA', source: 'powershell' },
      },
    ]);
    expect(parseWindowsDisks('')).toEqual([]);
  });
});

describe('this machine', () => {
  it('the root file system’s disk is classified from the real /sys', async () => {
    const v = await volumeInfo('/');
    expect(v.devNumber).toMatch(/^\d+:\d+$/);
    const real = await fsp.realpath(`/sys/dev/block/${v.devNumber}`);
    const l = await detectLink(v.devNumber!);
    // The development and CI machines run on a virtio-blk root disk (…/virtio1/block/vda).
    expect(real).toContain('/virtio');
    expect(l).toEqual({ kind: 'virtio', label: 'virtio (virtual disk)', source: 'sysfs' });
    expect(v.disk?.linkInfo?.kind).toBe('virtio');
    expect(v.disk?.link).toBe('virtio (virtual disk)');
  });

  it('the target picker shows the link next to the target', async () => {
    const t = await new TargetsService().describe('/');
    expect(t.device.link).toEqual({ label: 'virtio (virtual disk)' });
  });
});
