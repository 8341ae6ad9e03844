// The wizard's Windows provider against fixtures shaped like PowerShell's real ConvertTo-Json
// output (test/fixtures/wizard/README.md): the parsers, which disks are offered and why, the
// formats this edition can make, the exact argv of every step, and prepare() with a fake runner.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import type { Command } from '../../../../app/src/core/wizard/provider.js';
import type { FormatId, WizardDisk } from '../../../../app/src/model/wizard/types.js';
import {
  createWinProvider,
  FAT32_MAX_BYTES,
  INTERNAL_REASON,
  parseGetDisk,
  parseGetPartition,
  parseGetVolume,
  parseWinProbe,
  WIN_GET_DISK,
  WIN_GET_PARTITION,
  WIN_GET_VOLUME,
  WIN_PROBE,
  WIN_SYSTEM_REASON,
  winDisks,
  winEraseCommands,
  winFormats,
  winLabel,
} from '../../../../app/src/core/wizard/win.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/wizard');
const fixture = (name: string): string => readFileSync(path.join(fixtures, name), 'utf8');

const DISKS = fixture('win-get-disk.json');
const PARTITIONS = fixture('win-get-partition.json');
const VOLUMES = fixture('win-get-volume.json');
const PS = ['powershell.exe', '-NoProfile', '-NonInteractive', '-Command'];
const script = (s: string): string[] => [...PS, `$ErrorActionPreference = 'Stop'; ${s}`];

describe('PowerShell parsers', () => {
  it('reads Get-Disk: an array of disks', () => {
    expect(parseGetDisk(DISKS)).toEqual([
      {
        number: 0,
        friendlyName: 'Samsung SSD 980 PRO 1TB',
        serialNumber: '0025_3852_21B3_4C5D.',
        sizeBytes: 1000204886016,
        busType: 'NVMe',
        isBoot: true,
        isSystem: true,
        isOffline: false,
        isReadOnly: false,
        partitionStyle: 'GPT',
      },
      {
        number: 1,
        friendlyName: 'Samsung PSSD T7',
        serialNumber: 'S5SXNS0T412345K',
        sizeBytes: 1000204886016,
        busType: 'USB',
        isBoot: false,
        isSystem: false,
        isOffline: false,
        isReadOnly: false,
        partitionStyle: 'GPT',
      },
      {
        number: 2,
        friendlyName: 'WDC WDS100T2B0A-00SM50',
        serialNumber: '21035V801234',
        sizeBytes: 1000204886016,
        busType: 'SATA',
        isBoot: false,
        isSystem: false,
        isOffline: false,
        isReadOnly: false,
        partitionStyle: 'GPT',
      },
      {
        number: 3,
        friendlyName: 'Msft Virtual Disk',
        sizeBytes: 8589934592,
        busType: 'File Backed Virtual',
        isBoot: false,
        isSystem: false,
        isOffline: false,
        isReadOnly: false,
        partitionStyle: 'RAW',
      },
    ]);
  });

  it('reads Get-Disk with one disk: ConvertTo-Json writes an object, not an array', () => {
    const single = parseGetDisk(fixture('win-get-disk-single.json'));
    expect(single).toHaveLength(1);
    expect(single[0]).toMatchObject({ number: 0, busType: 'NVMe', isBoot: true });
    expect(parseGetDisk('')).toEqual([]);
    expect(parseGetDisk('\r\n')).toEqual([]);
  });

  it('accepts the CIM numbers raw ConvertTo-Json writes for BusType and PartitionStyle', () => {
    const raw = JSON.stringify({
      Number: 5,
      FriendlyName: 'Card',
      Size: 64e9,
      BusType: 7,
      PartitionStyle: 1,
      IsBoot: false,
      IsSystem: false,
      IsOffline: false,
      IsReadOnly: false,
    });
    expect(parseGetDisk(raw)[0]).toMatchObject({ busType: 'USB', partitionStyle: 'MBR' });
    expect(parseGetDisk(JSON.stringify({ Number: 6, Size: 1, BusType: 17, PartitionStyle: 2 }))[0]).toMatchObject({
      busType: 'NVMe',
      partitionStyle: 'GPT',
    });
    expect(parseGetDisk(JSON.stringify({ Number: 7, Size: 1, BusType: 15 }))[0]!.busType).toBe('File Backed Virtual');
  });

  it('reads Get-Partition: no drive letter is "\\u0000"', () => {
    const parts = parseGetPartition(PARTITIONS);
    expect(parts[0]).toEqual({ diskNumber: 0, partitionNumber: 1, sizeBytes: 104857600, type: 'System' });
    expect(parts.find((p) => p.driveLetter === 'C')).toMatchObject({ diskNumber: 0, partitionNumber: 3, type: 'Basic' });
    expect(parseGetPartition(fixture('win-new-partition.json'))).toEqual([
      { diskNumber: 1, partitionNumber: 2, driveLetter: 'F', sizeBytes: 1000186314752, type: 'Basic' },
    ]);
  });

  it('reads Get-Volume: no drive letter is null', () => {
    expect(parseGetVolume(VOLUMES)).toEqual([
      { driveLetter: 'C', fileSystemType: 'NTFS', fileSystemLabel: 'Windows' },
      { fileSystemType: 'FAT32' },
      { fileSystemType: 'NTFS', fileSystemLabel: 'Windows RE tools' },
      { driveLetter: 'D', fileSystemType: 'exFAT', fileSystemLabel: 'T7' },
      { driveLetter: 'E', fileSystemType: 'NTFS', fileSystemLabel: 'Data' },
    ]);
  });

  it('rejects output that is not JSON', () => {
    expect(() => parseGetDisk('Get-Disk : Access denied')).toThrow(/not JSON/);
    expect(() => parseGetPartition('{')).toThrow(/not JSON/);
    expect(() => parseGetDisk('{"FriendlyName": "no number"}')).toThrow(/Number/);
  });

  it('tells from the edition whether ReFS and BitLocker are there', () => {
    const probe = (caption: string, bde = true): string => JSON.stringify({ Caption: caption, EnableBitLocker: bde, ManageBde: bde });
    expect(parseWinProbe(probe('Microsoft Windows 11 Pro'))).toEqual({ caption: 'Microsoft Windows 11 Pro', refs: false, bitlocker: true });
    expect(parseWinProbe(probe('Microsoft Windows 11 Pro for Workstations')).refs).toBe(true);
    expect(parseWinProbe(probe('Microsoft Windows 10 Enterprise')).refs).toBe(true);
    expect(parseWinProbe(probe('Microsoft Windows Server 2022 Datacenter')).refs).toBe(true);
    expect(parseWinProbe(probe('Microsoft Windows 11 Home', false))).toMatchObject({ refs: false, bitlocker: false });
    expect(parseWinProbe(probe('Microsoft Windows 11 Home', true)).bitlocker).toBe(false);
  });
});

