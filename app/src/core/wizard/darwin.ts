// The wizard's macOS provider: which whole disks there are (`diskutil list -plist`, `diskutil info
// -plist`), which of them hold the running system, and how to erase one into each file system
// Disk Utility offers (`diskutil eraseDisk`, and for the encrypted APFS variants `diskutil apfs
// deleteVolume` + `diskutil apfs addVolume … -stdinpassphrase`). Commands are argv arrays, run
// through an injected runner: this file never starts a process itself.
//
// UNTESTED ON REAL HARDWARE. The parsers are unit-tested against fixtures shaped like the tools'
// documented output (test/fixtures/wizard/README.md), not against a Mac. Until someone runs the
// wizard on a Mac with a spare external disk, treat the command sequences as a careful reading of
// diskutil(8), not as proven.
//
// What the commands rely on (diskutil(8), macOS 10.13 and later, as published at
// https://manp.gs/mac/8/diskutil and in scripts that use these verbs):
// - `diskutil eraseDisk format name [APM|MBR|GPT] device` erases a whole disk; the format is a
//   personality from `diskutil listFilesystems` (APFS, "Case-sensitive APFS", JHFS+, JHFSX, ExFAT,
//   FAT32; e.g. `diskutil eraseDisk JHFSX <name> /dev/diskN`, `diskutil eraseDisk FAT32 NAME
//   MBRFormat /dev/diskN`). With GPT it writes an EFI partition (s1) and the volume after it.
//   "Ownership of the affected disk is required": Disk Arbitration gives the logged-in console user
//   ownership of external and removable disks, so no sudo is needed for them, and none is asked
//   for (privileged: false). An internal disk (behind the advanced switch) may need root; the
//   runner then fails with diskutil's own message rather than escalating silently.
// - `diskutil apfs addVolume containerReference filesystem name -stdinpassphrase` makes an
//   encrypted volume, reading the passphrase from standard input (used this way by nix-darwin:
//   `echo "$password" | diskutil apfs addVolume "$container" "$fsType" "$name" -stdinpassphrase`),
//   so it never appears in argv or the process list.
// - `diskutil apfs deleteVolume volumeDevice` removes the unencrypted volume eraseDisk made.
// - `diskutil list -plist`: AllDisksAndPartitions, each with Partitions (Content, VolumeName,
//   MountPoint, Size) or, for a synthesized APFS container, APFSPhysicalStores and APFSVolumes.
// - `diskutil info -plist <dev>`: Internal, Removable, RemovableMedia, Ejectable,
//   RemovableMediaOrExternalDevice, BusProtocol, MediaName, IORegistryEntryName, TotalSize,
//   ParentWholeDisk, APFSContainerReference, APFSPhysicalStores (dicts of APFSPhysicalStore).
//   It reports no serial number, so a Mac disk's identity is its path, size and model.
import { randomBytes } from 'node:crypto';

import type { Command, CommandRunner, PreparedVolume, WizardProvider } from './provider.js';
import { isPlistDict, parsePlistDict, type PlistDict, type PlistValue } from './plist.js';
import type { DiskPartition, FormatId, FormatInfo, WizardDisk } from '../../model/wizard/types.js';

/** Runs a read-only query (diskutil list/info) and resolves its standard output. */
export type DarwinExec = (argv: string[]) => Promise<string>;

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
    const disk: DiskutilListDisk = {
      id,
      sizeBytes: num(d.Size) ?? 0,
      partitions: dicts(d.Partitions).map(partition),
      apfsPhysicalStores: dicts(d.APFSPhysicalStores)
        .map((s) => str(s.DeviceIdentifier) ?? str(s.APFSPhysicalStore))
        .filter((s): s is string => !!s),
      apfsVolumes: dicts(d.APFSVolumes).map(partition),
    };
    const content = str(d.Content);
    if (content) disk.content = content;
    return disk;
  });
  const whole = Array.isArray(root.WholeDisks) ? root.WholeDisks.filter((x): x is string => typeof x === 'string') : disks.map((d) => d.id);
  return { wholeDisks: whole, disks };
}

