// The wizard's Windows provider: whole disks from Get-Disk/Get-Partition/Get-Volume (JSON), and
// each format as PowerShell run through the injected runner, every value in a script checked
// (an integer, or a label of letters, digits, - and _). UNTESTED ON WINDOWS: see docs/wizard.md,
// "Windows: what the scripts rely on".
import { randomBytes } from 'node:crypto';

import type { ReadCommand } from '../exec/commands.js';
import { text, withPresent } from '../exec/json.js';
import { busTypeName, jsonRows, powershell } from '../exec/powershell.js';
import type { Command, CommandRunner, PreparedVolume, WizardProvider } from './provider.js';
import type { DiskPartition, FormatId, FormatInfo, WizardDisk } from '../../model/wizard/types.js';

/** Runs a read-only query and resolves its standard output. */
export type WinExec = ReadCommand;

/** argv for one PowerShell script. Errors stop the script (and make its exit code non-zero). */
function ps(script: string): string[] {
  return powershell(`$ErrorActionPreference = 'Stop'; ${script}`);
}

// ---- the queries and their parsers ------------------------------------------------------------

export const WIN_GET_DISK =
  'Get-Disk | Select-Object Number,FriendlyName,SerialNumber,Size,BusType,IsBoot,IsSystem,IsOffline,IsReadOnly,PartitionStyle | ConvertTo-Json';
export const WIN_GET_PARTITION = 'Get-Partition | Select-Object DiskNumber,PartitionNumber,DriveLetter,Size,Type | ConvertTo-Json';
export const WIN_GET_VOLUME = 'Get-Volume | Select-Object DriveLetter,FileSystemType,FileSystemLabel | ConvertTo-Json';
/** The edition (ReFS on a data volume needs Pro for Workstations, Enterprise or Server) and whether
 *  BitLocker's cmdlet and manage-bde exist (not on Home). */
export const WIN_PROBE =
  '[pscustomobject]@{ Caption = (Get-CimInstance Win32_OperatingSystem).Caption; EnableBitLocker = [bool](Get-Command Enable-BitLocker -ErrorAction SilentlyContinue); ManageBde = [bool](Get-Command manage-bde.exe -ErrorAction SilentlyContinue) } | ConvertTo-Json';

export interface WinDiskRow {
  number: number;
  friendlyName?: string;
  serialNumber?: string;
  sizeBytes: number;
  /** As Windows names it: USB, SATA, NVMe, SAS, RAID, File Backed Virtual… */
  busType: string;
  isBoot: boolean;
  isSystem: boolean;
  isOffline: boolean;
  isReadOnly: boolean;
  /** RAW, MBR or GPT. */
  partitionStyle?: string;
}

export interface WinPartitionRow {
  diskNumber: number;
  partitionNumber: number;
  /** Absent when the partition has none (PowerShell writes "\u0000"). */
  driveLetter?: string;
  sizeBytes: number;
  /** GPT: System, Reserved, Basic, Recovery; MBR: IFS, FAT32… */
  type?: string;
}

export interface WinVolumeRow {
  driveLetter?: string;
  fileSystemType?: string;
  fileSystemLabel?: string;
}

// MSFT_Disk.PartitionStyle: the CIM number from raw ConvertTo-Json, the name from Select-Object.
const STYLE_NUMBER: Record<number, string> = { 0: 'RAW', 1: 'MBR', 2: 'GPT' };

/** `Get-Disk | … | ConvertTo-Json`. ConvertTo-Json writes one object, not an array, for one disk,
 *  and nothing at all for none. */
export function parseGetDisk(json: string): WinDiskRow[] {
  return rows(json, 'Get-Disk').map((o) => {
    const number = int(o.Number);
    if (number === undefined) throw new Error('Get-Disk: a disk without a Number');
    const row: WinDiskRow = {
      number,
      sizeBytes: int(o.Size) ?? 0,
      busType: busTypeName(o.BusType),
      isBoot: o.IsBoot === true,
      isSystem: o.IsSystem === true,
      isOffline: o.IsOffline === true,
      isReadOnly: o.IsReadOnly === true,
    };
    return withPresent(row, {
      friendlyName: text(o.FriendlyName),
      serialNumber: text(o.SerialNumber),
      partitionStyle: typeof o.PartitionStyle === 'number' ? STYLE_NUMBER[o.PartitionStyle] : text(o.PartitionStyle),
    });
  });
}

