// The wizard's macOS provider against fixtures shaped like diskutil's real output
// (test/fixtures/wizard/README.md): the plist reader, which disks are offered and why, the exact
// diskutil argv for every format, and prepare() end to end with a fake runner.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import {
  createDarwinProvider,
  DARWIN_SYSTEM_REASON,
  darwinDisks,
  darwinEncryptCommands,
  darwinEraseCommands,
  darwinFormats,
  darwinSystemDisks,
  INTERNAL_REASON,
  parseDiskutilInfo,
  parseDiskutilList,
} from '../../../../app/src/core/wizard/darwin.js';
import { parsePlist, PlistError } from '../../../../app/src/core/wizard/plist.js';
import type { Command } from '../../../../app/src/core/wizard/provider.js';
import type { FormatId, WizardDisk } from '../../../../app/src/model/wizard/types.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/wizard');
const fixture = (name: string): string => readFileSync(path.join(fixtures, name), 'utf8');

const LIST = fixture('darwin-list.plist');
const ROOT = fixture('darwin-info-root.plist');
const INFOS: Record<string, string> = {
  disk0: fixture('darwin-info-disk0.plist'),
  disk4: fixture('darwin-info-disk4.plist'),
  disk6: fixture('darwin-info-disk6.plist'),
};
const wrap = (body: string): string => `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n${body}\n</plist>\n`;

describe('plist reader', () => {
  it('reads every value type, entities and nesting', () => {
    const v = parsePlist(
      wrap(`<dict>
        <key>Name</key><string>Tom &amp; Jerry &lt;3 &#x41;&#66; &quot;q&quot;</string>
        <key>Nested</key><array><array><integer>1</integer><integer>-2</integer></array><array/></array>
        <key>Yes</key><true/>
        <key>No</key><false/>
        <key>Empty</key><dict/>
        <key>EmptyString</key><string/>
        <key>Real</key><real>1.5e3</real>
        <key>Big</key><integer>18446744073709551615</integer>
        <key>Hex</key><integer>0x10</integer>
        <key>Data</key><data>
          aGVs
          bG8=
        </data>
        <key>When</key><date>2024-05-01T12:00:00Z</date>
        <!-- a comment -->
        <key>CData</key><string><![CDATA[<raw & text>]]></string>
      </dict>`),
    );
    expect(v).toEqual({
      Name: 'Tom & Jerry <3 AB "q"',
      Nested: [[1, -2], []],
      Yes: true,
      No: false,
      Empty: {},
      EmptyString: '',
      Real: 1500,
      Big: 18446744073709551615n,
      Hex: 16,
      Data: new Uint8Array(Buffer.from('hello')),
      When: new Date('2024-05-01T12:00:00Z'),
      CData: '<raw & text>',
    });
  });

  it('treats __proto__ as an ordinary key', () => {
    const v = parsePlist(wrap('<dict><key>__proto__</key><string>x</string></dict>')) as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(v, '__proto__')?.value).toBe('x');
    expect(Object.getPrototypeOf(v)).toBeNull();
  });

  it.each([
    ['empty input', ''],
    ['not XML', 'garbage'],
    ['no <plist>', '<dict/>'],
    ['an unclosed dict', wrap('<dict><key>A</key><true/>')],
    ['a key without a value', wrap('<dict><key>A</key></dict>')],
    ['a value without a key', wrap('<dict><string>x</string></dict>')],
    ['a duplicate key', wrap('<dict><key>A</key><true/><key>A</key><false/></dict>')],
    ['an unknown element', wrap('<dict><key>A</key><bogus/></dict>')],
    ['an unknown entity', wrap('<string>a &nbsp; b</string>')],
    ['a bare ampersand', wrap('<string>a & b</string>')],
    ['a bad integer', wrap('<integer>12abc</integer>')],
    ['a bad real', wrap('<real>one</real>')],
    ['bad base64', wrap('<data>!!!</data>')],
    ['a bad date', wrap('<date>yesterday</date>')],
    ['mismatched tags', wrap('<array><string>x</array></string>')],
    ['two roots', wrap('<dict/><dict/>')],
    ['text after </plist>', `${wrap('<dict/>')}trailing`],
    ['an empty <plist>', '<plist version="1.0"></plist>'],
    ['nesting without bound', wrap(`${'<array>'.repeat(80)}${'</array>'.repeat(80)}`)],
  ])('rejects %s', (_what, xml) => {
    expect(() => parsePlist(xml)).toThrow(PlistError);
  });

  it('says where the problem is', () => {
    expect(() => parsePlist(wrap('<dict>\n<key>A</key>\n<strin>x</strin></dict>'))).toThrow(/unknown element <strin>.*line 5/);
  });
});

