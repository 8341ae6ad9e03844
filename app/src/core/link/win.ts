// Windows link detection: the disk behind a drive letter from PowerShell's Get-Partition and
// Get-PhysicalDisk. Windows reports the bus there but no negotiated speed, so links carry no ceiling.
import type { ReadCommand } from '../exec/commands.js';
import { text, withPresent } from '../exec/json.js';
import { busTypeName, jsonRows, powershell } from '../exec/powershell.js';
import type { LinkInfo, LinkKind } from '../../model/link-types.js';
import { namedLink } from './ceilings.js';
import { linkRead, type PlatformDisk } from './platform.js';

/** The PowerShell this parser expects (one object or an array of them). */
export const WINDOWS_DISKS_COMMAND =
  'Get-PhysicalDisk | Select-Object DeviceId,FriendlyName,BusType,MediaType,SerialNumber,FirmwareVersion | ConvertTo-Json';

const WIN_MEDIA_NUMBER: Record<number, string> = { 0: 'Unspecified', 3: 'HDD', 4: 'SSD', 5: 'SCM' };

function winBusLink(bus: string): LinkInfo {
  const b = bus.toLowerCase();
  const [kind, label]: [LinkKind, string] =
    b === 'usb'
      ? ['usb', 'USB']
      : b === 'nvme'
        ? ['pcie', 'NVMe (PCIe)']
        : b === 'sata' || b === 'ata'
          ? ['sata', 'SATA']
          : b === 'sas'
            ? ['sas', 'SAS']
            : b === 'file backed virtual' || b === 'virtual'
              ? ['virtio', 'Virtual disk']
              : b === 'iscsi'
                ? ['network', 'iSCSI']
                : ['unknown', bus];
  return namedLink(kind, label, 'powershell');
}

export interface WindowsDisk {
  deviceId?: string;
  friendlyName?: string;
  serial?: string;
  firmware?: string;
  mediaType?: string;
  /** Bus only: Get-PhysicalDisk does not report negotiated speed. */
  link: LinkInfo;
}

/** Disks from `WINDOWS_DISKS_COMMAND` output; BusType gives the kind and label, no speed. */
export function parseWindowsDisks(json: string): WindowsDisk[] {
  const out: WindowsDisk[] = [];
  for (const o of jsonRows(json) ?? []) {
    const id = o.DeviceId;
    out.push(
      withPresent<WindowsDisk>(
        { link: winBusLink(busTypeName(o.BusType)) },
        {
          deviceId: typeof id === 'string' || typeof id === 'number' ? String(id) : undefined,
          friendlyName: text(o.FriendlyName),
          serial: text(o.SerialNumber),
          firmware: text(o.FirmwareVersion),
          mediaType: typeof o.MediaType === 'number' ? WIN_MEDIA_NUMBER[o.MediaType] : text(o.MediaType),
        },
      ),
    );
  }
  return out;
}

/** The plain words for a Windows machine without a working PowerShell (a stripped-down Windows;
 *  Wine, whose powershell.exe is a stub that prints nothing): the test still runs; only the disk's
 *  description is missing. */
export const POWERSHELL_MISSING_NOTE =
  'PowerShell (powershell.exe) is missing or gave no answer, so the disk behind this folder is unknown: no model, bus or link ceiling';

export interface PlatformDiskLookup {
  disk?: PlatformDisk;
  /** Why there is no disk, in plain words, when the reason is worth telling (a missing tool). */
  note?: string;
}

/** Windows: the drive letter's disk number, then that disk from Get-PhysicalDisk (bus, model,
 *  serial, firmware; Windows reports no negotiated speed there). PowerShell missing or silent is
 *  said in `note`; any other failure just leaves the disk out. */
export async function windowsDiskLookup(target: string, run: ReadCommand = linkRead): Promise<PlatformDiskLookup> {
  const letter = /^([A-Za-z]):/.exec(target)?.[1]?.toUpperCase();
  if (!letter) return {}; // UNC paths and the like: a network share, no local disk
  try {
    const number = (await run(powershell(`(Get-Partition -DriveLetter ${letter}).DiskNumber`))).trim();
    if (number === '') return { note: POWERSHELL_MISSING_NOTE };
    if (!/^\d+$/.test(number)) return {};
    const disks = parseWindowsDisks(await run(powershell(WINDOWS_DISKS_COMMAND)));
    const d = disks.find((x) => x.deviceId === number);
    if (!d) return {};
    const disk: PlatformDisk = { name: number, mountPoint: `${letter}:\\`, link: d.link };
    if (d.friendlyName) disk.model = d.friendlyName;
    if (d.serial) disk.serial = d.serial;
    if (d.firmware) disk.firmware = d.firmware;
    return { disk };
  } catch (err) {
    // A program that is not there: the runner's ERR_TOOL_MISSING, or a bare spawn failure.
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    return code === 'ERR_TOOL_MISSING' || code === 'ENOENT' ? { note: POWERSHELL_MISSING_NOTE } : {};
  }
}

/** The disk alone, for callers that do not show why it is missing. */
export async function windowsDiskFor(target: string, run: ReadCommand = linkRead): Promise<PlatformDisk | undefined> {
  return (await windowsDiskLookup(target, run)).disk;
}
