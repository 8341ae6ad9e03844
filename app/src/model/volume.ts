// What a path lives on, as results and screens see it: the volume and the physical disk behind
// it. core/volume.ts probes them.
import type { TargetEncryption } from './cipher/types.js';
import type { DriveHealth, LinkInfo } from './link-types.js';
import type { NetworkPath } from './network.js';

export type Bus = 'usb' | 'nvme' | 'ata' | 'scsi' | 'virtio' | 'loop' | 'mmc' | 'dm' | 'md' | 'unknown';

export interface DiskInfo {
  /** Kernel name of the whole disk: sda, nvme0n1, vda, loop3. */
  name: string;
  model?: string;
  vendor?: string;
  serial?: string;
  bus: Bus;
  /** The link's label (linkInfo.label), or sysfs's raw words ("USB 5000 Mbps") when the link
   *  could not be classified. Kept as a string for callers that only show it. */
  link?: string;
  /** The classified link with its payload ceiling and typical range (core/link.ts). */
  linkInfo?: LinkInfo;
  /** Firmware and temperature where sysfs shows them; absent when nothing was readable. */
  health?: DriveHealth;
  removable?: boolean;
  rotational?: boolean;
  sizeBytes?: number;
  /** loop devices: the file behind them. */
  backingFile?: string;
  /** loop devices: whether the loop driver reads and writes that file with direct I/O
   *  (losetup --direct-io=on). When not, the host's page cache sits under the volume. */
  loopDirectIo?: boolean;
}

export interface VolumeInfo {
  path: string;
  realPath: string;
  mountPoint: string;
  /** The mount source, usually a /dev node. */
  device: string;
  fsType: string;
  mountOptions: string[];
  superOptions: string[];
  label?: string;
  totalBytes: number;
  /** Bytes available to an unprivileged writer (statfs bavail × bsize). */
  freeBytes: number;
  devNumber?: string;
  disk?: DiskInfo;
  /** Why `disk` is missing, in plain words, when a tool it needs is missing (PowerShell). */
  diskNote?: string;
  /** true when the kernel says the block device is a dm-crypt mapping; absent when unknown. */
  encrypted?: boolean;
  /** A network share's path: protocol, server, share, the interface to it and its ceiling. */
  network?: NetworkPath;
  /** How, when DiskDial could tell: a dm-crypt mapping, or a folder fscrypt encrypts. */
  encryption?: TargetEncryption;
}
