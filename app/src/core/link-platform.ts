// The disk behind a folder on macOS and Windows, from the OS's own tools: `df` and
// `system_profiler -json` on macOS, PowerShell's Get-Partition/Get-PhysicalDisk on Windows. The
// parsers live in link.ts; this file runs the commands (argv, never a shell string; injectable so
// the wiring is tested against recorded-shape fixtures) and joins their answers. Best effort:
// anything missing or failing gives undefined, never an error.
import { execFile } from 'node:child_process';

import type { LinkInfo } from '../model/link-types.js';
import { parseSystemProfiler, parseSystemProfilerStorage, parseWindowsDisks, WINDOWS_DISKS_COMMAND } from './link.js';

/** Runs a command and resolves its stdout. */
export type CommandRunner = (cmd: string, args: readonly string[]) => Promise<string>;

export const execRunner: CommandRunner = (cmd, args) =>
  new Promise((resolve, reject) => {
    execFile(cmd, [...args], { timeout: 8_000, maxBuffer: 16 << 20, windowsHide: true }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
  });

export interface PlatformDisk {
  /** BSD name (disk4) or Windows disk number ("2"). */
  name: string;
  mountPoint?: string;
  model?: string;
  serial?: string;
  firmware?: string;
  internal?: boolean;
  link: LinkInfo;
}

const MAC_TYPES = ['SPStorageDataType', 'SPUSBDataType', 'SPNVMeDataType', 'SPSerialATADataType'];

/** macOS: `df -P` names the volume's BSD device; system_profiler gives its bus (per volume) and
 *  the negotiated speed (per whole disk, where the bus reports one). */
export async function macDiskFor(target: string, run: CommandRunner = execRunner): Promise<PlatformDisk | undefined> {
  try {
    const df = (await run('df', ['-P', target])).trim().split('\n').at(-1)?.split(/\s+/) ?? [];
    const volume = df[0]?.replace(/^\/dev\//, '');
    if (!volume || !/^disk\d+/.test(volume)) return undefined;
    const whole = /^disk\d+/.exec(volume)![0];
    const json = await run('system_profiler', ['-json', ...MAC_TYPES]);
    const storage = parseSystemProfilerStorage(json).find((v) => v.bsdName === volume);
    const speed = parseSystemProfiler(json)[whole];
    const link = speed ?? storage?.link;
    if (!link) return undefined;
    const disk: PlatformDisk = { name: whole, link };
    const mp = storage?.mountPoint ?? df.at(-1);
    if (mp) disk.mountPoint = mp;
    if (storage?.deviceName) disk.model = storage.deviceName;
    if (storage?.internal !== undefined) disk.internal = storage.internal;
    return disk;
  } catch {
    return undefined;
  }
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
export async function windowsDiskLookup(target: string, run: CommandRunner = execRunner): Promise<PlatformDiskLookup> {
  const letter = /^([A-Za-z]):/.exec(target)?.[1]?.toUpperCase();
  if (!letter) return {}; // UNC paths and the like: a network share, no local disk
  try {
    const number = (
      await run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', `(Get-Partition -DriveLetter ${letter}).DiskNumber`])
    ).trim();
    if (number === '') return { note: POWERSHELL_MISSING_NOTE };
    if (!/^\d+$/.test(number)) return {};
    const disks = parseWindowsDisks(await run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', WINDOWS_DISKS_COMMAND]));
    const d = disks.find((x) => x.deviceId === number);
    if (!d) return {};
    const disk: PlatformDisk = { name: number, mountPoint: `${letter}:\\`, link: d.link };
    if (d.friendlyName) disk.model = d.friendlyName;
    if (d.serial) disk.serial = d.serial;
    if (d.firmware) disk.firmware = d.firmware;
    return { disk };
  } catch (err) {
    // execFile's spawn failure for a program that is not there.
    return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT' ? { note: POWERSHELL_MISSING_NOTE } : {};
  }
}

/** The disk alone, for callers that do not show why it is missing. */
export async function windowsDiskFor(target: string, run: CommandRunner = execRunner): Promise<PlatformDisk | undefined> {
  return (await windowsDiskLookup(target, run)).disk;
}