describe('the disks the wizard shows', () => {
  const disks = winDisks(DISKS, PARTITIONS, VOLUMES);
  /** Get-Disk's JSON for one USB stick, not boot, system, offline or read-only unless `over` says so. */
  const usbDiskJson = (over: Record<string, unknown>): string =>
    JSON.stringify({
      Number: 4,
      FriendlyName: 'USB Stick',
      Size: 16e9,
      BusType: 'USB',
      IsBoot: false,
      IsSystem: false,
      IsOffline: false,
      IsReadOnly: false,
      ...over,
    });
  const byNumber = (n: number): WizardDisk => disks.find((d) => d.number === n)!;

  it('never offers the disk holding Windows', () => {
    expect(byNumber(0)).toMatchObject({
      path: '\\\\.\\PHYSICALDRIVE0',
      system: true,
      internal: true,
      bus: 'nvme',
      offered: false,
      reason: WIN_SYSTEM_REASON,
    });
    expect(WIN_SYSTEM_REASON).toMatch(/holds Windows \(C:\)/);
    expect(winDisks(DISKS, PARTITIONS, VOLUMES, { includeInternal: true })[0]).toMatchObject({ offered: false, reason: WIN_SYSTEM_REASON });
    expect(byNumber(0).partitions.find((p) => p.mountpoints.includes('C:\\'))).toMatchObject({
      fs: 'NTFS',
      label: 'Windows',
      path: '\\\\?\\GLOBALROOT\\Device\\Harddisk0\\Partition3',
    });
  });

  it('offers the USB disk', () => {
    expect(byNumber(1)).toMatchObject({
      path: '\\\\.\\PHYSICALDRIVE1',
      number: 1,
      name: 'Samsung PSSD T7',
      model: 'Samsung PSSD T7',
      serial: 'S5SXNS0T412345K',
      bus: 'usb',
      removable: true,
      internal: false,
      system: false,
      offered: true,
    });
    expect(byNumber(1).partitions).toEqual([
      {
        path: '\\\\?\\GLOBALROOT\\Device\\Harddisk1\\Partition1',
        sizeBytes: 1000202788864,
        mountpoints: ['D:\\'],
        fs: 'exFAT',
        label: 'T7',
      },
    ]);
  });

  it('offers the internal non-system disk only behind the advanced switch', () => {
    expect(byNumber(2)).toMatchObject({ bus: 'sata', internal: true, system: false, offered: false, reason: INTERNAL_REASON });
    expect(winDisks(DISKS, PARTITIONS, VOLUMES, { includeInternal: true })[2]).toMatchObject({ number: 2, offered: true });
  });

  it('offers a VHD as bus vhd', () => {
    expect(byNumber(3)).toMatchObject({ bus: 'vhd', internal: false, offered: true, name: 'Msft Virtual Disk', partitions: [] });
    expect(byNumber(3).serial).toBeUndefined();
  });

  it('treats a disk with only IsSystem (the EFI partition) as holding Windows too', () => {
    const esp = usbDiskJson({ Number: 5, FriendlyName: 'USB SSD', Size: 5e11, IsSystem: true });
    expect(winDisks(esp, '', '')[0]).toMatchObject({ system: true, offered: false, reason: WIN_SYSTEM_REASON });
  });

  it('does not offer an offline or read-only disk', () => {
    const offline = usbDiskJson({ IsOffline: true });
    expect(winDisks(offline, '', '')[0]).toMatchObject({ offered: false, reason: expect.stringMatching(/offline/) });
    const ro = usbDiskJson({ IsReadOnly: true });
    expect(winDisks(ro, '', '')[0]).toMatchObject({ offered: false, reason: expect.stringMatching(/read-only/) });
  });
});