/** `Get-Partition | … | ConvertTo-Json` (and New-Partition's output, the same shape). */
export function parseGetPartition(json: string): WinPartitionRow[] {
  return rows(json, 'Get-Partition').map((o) => {
    const diskNumber = int(o.DiskNumber);
    const partitionNumber = int(o.PartitionNumber);
    if (diskNumber === undefined || partitionNumber === undefined)
      throw new Error('Get-Partition: a partition without DiskNumber/PartitionNumber');
    const row: WinPartitionRow = { diskNumber, partitionNumber, sizeBytes: int(o.Size) ?? 0 };
    return withPresent(row, { driveLetter: driveLetter(o.DriveLetter), type: text(o.Type) });
  });
}

/** `Get-Volume | … | ConvertTo-Json` (and Format-Volume's output). */
export function parseGetVolume(json: string): WinVolumeRow[] {
  return rows(json, 'Get-Volume').map((o) => {
    return withPresent<WinVolumeRow>(
      {},
      {
        driveLetter: driveLetter(o.DriveLetter),
        fileSystemType: text(o.FileSystemType) ?? text(o.FileSystem),
        fileSystemLabel: text(o.FileSystemLabel),
      },
    );
  });
}

export interface WinProbe {
  caption: string;
  refs: boolean;
  bitlocker: boolean;
}

/** WIN_PROBE's output → what this Windows can make. */
export function parseWinProbe(json: string): WinProbe {
  const o = rows(json, 'probe')[0] ?? {};
  const caption = text(o.Caption) ?? '';
  return {
    caption,
    // Since Windows 10 1709 only these editions create ReFS volumes (Microsoft's ReFS overview).
    refs: /Pro for Workstations|Enterprise|Server/i.test(caption),
    bitlocker: o.EnableBitLocker === true && o.ManageBde === true && !/\bHome\b/i.test(caption),
  };
}

// ---- the disks the wizard shows ---------------------------------------------------------------

const BUS: Record<string, string> = {
  usb: 'usb',
  sata: 'sata',
  ata: 'ata',
  nvme: 'nvme',
  sas: 'sas',
  scsi: 'scsi',
  raid: 'raid',
  sd: 'sd',
  mmc: 'mmc',
  '1394': '1394',
  'file backed virtual': 'vhd',
  virtual: 'virtual',
  'storage spaces': 'storage-spaces',
  iscsi: 'iscsi',
};
/** Buses whose disks are external (or, for a VHD, a file): offered without the advanced switch. */
const EXTERNAL_BUSES = new Set(['usb', 'sd', 'mmc', '1394', 'vhd']);

export const WIN_SYSTEM_REASON = 'It holds Windows (C:).';
/** Worded as the Linux provider words it. */
export const INTERNAL_REASON = 'It is an internal disk: turn on "Show internal disks" to use it.';

/** Whole disks as the wizard shows them, from the three queries' JSON. */
export function winDisks(
  diskJson: string,
  partitionJson: string,
  volumeJson: string,
  opts: { includeInternal?: boolean } = {},
): WizardDisk[] {
  const partitions = parseGetPartition(partitionJson);
  const volumes = parseGetVolume(volumeJson);
  return parseGetDisk(diskJson).map((d) => {
    const bus = BUS[d.busType.toLowerCase()] ?? d.busType.toLowerCase().replace(/\s+/g, '-');
    const system = d.isBoot || d.isSystem;
    const internal = !EXTERNAL_BUSES.has(bus);
    const disk: WizardDisk = {
      path: `\\\\.\\PHYSICALDRIVE${d.number}`,
      name: d.friendlyName ?? `Disk ${d.number}`,
      sizeBytes: d.sizeBytes,
      bus,
      removable: bus === 'usb' || bus === 'sd' || bus === 'mmc' || bus === '1394',
      internal,
      system,
      partitions: partitions
        .filter((p) => p.diskNumber === d.number)
        .map((p): DiskPartition => {
          const v = p.driveLetter ? volumes.find((x) => x.driveLetter === p.driveLetter) : undefined;
          const out: DiskPartition = {
            path: `\\\\?\\GLOBALROOT\\Device\\Harddisk${p.diskNumber}\\Partition${p.partitionNumber}`,
            sizeBytes: p.sizeBytes,
            mountpoints: p.driveLetter ? [`${p.driveLetter}:\\`] : [],
          };
          if (v?.fileSystemType) out.fs = v.fileSystemType;
          if (v?.fileSystemLabel) out.label = v.fileSystemLabel;
          return out;
        }),
      number: d.number,
      offered: false,
    };
    if (d.friendlyName) disk.model = d.friendlyName;
    if (d.serialNumber) disk.serial = d.serialNumber;
    if (system) disk.reason = WIN_SYSTEM_REASON;
    else if (d.isReadOnly) disk.reason = 'It is read-only.';
    else if (d.isOffline) disk.reason = 'It is offline: bring it online in Disk Management first.';
    else if (d.sizeBytes <= 0) disk.reason = 'It has no media.';
    else if (internal && !opts.includeInternal) disk.reason = INTERNAL_REASON;
    else disk.offered = true;
    return disk;
  });
}