describe('diskutil parsers', () => {
  it('reads the list: whole disks, partitions, synthesized containers', () => {
    const list = parseDiskutilList(LIST);
    expect(list.wholeDisks).toEqual(['disk0', 'disk1', 'disk2', 'disk3', 'disk4', 'disk5', 'disk6']);
    const disk3 = list.disks.find((d) => d.id === 'disk3')!;
    expect(disk3.apfsPhysicalStores).toEqual(['disk0s2']);
    expect(disk3.apfsVolumes.map((v) => v.volumeName)).toContain('Macintosh HD - Data');
    const disk4 = list.disks.find((d) => d.id === 'disk4')!;
    expect(disk4.partitions.map((p) => [p.id, p.content])).toEqual([
      ['disk4s1', 'EFI'],
      ['disk4s2', 'Apple_APFS'],
    ]);
  });

  it('reads info for a disk and for /', () => {
    expect(parseDiskutilInfo(INFOS.disk4!)).toMatchObject({
      id: 'disk4',
      wholeDisk: true,
      busProtocol: 'USB',
      internal: false,
      ejectable: true,
      removableMediaOrExternal: true,
      mediaName: 'Samsung PSSD T7 Media',
      sizeBytes: 1000204886016,
    });
    const root = parseDiskutilInfo(ROOT);
    expect(root).toMatchObject({
      id: 'disk3s1s1',
      mountPoint: '/',
      parentWholeDisk: 'disk3',
      apfsContainerReference: 'disk3',
      apfsPhysicalStores: ['disk0s2'],
    });
  });

  it("turns diskutil's error plist into an error", () => {
    const err = wrap(
      '<dict><key>Error</key><true/><key>ErrorMessage</key><string>Could not find disk: /Volumes/SMB</string><key>ExitCode</key><integer>1</integer></dict>',
    );
    expect(() => parseDiskutilInfo(err)).toThrow('diskutil: Could not find disk: /Volumes/SMB');
  });

  it('finds the disks behind / : the synthesized container and its physical store', () => {
    expect(darwinSystemDisks(ROOT, LIST).sort()).toEqual(['disk0', 'disk3']);
  });
});

describe('the disks the wizard shows', () => {
  const disks = darwinDisks(LIST, INFOS, darwinSystemDisks(ROOT, LIST));
  const byPath = (p: string): WizardDisk => disks.find((d) => d.path === p)!;

  it('lists physical whole disks only (no synthesized containers)', () => {
    expect(disks.map((d) => d.path)).toEqual(['/dev/disk0', '/dev/disk4', '/dev/disk6']);
  });

  it('never offers the disk holding macOS', () => {
    expect(byPath('/dev/disk0')).toMatchObject({
      system: true,
      internal: true,
      offered: false,
      reason: DARWIN_SYSTEM_REASON,
      bus: 'apple-fabric',
      name: 'APPLE SSD AP0512Z',
    });
    // …not even behind the advanced switch
    expect(darwinDisks(LIST, INFOS, ['disk0', 'disk3'], { includeInternal: true })[0]).toMatchObject({
      offered: false,
      reason: DARWIN_SYSTEM_REASON,
    });
  });

  it('offers an internal non-system disk only behind the advanced switch', () => {
    const plain = darwinDisks(LIST, INFOS, [])[0]!;
    expect(plain).toMatchObject({ path: '/dev/disk0', internal: true, system: false, offered: false, reason: INTERNAL_REASON });
    expect(darwinDisks(LIST, INFOS, [], { includeInternal: true })[0]).toMatchObject({ offered: true });
  });

  it('offers the USB disk, with its volumes under it', () => {
    const t7 = byPath('/dev/disk4');
    expect(t7).toMatchObject({
      name: 'Samsung PSSD T7',
      model: 'Samsung PSSD T7',
      bus: 'usb',
      internal: false,
      system: false,
      offered: true,
      sizeBytes: 1000204886016,
    });
    expect(t7.reason).toBeUndefined();
    expect(t7.partitions.map((p) => [p.path, p.fs, p.label, p.mountpoints])).toEqual([
      ['/dev/disk4s1', 'EFI', 'EFI', []],
      ['/dev/disk4s2', 'Apple_APFS', undefined, []],
      ['/dev/disk5s1', 'apfs', 'T7', ['/Volumes/T7']],
    ]);
  });

  it('offers a disk image as bus disk-image, named by its device', () => {
    expect(byPath('/dev/disk6')).toMatchObject({
      bus: 'disk-image',
      name: 'disk6',
      model: 'Apple UDIF read-write',
      removable: true,
      internal: false,
      offered: true,
    });
    expect(byPath('/dev/disk6').partitions[0]).toMatchObject({
      fs: 'Microsoft Basic Data',
      label: 'SCRATCH',
      mountpoints: ['/Volumes/SCRATCH'],
    });
  });

  it('does not offer a disk it knows nothing about', () => {
    const d = darwinDisks(LIST, { disk0: INFOS.disk0!, disk4: INFOS.disk4! }, ['disk0']).find((x) => x.path === '/dev/disk6')!;
    expect(d).toMatchObject({ offered: false, internal: true });
    expect(d.reason).toMatch(/diskutil info/);
    expect(DARWIN_SYSTEM_REASON).toMatch(/holds macOS \(\/\)/);
  });
});

