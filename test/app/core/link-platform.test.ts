// macOS and Windows disk lookup wired end to end against fixtures shaped like the tools' real
// output (test/fixtures/link/README.md), with a fake command runner standing in for the OS.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { macDiskFor, POWERSHELL_MISSING_NOTE, windowsDiskFor, windowsDiskLookup } from '../../../app/src/core/link/index.js';
import type { ReadCommand } from '../../../app/src/core/exec/commands.js';
import { diskFromPlatform } from '../../../app/src/core/volume.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/link');
const fixture = (name: string): string => readFileSync(path.join(fixtures, name), 'utf8');

/** system_profiler prints one object holding every asked-for data type. */
function macProfiler(): string {
  return JSON.stringify({
    ...JSON.parse(fixture('macos-system-profiler.json')),
    ...JSON.parse(fixture('macos-system-profiler-storage.json')),
  });
}

function runner(answers: Record<string, string>, calls: string[][] = []): ReadCommand {
  return async (argv) => {
    calls.push([...argv]);
    const key = Object.keys(answers).find((k) => argv.join(' ').includes(k));
    if (key === undefined) throw new Error(`unexpected command ${argv.join(' ')}`);
    return answers[key]!;
  };
}

describe('macOS: the disk behind a folder', () => {
  it('finds the T7 on USB 3.2 Gen 2 with its ceiling, model and mount point', async () => {
    const calls: string[][] = [];
    const run = runner(
      {
        'df -P':
          'Filesystem   512-blocks      Used Available Capacity  Mounted on\n/dev/disk4s1 1953459632 123456 1953336176     1%    /Volumes/T7\n',
        system_profiler: macProfiler(),
      },
      calls,
    );
    const d = await macDiskFor('/Volumes/T7/footage', run);
    expect(d).toMatchObject({ name: 'disk4', mountPoint: '/Volumes/T7', model: 'PSSD T7', internal: false });
    expect(d!.link.kind).toBe('usb');
    expect(d!.link.ceilingMBps).toBeCloseTo(1212.1, 0);
    // argv only, never a shell string
    expect(calls[0]).toEqual(['df', '-P', '/Volumes/T7/footage']);
    expect(calls[1]!.slice(0, 2)).toEqual(['system_profiler', '-json']);
    // …and in the shape every screen reads (volumeInfo's DiskInfo).
    expect(diskFromPlatform(d!)).toMatchObject({ name: 'disk4', bus: 'usb', model: 'PSSD T7', removable: true, link: d!.link.label });
  });

  it('falls back to the bus alone when no speed is reported, and to nothing when the tools fail', async () => {
    const internal = await macDiskFor(
      '/',
      runner({
        'df -P': 'Filesystem 512-blocks Used Available Capacity Mounted on\n/dev/disk3s5 1 1 1 1% /System/Volumes/Data\n',
        system_profiler: macProfiler(),
      }),
    );
    expect(internal?.link.label).toMatch(/Apple Fabric/);
    expect(internal?.internal).toBe(true);
    expect(
      await macDiskFor('/', async () => {
        throw new Error('no system_profiler');
      }),
    ).toBeUndefined();
    expect(
      await macDiskFor(
        '/net/x',
        runner({ 'df -P': 'Filesystem 512-blocks Used Available Capacity Mounted on\nserver:/x 1 1 1 1% /net/x\n' }),
      ),
    ).toBeUndefined();
  });
});

describe('Windows: the disk behind a folder', () => {
  it('maps a drive letter to its physical disk: bus, model, serial, firmware', async () => {
    const run = runner({ 'Get-Partition -DriveLetter E': '2\r\n', 'Get-PhysicalDisk': fixture('windows-get-physicaldisk.json') });
    const d = await windowsDiskFor('E:\\Footage', run);
    expect(d).toMatchObject({ name: '2', mountPoint: 'E:\\', model: 'Samsung PSSD T7' });
    expect(d!.link.kind).toBe('usb');
    expect(d!.link.ceilingMBps).toBeUndefined(); // Get-PhysicalDisk reports no negotiated speed
  });

  it('gives nothing for a UNC path, an unknown disk number, or a failing PowerShell', async () => {
    expect(await windowsDiskFor('\\\\server\\share', runner({}))).toBeUndefined();
    expect(
      await windowsDiskFor('C:\\', runner({ 'Get-Partition': '9\r\n', 'Get-PhysicalDisk': fixture('windows-get-physicaldisk.json') })),
    ).toBeUndefined();
    expect(
      await windowsDiskFor('C:\\', async () => {
        throw new Error('no powershell');
      }),
    ).toBeUndefined();
  });

  it("says plainly when PowerShell is missing or silent (Wine's stub), and only then", async () => {
    const missing = async (): Promise<string> => {
      throw Object.assign(new Error('spawn powershell.exe ENOENT'), { code: 'ENOENT', syscall: 'spawn powershell.exe' });
    };
    expect(await windowsDiskLookup('C:\\', missing)).toEqual({ note: POWERSHELL_MISSING_NOTE });
    expect(POWERSHELL_MISSING_NOTE).toMatch(
      /^PowerShell \(powershell\.exe\) is missing or gave no answer, so the disk behind this folder is unknown/,
    );
    // Wine's powershell.exe exits 0 and prints nothing.
    expect(await windowsDiskLookup('C:\\', async () => '')).toEqual({ note: POWERSHELL_MISSING_NOTE });
    expect(await windowsDiskFor('C:\\', missing)).toBeUndefined();
    // Other failures (a cmdlet error, a timeout) leave the disk out without a note.
    expect(
      await windowsDiskLookup('C:\\', async () => {
        throw Object.assign(new Error('Command failed'), { code: 1 });
      }),
    ).toEqual({});
    const found = await windowsDiskLookup(
      'E:\\',
      runner({ 'Get-Partition -DriveLetter E': '2\r\n', 'Get-PhysicalDisk': fixture('windows-get-physicaldisk.json') }),
    );
    expect(found.note).toBeUndefined();
    expect(found.disk?.model).toBe('Samsung PSSD T7');
  });
});