describe('formats', () => {
  it('are NTFS, exFAT, FAT32, ReFS where the edition allows, and BitLocker where present', () => {
    expect(winFormats({ refs: true, bitlocker: true }).map((f) => [f.id, f.label, f.encrypted, f.available])).toEqual([
      ['ntfs', 'NTFS', false, true],
      ['exfat', 'exFAT', false, true],
      ['fat32', 'FAT32', false, true],
      ['refs', 'ReFS', false, true],
      ['ntfs-bitlocker', 'NTFS (BitLocker)', true, true],
    ]);
    const home = winFormats({ refs: false, bitlocker: false, caption: 'Microsoft Windows 11 Home' });
    expect(home.find((f) => f.id === 'refs')).toMatchObject({
      available: false,
      reason: expect.stringMatching(/Windows 11 Home.*Pro for Workstations, Enterprise or Server/),
    });
    expect(home.find((f) => f.id === 'ntfs-bitlocker')).toMatchObject({ available: false, reason: expect.stringMatching(/BitLocker/) });
  });

  it('make FAT32 unavailable on a disk larger than 32 GB', () => {
    expect(winFormats({ refs: false, bitlocker: false, disk: { sizeBytes: 1000204886016 } }).find((f) => f.id === 'fat32')).toMatchObject({
      available: false,
      reason: expect.stringMatching(/32 GB/),
    });
    expect(
      winFormats({ refs: false, bitlocker: false, disk: { sizeBytes: 31_000_000_000 } }).find((f) => f.id === 'fat32')!.available,
    ).toBe(true);
  });
});