function partition(p: PlistDict): DiskutilPartition {
  const out: DiskutilPartition = { id: str(p.DeviceIdentifier) ?? '', sizeBytes: num(p.Size) ?? 0 };
  const content = str(p.Content);
  if (content) out.content = content;
  const name = str(p.VolumeName);
  if (name) out.volumeName = name;
  const mp = str(p.MountPoint);
  if (mp) out.mountPoint = mp;
  const used = num(p.CapacityInUse);
  if (used !== undefined) out.capacityInUse = used;
  return out;
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
function wholeOf(dev: string): string | undefined {
  return /^(?:\/dev\/)?(disk\d+)/.exec(dev)?.[1];
}

// ---- the disks the wizard shows ---------------------------------------------------------------

const BUS: Record<string, string> = {
  usb: 'usb',
  thunderbolt: 'thunderbolt',
  'pci-express': 'pcie',
  pci: 'pcie',
  sata: 'sata',
  sas: 'sas',
  nvme: 'nvme',
  'apple fabric': 'apple-fabric',
  'disk image': 'disk-image',
  'secure digital': 'sd',
  firewire: 'firewire',
};

function busOf(protocol: string | undefined): string {
  if (!protocol) return 'unknown';
  return BUS[protocol.toLowerCase()] ?? protocol.toLowerCase().replace(/\s+/g, '-');
}

export const DARWIN_SYSTEM_REASON = 'It holds macOS (/).';
/** Worded as the Linux provider words it. */
export const INTERNAL_REASON = 'It is an internal disk: turn on "Show internal disks" to use it.';

/** Whole disks as the wizard shows them. `infoXmlByDisk` holds `diskutil info -plist diskN` for
 *  each whole disk; `systemDisks` is darwinSystemDisks(). Synthesized APFS containers (disk3…) are
 *  not disks of their own: their volumes are shown under the disk that holds their store. */
export function darwinDisks(
  listXml: string,
  infoXmlByDisk: Readonly<Record<string, string>>,
  systemDisks: readonly string[],
  opts: { includeInternal?: boolean } = {},
): WizardDisk[] {
  const list = parseDiskutilList(listXml);
  const system = new Set(systemDisks.map((d) => wholeOf(d) ?? d));
  const out: WizardDisk[] = [];
  for (const entry of list.disks) {
    if (!list.wholeDisks.includes(entry.id) || entry.apfsPhysicalStores.length > 0) continue;
    const xml = infoXmlByDisk[entry.id];
    const info = xml ? parseDiskutilInfo(xml) : undefined;
    const bus = busOf(info?.busProtocol);
    const removable = !!info && (info.removable || info.removableMedia || info.ejectable);
    // Internal per diskutil's Internal key, unless the disk says it can be removed or ejected.
    const internal = !info || (info.internal !== false && !(removable || info.removableMediaOrExternal));
    const rawModel = info?.mediaName || info?.ioRegistryEntryName;
    // diskutil names a disk's media "<vendor> <product> Media": the model is the part before.
    const model = rawModel?.replace(/\s+Media$/, '').trim() || undefined;
    const disk: WizardDisk = {
      path: `/dev/${entry.id}`,
      // A disk image's "model" is generic ("Apple UDIF read-write"): two images would share it,
      // so its device name is what the user types.
      name: bus === 'disk-image' || !model ? entry.id : model,
      sizeBytes: info?.sizeBytes ?? entry.sizeBytes,
      bus,
      removable,
      internal,
      system: system.has(entry.id),
      partitions: partitionsOf(entry, list),
      offered: false,
    };
    if (model) disk.model = model;
    if (!info) disk.reason = 'macOS could not describe it (diskutil info failed).';
    else if (disk.system) disk.reason = DARWIN_SYSTEM_REASON;
    else if (info.writableMedia === false) disk.reason = 'It is read-only.';
    else if (disk.sizeBytes <= 0) disk.reason = 'It has no media.';
    else if (internal && !opts.includeInternal) disk.reason = INTERNAL_REASON;
    else disk.offered = true;
    out.push(disk);
  }
  return out;
}

function partitionsOf(entry: DiskutilListDisk, list: DiskutilList): DiskPartition[] {
  const out: DiskPartition[] = [];
  for (const p of entry.partitions) {
    out.push(toPartition(p, p.content));
    const container = list.disks.find((d) => d.apfsPhysicalStores.includes(p.id));
    for (const v of container?.apfsVolumes ?? []) out.push(toPartition({ ...v, sizeBytes: v.capacityInUse ?? v.sizeBytes }, 'apfs'));
  }
  return out;
}

function toPartition(p: DiskutilPartition, fs: string | undefined): DiskPartition {
  const out: DiskPartition = { path: `/dev/${p.id}`, sizeBytes: p.sizeBytes, mountpoints: p.mountPoint ? [p.mountPoint] : [] };
  if (fs) out.fs = fs;
  if (p.volumeName) out.label = p.volumeName;
  return out;
}

// ---- formats and the commands that make them --------------------------------------------------

interface DarwinFormat {
  label: string;
  /** The eraseDisk personality. */
  personality: string;
  scheme: 'GPT' | 'MBR';
  encrypted: boolean;
  /** Longest volume name accepted (FAT32 and ExFAT: 11). */
  maxName: number;
}

const FORMATS: Partial<Record<FormatId, DarwinFormat>> = {
  apfs: { label: 'APFS', personality: 'APFS', scheme: 'GPT', encrypted: false, maxName: 63 },
  'apfs-encrypted': { label: 'APFS (Encrypted)', personality: 'APFS', scheme: 'GPT', encrypted: true, maxName: 63 },
  'apfs-cs': { label: 'APFS (Case-sensitive)', personality: 'Case-sensitive APFS', scheme: 'GPT', encrypted: false, maxName: 63 },
  'apfs-cs-encrypted': {
    label: 'APFS (Case-sensitive, Encrypted)',
    personality: 'Case-sensitive APFS',
    scheme: 'GPT',
    encrypted: true,
    maxName: 63,
  },
  'hfs+': { label: 'Mac OS Extended (Journaled)', personality: 'JHFS+', scheme: 'GPT', encrypted: false, maxName: 63 },
  'hfs+-cs': { label: 'Mac OS Extended (Case-sensitive, Journaled)', personality: 'JHFSX', scheme: 'GPT', encrypted: false, maxName: 63 },
  exfat: { label: 'ExFAT', personality: 'ExFAT', scheme: 'GPT', encrypted: false, maxName: 11 },
  // FAT32 on MBR, as Disk Utility's "MS-DOS (FAT)" + "Master Boot Record" does: what cameras,
  // TVs and firmware updaters read.
  fat32: { label: 'MS-DOS (FAT32)', personality: 'FAT32', scheme: 'MBR', encrypted: false, maxName: 11 },
};

export const DARWIN_FORMAT_IDS = Object.keys(FORMATS) as FormatId[];

/** Every format Disk Utility offers, named as it names them. diskutil makes all of them on every
 *  macOS the app runs on (Electron needs 10.15+; APFS arrived in 10.13), so all are available. */
export function darwinFormats(): FormatInfo[] {
  return DARWIN_FORMAT_IDS.map((id) => {
    const f = FORMATS[id]!;
    return { id, label: f.label, encrypted: f.encrypted, available: true };
  });
}

function formatOf(format: FormatId): DarwinFormat {
  const f = FORMATS[format];
  if (!f) throw new Error(`${format} is not a macOS format`);
  return f;
}

/** The volume name diskutil will be given: letters, digits, - and _ (as the wizard's settings
 *  allow), not starting with "-" (diskutil would read it as an option), FAT32 upper-cased. */
export function darwinVolumeName(format: FormatId, label: string): string {
  const f = formatOf(format);
  if (!/^[A-Za-z0-9_][A-Za-z0-9_-]*$/.test(label) || label.length > f.maxName) {
    throw new Error(
      `volume name ${JSON.stringify(label)} is not allowed: use 1–${f.maxName} letters, digits, - or _ (not starting with -)`,
    );
  }
  return format === 'fat32' ? label.toUpperCase() : label;
}

function wholeDiskPath(disk: Pick<WizardDisk, 'path'>): string {
  if (!/^\/dev\/disk\d+$/.test(disk.path)) throw new Error(`${JSON.stringify(disk.path)} is not a macOS whole disk (/dev/diskN)`);
  return disk.path;
}

function deviceId(dev: string, what: string): string {
  if (!/^disk\d+(?:s\d+)*$/.test(dev)) throw new Error(`${JSON.stringify(dev)} is not a macOS ${what} identifier`);
  return dev;
}

/** The erase itself: one `diskutil eraseDisk`. For the encrypted APFS formats this makes a plain
 *  APFS container first; darwinEncryptCommands() then swaps its volume for an encrypted one, once
 *  the container's identifier (assigned by macOS at erase time) is known. */
export function darwinEraseCommands(disk: Pick<WizardDisk, 'path'>, format: FormatId, label: string): Command[] {
  const dev = wholeDiskPath(disk);
  const f = formatOf(format);
  const name = darwinVolumeName(format, label);
  return [
    {
      argv: ['diskutil', 'eraseDisk', f.personality, name, f.scheme, dev],
      privileged: false, // the console user owns external disks (see the header)
      why: `Erasing ${dev} as ${f.label}`,
    },
  ];
}

/** For apfs-encrypted / apfs-cs-encrypted, after darwinEraseCommands(): delete the unencrypted
 *  volume the erase made, then add an encrypted one to the same container. The passphrase goes
 *  on standard input only. */
export function darwinEncryptCommands(container: string, volume: string, format: FormatId, label: string, passphrase: string): Command[] {
  const f = formatOf(format);
  if (!f.encrypted) throw new Error(`${format} is not an encrypted format`);
  if (!passphrase) throw new Error('an encrypted format needs a passphrase');
  const name = darwinVolumeName(format, label);
  return [
    {
      argv: ['diskutil', 'apfs', 'deleteVolume', deviceId(volume, 'volume')],
      privileged: false,
      why: `Removing the unencrypted volume ${volume}`,
    },
    {
      argv: ['diskutil', 'apfs', 'addVolume', deviceId(container, 'container'), f.personality, name, '-stdinpassphrase'],
      privileged: false,
      stdin: passphrase,
      why: `Making the encrypted volume ${name} (${f.label})`,
    },
  ];
}

/** Finds the volume an erase made on `diskId`: the APFS volume in the container on its store,
 *  or its data partition. Prefers the one named `name`. */
export function darwinFindVolume(
  list: DiskutilList,
  diskId: string,
  name: string,
): { volume: string; container?: string; mountPoint?: string } | undefined {
  const entry = list.disks.find((d) => d.id === diskId);
  if (!entry) return undefined;
  const data = entry.partitions.filter((p) => p.content !== 'EFI');
  for (const p of data) {
    const container = list.disks.find((d) => d.apfsPhysicalStores.includes(p.id));
    if (!container) continue;
    const v = container.apfsVolumes.find((x) => x.volumeName === name) ?? container.apfsVolumes[0];
    if (v) return { volume: v.id, container: container.id, ...(v.mountPoint ? { mountPoint: v.mountPoint } : {}) };
    return { volume: '', container: container.id };
  }
  const p = data.find((x) => x.volumeName === name) ?? data[0];
  return p ? { volume: p.id, ...(p.mountPoint ? { mountPoint: p.mountPoint } : {}) } : undefined;
}

// ---- the provider -----------------------------------------------------------------------------

/** A prepared macOS volume; `passphrase` is set for the encrypted formats (the runner shows it if
 *  the disk is left encrypted at the end). */
export interface DarwinPreparedVolume extends PreparedVolume {
  passphrase?: string;
}

export interface DarwinProviderOptions {
  /** The passphrase for encrypted formats when prepare() is not given one (default: 24 random
   *  bytes, base64url). */
  newPassphrase?: () => string;
}

const LIST: string[] = ['diskutil', 'list', '-plist'];
const info = (dev: string): string[] => ['diskutil', 'info', '-plist', dev];

/** prepare()'s options, plus the passphrase for an encrypted format (else one is made up). */
export interface DarwinPrepareOptions {
  label: string;
  run: CommandRunner;
  workDir: string;
  passphrase?: string;
}

export interface DarwinProvider extends WizardProvider {
  prepare(disk: WizardDisk, format: FormatId, opts: DarwinPrepareOptions): Promise<DarwinPreparedVolume>;
}

export function createDarwinProvider(exec: DarwinExec, options: DarwinProviderOptions = {}): DarwinProvider {
  const newPassphrase = options.newPassphrase ?? (() => randomBytes(24).toString('base64url'));

  return {
    platform: 'darwin',

    async listDisks(opts) {
      const listXml = await exec(LIST);
      // Without knowing the system disk nothing may be offered: this one must succeed.
      const systemDisks = darwinSystemDisks(await exec(info('/')), listXml);
      const list = parseDiskutilList(listXml);
      const infos: Record<string, string> = {};
      for (const d of list.disks) {
        if (!list.wholeDisks.includes(d.id) || d.apfsPhysicalStores.length > 0) continue;
        try {
          infos[d.id] = await exec(info(d.id));
        } catch {
          // listed without info: darwinDisks() shows it, not offered, with the reason
        }
      }
      return darwinDisks(listXml, infos, systemDisks, opts);
    },

    async formats() {
      return darwinFormats();
    },

    async prepare(disk, format, opts) {
      const dev = wholeDiskPath(disk);
      const diskId = dev.slice('/dev/'.length);
      const f = formatOf(format);
      const name = darwinVolumeName(format, opts.label);
      const passphrase = f.encrypted ? opts.passphrase || newPassphrase() : undefined;

      for (const cmd of darwinEraseCommands(disk, format, opts.label)) await opts.run(cmd);
      let found = darwinFindVolume(parseDiskutilList(await exec(LIST)), diskId, name);
      if (f.encrypted) {
        if (!found?.container || !found.volume) throw new Error(`after erasing ${dev}: no APFS container with a volume on it`);
        for (const cmd of darwinEncryptCommands(found.container, found.volume, format, opts.label, passphrase!)) await opts.run(cmd);
        const container = found.container;
        found = darwinFindVolume(parseDiskutilList(await exec(LIST)), diskId, name);
        if (!found || found.container !== container) throw new Error(`after encrypting: no volume ${name} in ${container}`);
      }
      if (!found?.volume) throw new Error(`after erasing ${dev}: no volume found on it`);

      const volume = found.volume;
      let mountPoint = parseDiskutilInfo(await exec(info(volume))).mountPoint;
      if (!mountPoint) {
        await opts.run({ argv: ['diskutil', 'mount', volume], privileged: false, why: `Mounting ${volume}` });
        mountPoint = parseDiskutilInfo(await exec(info(volume))).mountPoint;
      }
      if (!mountPoint) throw new Error(`${volume} did not mount (expected /Volumes/${name})`);

      const prepared: DarwinPreparedVolume = {
        testPath: mountPoint,
        mountPoint,
        partition: `/dev/${volume}`,
        release: async () => {
          await opts.run({ argv: ['diskutil', 'unmountDisk', dev], privileged: false, why: `Unmounting ${dev}` });
        },
      };
      if (passphrase) prepared.passphrase = passphrase;
      return prepared;
    },
  };
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
