// The interface between a disk and the computer, as DiskDial describes it: what it is, what it
// can carry at most, and what such links typically deliver. Shared by link detection
// (app/src/core/link.ts), the flags on results (app/src/core/flags.ts) and the UI.
// Speeds: MB/s = 10^6 bytes per second; signalling rates in Mb/s (10^6 bits per second).

export type LinkKind = 'usb' | 'thunderbolt' | 'pcie' | 'sata' | 'sas' | 'virtio' | 'network' | 'memory' | 'unknown';

export interface LinkInfo {
  kind: LinkKind;
  /** What a user would call it: "USB 3.2 Gen 2 (10 Gb/s)", "PCIe 4.0 x4", "SATA III (6 Gb/s)". */
  label: string;
  /** Signalling rate per the negotiated link, Mb/s (all lanes), e.g. 10000 for USB 3.2 Gen 2. */
  rawMbps?: number;
  /** Line-encoding name used for the ceiling: "8b/10b", "128b/132b", "128b/130b". */
  encoding?: string;
  /** Payload ceiling after line encoding, MB/s: results above it cannot be the disk's. */
  ceilingMBps?: number;
  /** What such links typically deliver in practice (protocol overheads, controllers), MB/s. */
  typicalMBps?: [number, number];
  /** USB: the driver bound to the disk, 'uas' or 'usb-storage' (the latter is notably slower). */
  driver?: string;
  /** Where this came from: 'sysfs', 'system_profiler', 'ioreg', 'powershell'. */
  source: string;
}

/** Readings about the drive itself, where the OS exposes them. */
export interface DriveHealth {
  firmware?: string;
  /** Composite temperature, °C (NVMe hwmon, drivetemp, SMART). */
  temperatureC?: number;
}