describe('formats and commands', () => {
  const t7 = { path: '/dev/disk4' };

  it('names the formats as Disk Utility does', () => {
    expect(darwinFormats().map((f) => [f.id, f.label, f.encrypted, f.available])).toEqual([
      ['apfs', 'APFS', false, true],
      ['apfs-encrypted', 'APFS (Encrypted)', true, true],
      ['apfs-cs', 'APFS (Case-sensitive)', false, true],
      ['apfs-cs-encrypted', 'APFS (Case-sensitive, Encrypted)', true, true],
      ['hfs+', 'Mac OS Extended (Journaled)', false, true],
      ['hfs+-cs', 'Mac OS Extended (Case-sensitive, Journaled)', false, true],
      ['exfat', 'ExFAT', false, true],
      ['fat32', 'MS-DOS (FAT32)', false, true],
    ]);
  });

  it.each<[FormatId, string[]]>([
    ['apfs', ['diskutil', 'eraseDisk', 'APFS', 'DiskDial', 'GPT', '/dev/disk4']],
    ['apfs-encrypted', ['diskutil', 'eraseDisk', 'APFS', 'DiskDial', 'GPT', '/dev/disk4']],
    ['apfs-cs', ['diskutil', 'eraseDisk', 'Case-sensitive APFS', 'DiskDial', 'GPT', '/dev/disk4']],
    ['apfs-cs-encrypted', ['diskutil', 'eraseDisk', 'Case-sensitive APFS', 'DiskDial', 'GPT', '/dev/disk4']],
    ['hfs+', ['diskutil', 'eraseDisk', 'JHFS+', 'DiskDial', 'GPT', '/dev/disk4']],
    ['hfs+-cs', ['diskutil', 'eraseDisk', 'JHFSX', 'DiskDial', 'GPT', '/dev/disk4']],
    ['exfat', ['diskutil', 'eraseDisk', 'ExFAT', 'DiskDial', 'GPT', '/dev/disk4']],
    ['fat32', ['diskutil', 'eraseDisk', 'FAT32', 'DISKDIAL', 'MBR', '/dev/disk4']],
  ])('%s erases with exactly one eraseDisk', (format, argv) => {
    expect(darwinEraseCommands(t7, format, 'DiskDial')).toEqual([{ argv, privileged: false, why: expect.stringContaining('/dev/disk4') }]);
  });

  it.each<[FormatId, string]>([
    ['apfs-encrypted', 'APFS'],
    ['apfs-cs-encrypted', 'Case-sensitive APFS'],
  ])('%s swaps the volume for an encrypted one, passphrase on stdin only', (format, personality) => {
    const cmds = darwinEncryptCommands('disk5', 'disk5s1', format, 'DISKDIAL', 's3cret-pass');
    expect(cmds.map((c) => [c.argv, c.privileged, c.stdin])).toEqual([
      [['diskutil', 'apfs', 'deleteVolume', 'disk5s1'], false, undefined],
      [['diskutil', 'apfs', 'addVolume', 'disk5', personality, 'DISKDIAL', '-stdinpassphrase'], false, 's3cret-pass'],
    ]);
    for (const c of cmds) expect(c.argv.some((a) => a.includes('s3cret'))).toBe(false);
  });

  it('refuses unsafe or overlong names, other platforms’ formats and non-disks', () => {
    for (const bad of ['a;rm -rf /', '$(x)', 'a b', '', '-nomount', 'x'.repeat(64)]) {
      expect(() => darwinEraseCommands(t7, 'apfs', bad), bad).toThrow(/not allowed/);
    }
    expect(() => darwinEraseCommands(t7, 'fat32', 'TWELVECHARSX')).toThrow(/1–11/);
    expect(() => darwinEraseCommands(t7, 'exfat', 'TWELVECHARSX')).toThrow(/1–11/);
    expect(darwinEraseCommands(t7, 'apfs', 'TWELVECHARSX')[0]!.argv[3]).toBe('TWELVECHARSX');
    expect(() => darwinEraseCommands(t7, 'ext4', 'DISKDIAL')).toThrow(/not a macOS format/);
    expect(() => darwinEraseCommands({ path: '/dev/disk4s2' }, 'apfs', 'DISKDIAL')).toThrow(/whole disk/);
    expect(() => darwinEraseCommands({ path: '/dev/disk4; reboot' }, 'apfs', 'DISKDIAL')).toThrow(/whole disk/);
    expect(() => darwinEncryptCommands('disk5', 'disk5s1', 'apfs', 'DISKDIAL', 'x')).toThrow(/not an encrypted/);
    expect(() => darwinEncryptCommands('disk5', 'disk5s1', 'apfs-encrypted', 'DISKDIAL', '')).toThrow(/passphrase/);
    expect(() => darwinEncryptCommands('disk5 -x', 'disk5s1', 'apfs-encrypted', 'DISKDIAL', 'p')).toThrow(/container/);
  });
});