describe('the commands', () => {
  const t7 = { path: '\\\\.\\PHYSICALDRIVE1', number: 1, sizeBytes: 1000204886016 };
  const stick = { path: '\\\\.\\PHYSICALDRIVE1', number: 1, sizeBytes: 16_000_000_000 };
  const first3 = [
    script("$d = Get-Disk -Number 1; if ($d.PartitionStyle -ne 'RAW') { Clear-Disk -Number 1 -RemoveData -RemoveOEM -Confirm:$false }"),
    script('Initialize-Disk -Number 1 -PartitionStyle GPT'),
    script(
      'New-Partition -DiskNumber 1 -UseMaximumSize -AssignDriveLetter | Select-Object DiskNumber,PartitionNumber,DriveLetter,Size,Type | ConvertTo-Json',
    ),
  ];
  const findPartition =
    "$p = Get-Partition -DiskNumber 1 | Where-Object Type -eq 'Basic' | Select-Object -First 1; if (-not $p -or [string]$p.DriveLetter -notmatch '^[A-Za-z]$') { throw 'The new partition on disk 1 has no drive letter' }; ";
  const formatStep = (fs: string): string[] =>
    script(
      `${findPartition}Format-Volume -DriveLetter $p.DriveLetter -FileSystem ${fs} -NewFileSystemLabel 'DISKDIAL' -Confirm:$false -Force | Select-Object DriveLetter,FileSystemType,FileSystemLabel | ConvertTo-Json`,
    );

  it.each<[FormatId, string, typeof t7]>([
    ['ntfs', 'NTFS', t7],
    ['exfat', 'exFAT', t7],
    ['refs', 'ReFS', t7],
    ['fat32', 'FAT32', stick],
  ])('%s: clear, initialize GPT, partition, format — all elevated', (format, fs, disk) => {
    const cmds = winEraseCommands(disk, format, 'DISKDIAL');
    expect(cmds.map((c) => c.argv)).toEqual([...first3, formatStep(fs)]);
    expect(cmds.every((c) => c.privileged && c.stdin === undefined && c.why.length > 0)).toBe(true);
  });

  it('ntfs-bitlocker adds Enable-BitLocker, reading the password from stdin only', () => {
    const pw = 'Correct-Horse-9';
    const cmds = winEraseCommands(t7, 'ntfs-bitlocker', 'DISKDIAL', pw);
    expect(cmds.map((c) => c.argv)).toEqual([
      ...first3,
      formatStep('NTFS'),
      script(
        "$pw = [string]@($input)[0]; if (-not $pw) { throw 'No BitLocker password on standard input' }; " +
          findPartition +
          '$mp = "$($p.DriveLetter):"; $sec = ConvertTo-SecureString -String $pw -AsPlainText -Force; ' +
          'Enable-BitLocker -MountPoint $mp -EncryptionMethod XtsAes128 -UsedSpaceOnly -PasswordProtector -Password $sec | Out-Null; ' +
          "$t = 0; while ((Get-BitLockerVolume -MountPoint $mp).VolumeStatus -ne 'FullyEncrypted') { if (++$t -gt 600) { throw 'BitLocker did not finish within 10 minutes' }; Start-Sleep -Seconds 1 }",
      ),
    ]);
    expect(cmds.at(-1)).toMatchObject({ privileged: true, stdin: pw });
    expect(cmds.flatMap((c) => c.argv).some((a) => a.includes(pw))).toBe(false);
    expect(() => winEraseCommands(t7, 'ntfs-bitlocker', 'DISKDIAL')).toThrow(/passphrase/);
  });

  it('refuses labels that could change the script', () => {
    for (const bad of ['a;rm -rf /', '$(x)', "x'; Format-Volume C", 'a b', '', 'TWELVECHARSX', 'é']) {
      expect(() => winEraseCommands(t7, 'ntfs', bad), bad).toThrow(/not allowed/);
    }
    expect(winLabel('Disk_Dial-1')).toBe('Disk_Dial-1');
  });

  it('refuses a disk whose number is not a plain integer or does not match its path', () => {
    expect(() => winEraseCommands({ ...t7, number: 1.5 }, 'ntfs', 'DISKDIAL')).toThrow(/disk number/);
    expect(() => winEraseCommands({ ...t7, number: -1 }, 'ntfs', 'DISKDIAL')).toThrow(/disk number/);
    expect(() => winEraseCommands({ ...t7, number: 2 }, 'ntfs', 'DISKDIAL')).toThrow(/does not match/);
    expect(() => winEraseCommands({ path: '\\\\.\\PHYSICALDRIVE1; rm', sizeBytes: 1 }, 'ntfs', 'DISKDIAL')).toThrow(/disk number/);
    // the number can come from the path alone
    expect(winEraseCommands({ path: '\\\\.\\PHYSICALDRIVE7', sizeBytes: 1e9 }, 'ntfs', 'DISKDIAL')[1]!.argv.at(-1)).toContain(
      'Initialize-Disk -Number 7 ',
    );
  });

  it('refuses FAT32 above 32 GB and other platforms’ formats', () => {
    expect(() => winEraseCommands({ ...t7, sizeBytes: FAT32_MAX_BYTES + 1 }, 'fat32', 'DISKDIAL')).toThrow(/32 GB/);
    expect(() => winEraseCommands(t7, 'apfs', 'DISKDIAL')).toThrow(/not a Windows format/);
  });
});

