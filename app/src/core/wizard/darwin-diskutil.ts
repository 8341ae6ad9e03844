// macOS: what `diskutil list -plist` and `diskutil info -plist` say about the disks, and which of
// them hold the running system. Pure parsers, tested against fixtures (docs/wizard.md).
import { isPlistDict, parsePlistDict, type PlistDict, type PlistValue } from './plist.js';
import { withPresent } from '../exec/json.js';

// ---- diskutil list -plist ---------------------------------------------------------------------

export interface DiskutilPartition {
  id: string;
  sizeBytes: number;
  /** The partition type: Apple_APFS, EFI, Microsoft Basic Data, Apple_HFS, DOS_FAT_32… */
  content?: string;
  volumeName?: string;
  mountPoint?: string;
  /** APFS volumes: bytes used. */
  capacityInUse?: number;
}

export interface DiskutilListDisk {
  id: string;
  sizeBytes: number;
  content?: string;
  partitions: DiskutilPartition[];
  /** A synthesized APFS container: the partitions it lives on (disk0s2…). */
  apfsPhysicalStores: string[];
  apfsVolumes: DiskutilPartition[];
}

export interface DiskutilList {
  wholeDisks: string[];
  disks: DiskutilListDisk[];
}

/** `diskutil list -plist` → every whole disk with its partitions or APFS volumes. */
export function parseDiskutilList(plistXml: string): DiskutilList {
  const root = parsePlistDict(plistXml);
  diskutilError(root);
  const all = root.AllDisksAndPartitions;
  if (!Array.isArray(all)) throw new Error('diskutil list: no AllDisksAndPartitions in its output');
  const disks = all.filter(isPlistDict).map((d): DiskutilListDisk => {
    const id = str(d.DeviceIdentifier);
    if (!id) throw new Error('diskutil list: a disk without a DeviceIdentifier');
    return withPresent<DiskutilListDisk>(
      {
        id,
        sizeBytes: num(d.Size) ?? 0,
        partitions: dicts(d.Partitions).map(partition),
        apfsPhysicalStores: dicts(d.APFSPhysicalStores)
          .map((s) => str(s.DeviceIdentifier) ?? str(s.APFSPhysicalStore))
          .filter((s): s is string => !!s),
        apfsVolumes: dicts(d.APFSVolumes).map(partition),
      },
      { content: str(d.Content) },
    );
  });
  const whole = Array.isArray(root.WholeDisks) ? root.WholeDisks.filter((x): x is string => typeof x === 'string') : disks.map((d) => d.id);
  return { wholeDisks: whole, disks };
}

function partition(p: PlistDict): DiskutilPartition {
  return withPresent<DiskutilPartition>(
    { id: str(p.DeviceIdentifier) ?? '', sizeBytes: num(p.Size) ?? 0 },
    { content: str(p.Content), volumeName: str(p.VolumeName), mountPoint: str(p.MountPoint), capacityInUse: num(p.CapacityInUse) },
  );
}

// ---- diskutil info -plist ---------------------------------------------------------------------

export interface DiskutilInfo {
  id: string;
  wholeDisk: boolean;
  parentWholeDisk?: string;
  mediaName?: string;
  ioRegistryEntryName?: string;
  busProtocol?: string;
  internal?: boolean;
  removable: boolean;
  removableMedia: boolean;
  ejectable: boolean;
  removableMediaOrExternal: boolean;
  writableMedia?: boolean;
  virtualOrPhysical?: string;
  solidState?: boolean;
  sizeBytes?: number;
  mountPoint?: string;
  volumeName?: string;
  filesystemType?: string;
  apfsContainerReference?: string;
  apfsPhysicalStores: string[];
}

/** `diskutil info -plist <device>` → what the wizard needs about one disk or volume. Throws on
 *  diskutil's own error plist (`Error`/`ErrorMessage`). */
export function parseDiskutilInfo(plistXml: string): DiskutilInfo {
  const d = parsePlistDict(plistXml);
  diskutilError(d);
  const id = str(d.DeviceIdentifier);
  if (!id) throw new Error('diskutil info: no DeviceIdentifier in its output');
  const info: DiskutilInfo = {
    id,
    wholeDisk: d.WholeDisk === true,
    removable: d.Removable === true,
    removableMedia: d.RemovableMedia === true,
    ejectable: d.Ejectable === true,
    removableMediaOrExternal: d.RemovableMediaOrExternalDevice === true,
    apfsPhysicalStores: dicts(d.APFSPhysicalStores)
      .map((s) => str(s.APFSPhysicalStore) ?? str(s.DeviceIdentifier))
      .filter((s): s is string => !!s),
  };
  const set = <K extends keyof DiskutilInfo>(k: K, v: DiskutilInfo[K] | undefined): void => {
    if (v !== undefined) info[k] = v;
  };
  set('parentWholeDisk', str(d.ParentWholeDisk));
  set('mediaName', str(d.MediaName));
  set('ioRegistryEntryName', str(d.IORegistryEntryName));
  set('busProtocol', str(d.BusProtocol));
  set('internal', bool(d.Internal));
  set('writableMedia', bool(d.WritableMedia));
  set('virtualOrPhysical', str(d.VirtualOrPhysical));
  set('solidState', bool(d.SolidState));
  set('sizeBytes', num(d.TotalSize) ?? num(d.Size));
  set('mountPoint', str(d.MountPoint));
  set('volumeName', str(d.VolumeName));
  set('filesystemType', str(d.FilesystemType));
  set('apfsContainerReference', str(d.APFSContainerReference));
  return info;
}

// ---- which disks hold the running system ------------------------------------------------------

/** The whole disks behind `/`: from `diskutil info -plist /`, its ParentWholeDisk (for APFS the
 *  synthesized container, disk3) and the whole disks of its APFSPhysicalStores (disk0s2 → disk0),
 *  plus, from the list, the stores of that container (a Fusion drive has two). */
export function darwinSystemDisks(rootInfoXml: string, listXml?: string): string[] {
  const root = parseDiskutilInfo(rootInfoXml);
  const out = new Set<string>();
  const add = (dev: string | undefined): void => {
    const whole = dev && wholeOf(dev);
    if (whole) out.add(whole);
  };
  add(root.parentWholeDisk ?? root.id);
  root.apfsPhysicalStores.forEach(add);
  if (listXml) {
    const list = parseDiskutilList(listXml);
    for (const c of [...out]) list.disks.find((d) => d.id === c)?.apfsPhysicalStores.forEach(add);
  }
  if (out.size === 0) throw new Error('diskutil info /: could not tell which disk holds macOS');
  return [...out];
}

/** disk3s1s1 → disk3. */
export function wholeOf(dev: string): string | undefined {
  return /^(?:\/dev\/)?(disk\d+)/.exec(dev)?.[1];
}

// ---- plist helpers ----------------------------------------------------------------------------

function diskutilError(d: PlistDict): void {
  if (d.Error === true) throw new Error(`diskutil: ${str(d.ErrorMessage) ?? 'failed'}`);
}

function str(v: PlistValue | undefined): string | undefined {
  return typeof v === 'string' && v.trim() ? v : undefined;
}

function num(v: PlistValue | undefined): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function bool(v: PlistValue | undefined): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

function dicts(v: PlistValue | undefined): PlistDict[] {
  return Array.isArray(v) ? v.filter(isPlistDict) : [];
}