describe('the provider', () => {
  /** A fake Mac: answers diskutil queries from the fixtures and records every command run. */
  function fakeMac(infoOverrides: Record<string, string> = {}) {
    const queries: string[][] = [];
    const ran: Command[] = [];
    const infos: Record<string, string> = { '/': ROOT, ...INFOS, disk5s1: fixture('darwin-info-disk5s1.plist'), ...infoOverrides };
    const exec = async (argv: string[]): Promise<string> => {
      queries.push(argv);
      if (argv.join(' ') === 'diskutil list -plist') return LIST;
      if (argv.slice(0, 3).join(' ') === 'diskutil info -plist' && infos[argv[3]!]) return infos[argv[3]!]!;
      throw new Error(`unexpected query ${argv.join(' ')}`);
    };
    const run = async (cmd: Command) => {
      ran.push(cmd);
      return { stdout: '', stderr: '' };
    };
    return { exec, run, queries, ran };
  }

  it('lists disks through diskutil, argv only', async () => {
    const mac = fakeMac();
    const disks = await createDarwinProvider(mac.exec).listDisks();
    expect(disks.map((d) => [d.path, d.offered])).toEqual([
      ['/dev/disk0', false],
      ['/dev/disk4', true],
      ['/dev/disk6', true],
    ]);
    expect(mac.queries).toEqual([
      ['diskutil', 'list', '-plist'],
      ['diskutil', 'info', '-plist', '/'],
      ['diskutil', 'info', '-plist', 'disk0'],
      ['diskutil', 'info', '-plist', 'disk4'],
      ['diskutil', 'info', '-plist', 'disk6'],
    ]);
  });

  it('offers nothing when it cannot tell which disk holds macOS', async () => {
    const exec = async (argv: string[]): Promise<string> => {
      if (argv.includes('list')) return LIST;
      throw new Error('diskutil info failed');
    };
    await expect(createDarwinProvider(exec).listDisks()).rejects.toThrow();
  });

  it('prepares APFS: erase, find the volume, its mount point; release unmounts the disk', async () => {
    const mac = fakeMac();
    const disk = (await createDarwinProvider(mac.exec).listDisks()).find((d) => d.path === '/dev/disk4')!;
    const vol = await createDarwinProvider(mac.exec).prepare(disk, 'apfs', { label: 'T7', run: mac.run, workDir: '/tmp/w' });
    expect(vol).toMatchObject({ testPath: '/Volumes/T7', mountPoint: '/Volumes/T7', partition: '/dev/disk5s1' });
    expect(vol.passphrase).toBeUndefined();
    expect(mac.ran.map((c) => c.argv)).toEqual([['diskutil', 'eraseDisk', 'APFS', 'T7', 'GPT', '/dev/disk4']]);
    await vol.release();
    expect(mac.ran.at(-1)).toMatchObject({ argv: ['diskutil', 'unmountDisk', '/dev/disk4'], privileged: false });
  });

  it('prepares APFS (Encrypted): erase, delete the plain volume, add an encrypted one — passphrase only on stdin', async () => {
    const mac = fakeMac();
    const provider = createDarwinProvider(mac.exec, { newPassphrase: () => 'generated-passphrase-123' });
    const vol = await provider.prepare({ path: '/dev/disk4' } as WizardDisk, 'apfs-encrypted', {
      label: 'T7',
      run: mac.run,
      workDir: '/tmp/w',
    });
    expect(mac.ran.map((c) => c.argv)).toEqual([
      ['diskutil', 'eraseDisk', 'APFS', 'T7', 'GPT', '/dev/disk4'],
      ['diskutil', 'apfs', 'deleteVolume', 'disk5s1'],
      ['diskutil', 'apfs', 'addVolume', 'disk5', 'APFS', 'T7', '-stdinpassphrase'],
    ]);
    expect(mac.ran[2]!.stdin).toBe('generated-passphrase-123');
    expect(vol).toMatchObject({ testPath: '/Volumes/T7', partition: '/dev/disk5s1', passphrase: 'generated-passphrase-123' });
    const everyArg = [...mac.ran, ...mac.queries.map((argv) => ({ argv }))].flatMap((c) => c.argv);
    expect(everyArg.some((a) => a.includes('generated-passphrase'))).toBe(false);

    // a passphrase given by the caller is used as is
    const mac2 = fakeMac();
    await createDarwinProvider(mac2.exec).prepare({ path: '/dev/disk4' } as WizardDisk, 'apfs-cs-encrypted', {
      label: 'T7',
      run: mac2.run,
      workDir: '/w',
      passphrase: 'mine',
    });
    expect(mac2.ran[2]).toMatchObject({
      argv: ['diskutil', 'apfs', 'addVolume', 'disk5', 'Case-sensitive APFS', 'T7', '-stdinpassphrase'],
      stdin: 'mine',
    });
  });

  it('mounts the volume when the erase left it unmounted', async () => {
    const unmounted = fixture('darwin-info-disk5s1.plist').replace('<string>/Volumes/T7</string>', '<string></string>');
    let mounted = false;
    const mac = fakeMac();
    const exec = async (argv: string[]): Promise<string> => (argv[3] === 'disk5s1' && !mounted ? unmounted : mac.exec(argv));
    const run = async (cmd: Command) => {
      if (cmd.argv[1] === 'mount') mounted = true;
      return mac.run(cmd);
    };
    const vol = await createDarwinProvider(exec).prepare({ path: '/dev/disk4' } as WizardDisk, 'apfs', { label: 'T7', run, workDir: '/w' });
    expect(mac.ran.map((c) => c.argv.slice(0, 3))).toEqual([
      ['diskutil', 'eraseDisk', 'APFS'],
      ['diskutil', 'mount', 'disk5s1'],
    ]);
    expect(vol.mountPoint).toBe('/Volumes/T7');
  });

  it('stops before running anything when the label or disk is unsafe', async () => {
    const mac = fakeMac();
    const p = createDarwinProvider(mac.exec);
    await expect(p.prepare({ path: '/dev/disk4' } as WizardDisk, 'apfs', { label: '$(x)', run: mac.run, workDir: '/w' })).rejects.toThrow(
      /not allowed/,
    );
    await expect(p.prepare({ path: '/dev/disk0s2' } as WizardDisk, 'apfs', { label: 'OK', run: mac.run, workDir: '/w' })).rejects.toThrow(
      /whole disk/,
    );
    expect(mac.ran).toEqual([]);
  });
});
