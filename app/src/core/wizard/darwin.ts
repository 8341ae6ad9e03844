// The wizard's macOS provider: whole disks from `diskutil list/info -plist`, and each format as a
// `diskutil eraseDisk` sequence run through the injected runner. UNTESTED ON A MAC: what the
// commands rely on (diskutil(8)) is in docs/wizard.md, "macOS: what the commands rely on".
import { randomBytes } from 'node:crypto';

import type { ReadCommand } from '../exec/commands.js';
import type { Command, CommandRunner, PreparedVolume, WizardProvider } from './provider.js';

import type { DiskPartition, FormatId, FormatInfo, WizardDisk } from '../../model/wizard/types.js';
import {
  darwinSystemDisks,
  parseDiskutilInfo,
  parseDiskutilList,
  wholeOf,
  type DiskutilList,
  type DiskutilListDisk,
  type DiskutilPartition,
} from './darwin-diskutil.js';

/** Runs a read-only query (diskutil list/info) and resolves its standard output. */
export type DarwinExec = ReadCommand;

// The diskutil parsers live beside this file; callers keep one import.
export * from './darwin-diskutil.js';

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