describe('the provider', () => {
  function fakeWindows(caption = 'Microsoft Windows 11 Pro for Workstations') {
    const queries: string[][] = [];
    const ran: Command[] = [];
    const answers: [string, string][] = [
      [WIN_GET_DISK, DISKS],
      [WIN_GET_PARTITION, PARTITIONS],
      [WIN_GET_VOLUME, VOLUMES],
      [WIN_PROBE, JSON.stringify({ Caption: caption, EnableBitLocker: true, ManageBde: true })],
    ];
    const exec = async (argv: string[]): Promise<string> => {
      queries.push(argv);
      const hit = answers.find(([s]) => argv.at(-1) === `$ErrorActionPreference = 'Stop'; ${s}`);
      if (!hit || argv.slice(0, 4).join(' ') !== PS.join(' ')) throw new Error(`unexpected query ${argv.join(' ')}`);
      return hit[1];
    };
    const run = async (cmd: Command) => {
      ran.push(cmd);
      return { stdout: cmd.argv.at(-1)!.includes('New-Partition') ? fixture('win-new-partition.json') : '', stderr: '' };
    };
    return { exec, run, queries, ran };
  }

  it('lists disks and formats through PowerShell', async () => {
    const win = fakeWindows();
    const p = createWinProvider(win.exec);
    expect((await p.listDisks()).map((d) => [d.number, d.offered])).toEqual([
      [0, false],
      [1, true],
      [2, false],
      [3, true],
    ]);
    expect((await p.listDisks({ includeInternal: true }))[2]!.offered).toBe(true);
    expect((await p.formats()).every((f) => f.available)).toBe(true);
    expect((await p.formatsFor({ sizeBytes: 1e12 })).find((f) => f.id === 'fat32')!.available).toBe(false);
  });

  it('prepares NTFS: runs the steps in order, takes the drive letter from New-Partition', async () => {
    const win = fakeWindows();
    const p = createWinProvider(win.exec);
    const disk = (await p.listDisks()).find((d) => d.number === 1)!;
    const vol = await p.prepare(disk, 'ntfs', { label: 'DISKDIAL', run: win.run, workDir: 'C:\\w' });
    expect(vol).toMatchObject({ testPath: 'F:\\', mountPoint: 'F:\\', partition: 'F:' });
    expect(vol.passphrase).toBeUndefined();
    expect(win.ran.map((c) => c.argv)).toEqual(winEraseCommands(disk, 'ntfs', 'DISKDIAL').map((c) => c.argv));
    await vol.release();
    expect(win.ran).toHaveLength(4);
  });

  it('prepares NTFS with BitLocker: the generated password goes only to stdin, and comes back', async () => {
    const win = fakeWindows();
    const p = createWinProvider(win.exec, { newPassphrase: () => 'generated-BitLocker-pw' });
    const disk = (await p.listDisks()).find((d) => d.number === 1)!;
    const vol = await p.prepare(disk, 'ntfs-bitlocker', { label: 'DISKDIAL', run: win.run, workDir: 'C:\\w' });
    expect(vol.passphrase).toBe('generated-BitLocker-pw');
    expect(win.ran).toHaveLength(5);
    expect(win.ran[4]!.stdin).toBe('generated-BitLocker-pw');
    const everyArg = [...win.ran.map((c) => c.argv), ...win.queries].flat();
    expect(everyArg.some((a) => a.includes('generated-BitLocker'))).toBe(false);
  });

  it('refuses, before running anything, what this machine or disk cannot make', async () => {
    const win = fakeWindows('Microsoft Windows 11 Pro');
    const p = createWinProvider(win.exec);
    const disk = (await p.listDisks()).find((d) => d.number === 1)!;
    await expect(p.prepare(disk, 'refs', { label: 'DISKDIAL', run: win.run, workDir: 'C:\\w' })).rejects.toThrow(
      /ReFS cannot be made here: This Windows edition \(Microsoft Windows 11 Pro\)/,
    );
    await expect(p.prepare(disk, 'fat32', { label: 'DISKDIAL', run: win.run, workDir: 'C:\\w' })).rejects.toThrow(/32 GB/);
    await expect(p.prepare(disk, 'ntfs', { label: '$(x)', run: win.run, workDir: 'C:\\w' })).rejects.toThrow(/not allowed/);
    expect(win.ran).toEqual([]);
  });

  it('fails plainly when New-Partition assigned no drive letter', async () => {
    const win = fakeWindows();
    const run = async (cmd: Command) => {
      win.ran.push(cmd);
      return {
        stdout: cmd.argv.at(-1)!.includes('New-Partition')
          ? '{"DiskNumber": 1, "PartitionNumber": 2, "DriveLetter": "\\u0000", "Size": 5, "Type": "Basic"}'
          : '',
        stderr: '',
      };
    };
    const disk = (await createWinProvider(win.exec).listDisks()).find((d) => d.number === 1)!;
    // the format step itself throws on Windows; here the fake runner does not, so prepare() must
    await expect(createWinProvider(win.exec).prepare(disk, 'ntfs', { label: 'DISKDIAL', run, workDir: 'C:\\w' })).rejects.toThrow(
      /no drive letter/,
    );
  });
});