// ---- formats ----------------------------------------------------------------------------------

/** Format-Volume refuses FAT32 above 32 GB (the limit Windows' own format tools keep). */
export const FAT32_MAX_BYTES = 32 * 1024 ** 3;
const FAT32_TOO_BIG = 'Windows formats FAT32 only up to 32 GB, and this disk is larger.';

interface WinFormat {
  label: string;
  fileSystem: 'NTFS' | 'exFAT' | 'FAT32' | 'ReFS';
  encrypted: boolean;
}

const FORMATS: Partial<Record<FormatId, WinFormat>> = {
  ntfs: { label: 'NTFS', fileSystem: 'NTFS', encrypted: false },
  exfat: { label: 'exFAT', fileSystem: 'exFAT', encrypted: false },
  fat32: { label: 'FAT32', fileSystem: 'FAT32', encrypted: false },
  refs: { label: 'ReFS', fileSystem: 'ReFS', encrypted: false },
  'ntfs-bitlocker': { label: 'NTFS (BitLocker)', fileSystem: 'NTFS', encrypted: true },
};

export const WIN_FORMAT_IDS = Object.keys(FORMATS) as FormatId[];

/** The Windows formats and which this machine can make. Pass the disk to have FAT32 refused on
 *  one larger than 32 GB (formats() has no disk; prepare() checks it again). */
export function winFormats(opts: {
  refs: boolean;
  bitlocker: boolean;
  caption?: string;
  disk?: Pick<WizardDisk, 'sizeBytes'>;
}): FormatInfo[] {
  const edition = opts.caption ? ` (${opts.caption})` : '';
  return WIN_FORMAT_IDS.map((id) => {
    const f = FORMATS[id]!;
    const info: FormatInfo = { id, label: f.label, encrypted: f.encrypted, available: true };
    let reason: string | undefined;
    if (id === 'refs' && !opts.refs)
      reason = `This Windows edition${edition} cannot make ReFS volumes: that needs Pro for Workstations, Enterprise or Server.`;
    if (id === 'ntfs-bitlocker' && !opts.bitlocker) reason = `BitLocker is not available on this Windows edition${edition}.`;
    if (id === 'fat32' && opts.disk && opts.disk.sizeBytes > FAT32_MAX_BYTES) reason = FAT32_TOO_BIG;
    if (reason) {
      info.available = false;
      info.reason = reason;
    }
    return info;
  });
}

function formatOf(format: FormatId): WinFormat {
  const f = FORMATS[format];
  if (!f) throw new Error(`${format} is not a Windows format`);
  return f;
}

// ---- the commands -----------------------------------------------------------------------------

const LABEL = /^[A-Za-z0-9_-]{1,11}$/;

/** A volume label safe to put in a script: 1–11 letters, digits, - or _. Throws otherwise. */
export function winLabel(label: string): string {
  if (!LABEL.test(label)) throw new Error(`volume label ${JSON.stringify(label)} is not allowed: use 1–11 letters, digits, - or _`);
  return label;
}

