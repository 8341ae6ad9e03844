// What a link allows: the payload ceiling after line encoding and the range such links typically
// deliver, for USB, PCIe, SATA and Thunderbolt. Pure; every OS's detector names its links here.
// Speeds are MB/s (10^6 bytes/s); signalling rates are Mb/s.
import type { LinkInfo, LinkKind } from '../../model/link-types.js';

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
export function namedLink(kind: LinkKind, label: string, source: string): LinkInfo {
  return { kind, label, source };
}

/** "16.0 GT/s PCIe", "8 GT/s", "2.5 GT/s" → GT/s; "Unknown" → undefined. */
export function parseGtPerS(s: string | undefined): number | undefined {
  const m = s?.match(/([\d.]+)\s*GT\/s/i);
  const n = m ? Number(m[1]) : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
