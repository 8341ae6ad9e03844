// Link detection: what interface a disk hangs off, the ceiling that link allows and the range such
// links typically deliver, plus the drive's own readings. One file per OS, ceilings shared.
export type { DriveHealth, LinkInfo } from '../../model/link-types.js';
export { pcieLink, sataLink, thunderboltLink, usbLink, type ThunderboltOptions } from './ceilings.js';
export { detectLink, driveHealth, exists, readTrim, type SysOptions } from './linux.js';
export {
  macDiskFor,
  macUsbSpeedMbps,
  parseSystemProfiler,
  parseSystemProfilerNvme,
  parseSystemProfilerSata,
  parseSystemProfilerStorage,
  parseSystemProfilerUsb,
  type MacVolumeLink,
} from './darwin.js';
export {
  parseWindowsDisks,
  POWERSHELL_MISSING_NOTE,
  WINDOWS_DISKS_COMMAND,
  windowsDiskFor,
  windowsDiskLookup,
  type PlatformDiskLookup,
  type WindowsDisk,
} from './win.js';
export type { PlatformDisk } from './platform.js';