function diskNumber(disk: Pick<WizardDisk, 'path' | 'number'>): number {
  const n = disk.number ?? Number(/^\\\\\.\\PHYSICALDRIVE(\d+)$/i.exec(disk.path)?.[1]);
  if (!Number.isSafeInteger(n) || n < 0 || n > 9999) throw new Error(`${JSON.stringify(disk.path)} has no valid Windows disk number`);
  if (disk.path !== `\\\\.\\PHYSICALDRIVE${n}`) throw new Error(`${JSON.stringify(disk.path)} does not match disk number ${n}`);
  return n;
}

/** Which of winEraseCommands() is New-Partition: its output names the drive letter. */
export const NEW_PARTITION_STEP = 2;

/** The new data partition (after Initialize-Disk GPT there is also the Reserved one), failing when
 *  it got no drive letter. Used by the steps after New-Partition. */
function dataPartition(n: number): string {
  return (
    `$p = Get-Partition -DiskNumber ${n} | Where-Object Type -eq 'Basic' | Select-Object -First 1; ` +
    `if (-not $p -or [string]$p.DriveLetter -notmatch '^[A-Za-z]$') { throw 'The new partition on disk ${n} has no drive letter' }; `
  );
}

/** Every step that erases disk N into `format`, in order: one PowerShell invocation each. The
 *  drive letter is read by the scripts themselves (and by prepare() from New-Partition's output),
 *  so the list is complete before anything runs. For ntfs-bitlocker the passphrase goes on the
 *  last step's standard input, never into argv. */
export function winEraseCommands(
  disk: Pick<WizardDisk, 'path' | 'number' | 'sizeBytes'>,
  format: FormatId,
  label: string,
  passphrase?: string,
): Command[] {
  const n = diskNumber(disk);
  const f = formatOf(format);
  const l = winLabel(label);
  if (format === 'fat32' && disk.sizeBytes > FAT32_MAX_BYTES) throw new Error(FAT32_TOO_BIG);
  if (f.encrypted && !passphrase) throw new Error('an encrypted format needs a passphrase');
  const cmds: Command[] = [
    {
      // Clear-Disk refuses a disk that was never initialized (RAW): then there is nothing to clear.
      argv: ps(
        `$d = Get-Disk -Number ${n}; if ($d.PartitionStyle -ne 'RAW') { Clear-Disk -Number ${n} -RemoveData -RemoveOEM -Confirm:$false }`,
      ),
      privileged: true,
      why: `Erasing disk ${n}`,
    },
    {
      argv: ps(`Initialize-Disk -Number ${n} -PartitionStyle GPT`),
      privileged: true,
      why: `Writing a new GPT partition table on disk ${n}`,
    },
    {
      argv: ps(
        `New-Partition -DiskNumber ${n} -UseMaximumSize -AssignDriveLetter | Select-Object DiskNumber,PartitionNumber,DriveLetter,Size,Type | ConvertTo-Json`,
      ),
      privileged: true,
      why: `Making one partition across disk ${n}`,
    },
    {
      argv: ps(
        `${dataPartition(n)}Format-Volume -DriveLetter $p.DriveLetter -FileSystem ${f.fileSystem} -NewFileSystemLabel '${l}' -Confirm:$false -Force | ` +
          'Select-Object DriveLetter,FileSystemType,FileSystemLabel | ConvertTo-Json',
      ),
      privileged: true,
      why: `Formatting disk ${n} as ${f.label}`,
    },
  ];
  if (f.encrypted) {
    cmds.push({
      // `manage-bde -on X: -Password` prompts on the console; Enable-BitLocker takes a SecureString,
      // made here from the first line of standard input ($input), so the password is in no argv.
      // -UsedSpaceOnly on an empty volume finishes in seconds; the loop waits for it so the tests
      // do not measure the conversion.
      argv: ps(
        "$pw = [string]@($input)[0]; if (-not $pw) { throw 'No BitLocker password on standard input' }; " +
          dataPartition(n) +
          `$mp = "$($p.DriveLetter):"; ` +
          '$sec = ConvertTo-SecureString -String $pw -AsPlainText -Force; ' +
          'Enable-BitLocker -MountPoint $mp -EncryptionMethod XtsAes128 -UsedSpaceOnly -PasswordProtector -Password $sec | Out-Null; ' +
          "$t = 0; while ((Get-BitLockerVolume -MountPoint $mp).VolumeStatus -ne 'FullyEncrypted') { if (++$t -gt 600) { throw 'BitLocker did not finish within 10 minutes' }; Start-Sleep -Seconds 1 }",
      ),
      privileged: true,
      stdin: passphrase!,
      why: `Turning on BitLocker on disk ${n}`,
    });
  }
  return cmds;
}

// ---- the provider -----------------------------------------------------------------------------

/** A prepared Windows volume; `passphrase` is set for ntfs-bitlocker (the runner shows it if the
 *  disk is left encrypted at the end). */
export interface WinPreparedVolume extends PreparedVolume {
  passphrase?: string;
}

export interface WinPrepareOptions {
  label: string;
  run: CommandRunner;
  workDir: string;
  passphrase?: string;
}

export interface WinProvider extends WizardProvider {
  prepare(disk: WizardDisk, format: FormatId, opts: WinPrepareOptions): Promise<WinPreparedVolume>;
  /** formats() for one disk: FAT32 is unavailable on a disk larger than 32 GB. */
  formatsFor(disk: Pick<WizardDisk, 'sizeBytes'>): Promise<FormatInfo[]>;
}

export interface WinProviderOptions {
  /** The BitLocker password when prepare() is not given one (default: 24 random bytes, base64url). */
  newPassphrase?: () => string;
}

export function createWinProvider(exec: WinExec, options: WinProviderOptions = {}): WinProvider {
  const newPassphrase = options.newPassphrase ?? (() => randomBytes(24).toString('base64url'));
  let probe: Promise<WinProbe> | undefined;
  const probed = (): Promise<WinProbe> =>
    (probe ??= exec(ps(WIN_PROBE)).then(parseWinProbe, () => ({ caption: '', refs: false, bitlocker: false })));
  const formatsFor = async (disk?: Pick<WizardDisk, 'sizeBytes'>): Promise<FormatInfo[]> => {
    const p = await probed();
    return winFormats({ refs: p.refs, bitlocker: p.bitlocker, ...(p.caption ? { caption: p.caption } : {}), ...(disk ? { disk } : {}) });
  };

  return {
    platform: 'win32',

    async listDisks(opts) {
      const [disks, partitions, volumes] = await Promise.all([
        exec(ps(WIN_GET_DISK)),
        exec(ps(WIN_GET_PARTITION)),
        exec(ps(WIN_GET_VOLUME)),
      ]);
      return winDisks(disks, partitions, volumes, opts);
    },

    formats: () => formatsFor(),
    formatsFor,

    async prepare(disk, format, opts) {
      const f = formatOf(format);
      const available = (await formatsFor(disk)).find((x) => x.id === format);
      if (available && !available.available) throw new Error(`${f.label} cannot be made here: ${available.reason}`);
      const passphrase = f.encrypted ? opts.passphrase || newPassphrase() : undefined;

      let letter: string | undefined;
      for (const [i, cmd] of winEraseCommands(disk, format, opts.label, passphrase).entries()) {
        const { stdout } = await opts.run(cmd);
        if (i === NEW_PARTITION_STEP) letter = parseGetPartition(stdout)[0]?.driveLetter;
      }
      if (!letter) throw new Error(`New-Partition gave disk ${disk.number ?? disk.path} no drive letter`);

      const root = `${letter}:\\`;
      const prepared: WinPreparedVolume = {
        testPath: root,
        mountPoint: root,
        partition: `${letter}:`,
        // Nothing to undo: the volume stays on its letter (as Windows leaves any disk), and the
        // next format's Clear-Disk removes it. Ejecting is the user's, at the end.
        release: async () => {},
      };
      if (passphrase) prepared.passphrase = passphrase;
      return prepared;
    },
  };
}

// ---- JSON helpers -----------------------------------------------------------------------------

type Json = Record<string, unknown>;

/** ConvertTo-Json output → its objects; output that is not JSON is an error here. */
function rows(json: string, what: string): Json[] {
  const list = jsonRows(json);
  if (!list) throw new Error(`${what}: the output is not JSON`);
  return list;
}

function int(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
}

/** A [char] drive letter: "E", or "\u0000"/null/"" for none. */
function driveLetter(v: unknown): string | undefined {
  return typeof v === 'string' && /^[A-Za-z]$/.test(v) ? v.toUpperCase() : undefined;
}
