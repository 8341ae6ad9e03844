// `diskdial disks`, `compare` and `report` as a user runs them (the compiled bin/diskdial.js), on
// a disk image attached as a loop device (root), with a history of their own ($DISKDIAL_HOME).
import { markdownTableLines } from '../../helpers/markdown.js';
import { execFileSync, spawn } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WizardDisk, WizardPlanState } from '../../../app/src/model/wizard/types.js';
import { rootOnly } from '../../helpers/loopfs.js';
import type { HistoryListing } from '../../../app/src/model/history.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { bin, runCli, type CliRun } from '../../helpers/cli.js';
import { stoppedPlan, wizardSettings } from '../../helpers/wizard-plans.js';

let tmp: string;
let home: string;
let loop = '';

beforeAll(async () => {
  buildCoreIfChanged();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-cli-wizard-'));
  home = path.join(tmp, 'home');
});
afterAll(async () => {
  if (loop) execFileSync('losetup', ['-d', loop]);
  await fsp.rm(tmp, { recursive: true, force: true });
});

const cli = (...args: string[]): CliRun => runCli(args, { cwd: tmp, home, timeout: 120_000 });

describe('compare: usage mistakes, before any disk is touched', () => {
  it('answers with one line and exit 2', () => {
    const cases: Array<[string[], string]> = [
      [
        ['compare', '--device', '/dev/sdz', '--formats', 'ext4'],
        "--confirm NAME is required: the disk's name as `diskdial disks` shows it; nothing is erased without it",
      ],
      [
        ['compare', '--formats', 'ext4', '--confirm', 'x'],
        '--device is required: the whole disk to erase, e.g. --device /dev/sdb (see diskdial disks)',
      ],
      [
        ['compare', '--device', '/dev/sdz', '--formats', 'ext4,zfs', '--confirm', 'x'],
        'unknown format "zfs"; formats: ext4, ext4-fscrypt, ext4-luks, xfs, btrfs, exfat, ntfs, fat32, apfs, apfs-encrypted, apfs-cs, apfs-cs-encrypted, hfs+, hfs+-cs, refs, ntfs-bitlocker',
      ],
      [
        ['compare', '--device', '/dev/sdz', '--formats', 'ext4', '--confirm', 'x', '--plan', 'cdm', '--size', '1GB'],
        '--size applies to the quick, write and hash plans only',
      ],
      [['compare', '--device', '/dev/sdz', '--formats', 'ext4', '--confirm', 'x', '--runs', '0'], '--runs: must be at least 1'],
      [
        ['compare', '--device', '/dev/sdz', '--formats', 'ext4', '--confirm', 'x', '--label', 'a b;c'],
        '--label: must be 1–11 letters, digits, - or _',
      ],
      [['compare', '--device', '/dev/sdz', '--formats', 'ext4', '--confirm', 'x'], '/dev/sdz is not a whole disk (see diskdial disks)'],
      [['report'], 'report needs results: ids from diskdial history, or exported .json files'],
    ];
    for (const [args, message] of cases) {
      const r = cli(...args);
      expect({ args, status: r.status, stderr: r.stderr }).toEqual({ args, status: 2, stderr: `diskdial: ${message}\n` });
    }
  });
});

describe.runIf(rootOnly())('compare on a disk image (root)', () => {
  beforeAll(async () => {
    const img = path.join(tmp, 'disk.img');
    execFileSync('truncate', ['-s', '640M', img]);
    loop = execFileSync('losetup', ['--find', '--partscan', '--direct-io=on', '--show', img], { encoding: 'utf8' }).trim();
  });

  it('disks lists the image as erasable and the system disk as not, with the formats', () => {
    const r = cli('disks', '--json');
    expect(r.status).toBe(0);
    const { disks, formats } = JSON.parse(r.stdout) as { disks: WizardDisk[]; formats: Array<{ id: string; available: boolean }> };
    expect(disks.find((d) => d.path === loop)).toMatchObject({
      name: path.basename(loop),
      bus: 'loop',
      offered: true,
      backingFile: path.join(tmp, 'disk.img'),
    });
    expect(disks.find((d) => d.system)).toMatchObject({ offered: false });
    expect(formats.filter((f) => f.available).map((f) => f.id)).toEqual(
      expect.arrayContaining(['ext4', 'xfs', 'btrfs', 'exfat', 'ntfs', 'ext4-fscrypt']),
    );
    expect(cli('disks').stdout).toMatch(new RegExp(`^${loop}\\s+${path.basename(loop)}\\s+.*can be erased$`, 'm'));
  });

  it('a wrong name erases nothing', () => {
    const r = cli('compare', '--device', loop, '--formats', 'ext4', '--confirm', 'Loop0', '--runs', '1', '--rest', '0');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`diskdial: The name typed ("Loop0") is not the disk's name ("${path.basename(loop)}"): nothing was erased.\n`);
  });

  it('runs three formats, prints the report table, writes the HTML, and every result is in history', async () => {
    const html = path.join(tmp, 'report.html');
    const r = cli(
      'compare',
      '--device',
      loop,
      '--formats',
      'ext4,xfs,btrfs',
      '--size',
      '16MiB,32MiB',
      '--runs',
      '2',
      '--rest',
      '0',
      '--confirm',
      path.basename(loop),
      '--report',
      html,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^## ext4 vs XFS vs Btrfs on /);
    const table = markdownTableLines(r.stdout);
    expect(table[0]).toBe('| Format | Read 16 MiB (MB/s) | Write 16 MiB (MB/s) | Read 32 MiB (MB/s) | Write 32 MiB (MB/s) |');
    expect(table.slice(2).map((l) => l.split('|')[1]!.trim())).toEqual(['ext4 (baseline)', 'XFS', 'Btrfs']);
    expect(r.stderr).toContain('[2/3] XFS: Erasing');
    expect(r.stderr).toContain('[final] ext4: Leaving');
    expect(await fsp.readFile(html, 'utf8')).toMatch(/<svg/);
    const listing = JSON.parse(cli('history', '--json').stdout) as HistoryListing;
    expect(listing.entries.map((e) => e.name).sort()).toEqual(
      ['Btrfs · 16 MiB', 'Btrfs · 32 MiB', 'XFS · 16 MiB', 'XFS · 32 MiB', 'ext4 · 16 MiB', 'ext4 · 32 MiB'].sort(),
    );
    // The same report again from history, by id: `diskdial report`.
    const again = cli('report', ...listing.entries.map((e) => e.id.slice(0, 8)), '--baseline', 'xfs');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('| XFS (baseline) |');
    expect(execFileSync('blkid', ['-p', '-o', 'value', '-s', 'TYPE', `${loop}p1`], { encoding: 'utf8' }).trim()).toBe('ext4');
  }, 120_000);

  it('resuming a plan whose disk has a weak identity shows the disk there now and asks for --confirm again', async () => {
    // A plan as a crash before its first erase leaves it: no serial, no WWN, no table DiskDial wrote.
    const disk = (JSON.parse(cli('disks', '--json').stdout) as { disks: WizardDisk[] }).disks.find((d) => d.path === loop)!;
    const id = '5e1f0000-0000-4000-8000-00000000000a';
    const settings = wizardSettings({
      device: loop,
      identity: {
        path: loop,
        sizeBytes: disk.sizeBytes,
        ...(disk.backingFile ? { backingFile: disk.backingFile } : {}),
        ...(disk.backingInode ? { backingInode: disk.backingInode } : {}),
      },
      confirmName: disk.name,
    });
    const plan = stoppedPlan(settings, { id, createdAt: '2026-11-26T07:00:00.000Z', updatedAt: '2026-11-26T07:00:00.000Z' });
    await fsp.mkdir(path.join(home, 'plans'), { recursive: true });
    await fsp.writeFile(path.join(home, 'plans', `${id}.json`), JSON.stringify(plan));
    const refused = cli('compare', '--resume', id);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`Resuming plan ${id} on ${loop}. The disk there now:`);
    expect(refused.stderr).toMatch(new RegExp(`^${loop}\\s+${disk.name}\\s+.*can be erased$`, 'm'));
    expect(refused.stderr).toContain(`image ${disk.backingFile}`);
    expect(refused.stderr).toContain('It has no serial number, no WWN and no partition table DiskDial wrote');
    expect(refused.stderr).toMatch(
      new RegExp(
        `diskdial: this disk's identity is weak: check the disk above is the one you mean, then resume with --confirm "${disk.name}"\n$`,
      ),
    );
    const resumed = cli('compare', '--resume', id, '--confirm', disk.name);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(JSON.parse(cli('compare', '--plans', '--json').stdout)).toEqual([]);
  }, 120_000);

  it('Ctrl-C stops after unmounting; --plans lists it; --resume finishes it', async () => {
    const child = spawn(
      process.execPath,
      [
        bin,
        'compare',
        '--device',
        loop,
        '--formats',
        'xfs,ext4',
        '--size',
        '256MiB',
        '--runs',
        '3',
        '--rest',
        '0',
        '--confirm',
        path.basename(loop),
      ],
      {
        cwd: tmp,
        env: { ...process.env, DISKDIAL_HOME: home },
      },
    );
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (err.includes('XFS: done')) {
          clearInterval(check);
          resolve();
        }
      }, 20);
    });
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(130);
    expect(err).toMatch(/stopped; finished formats are saved\. Resume with: diskdial compare --resume (\S+) --confirm/);
    expect(readFileSync('/proc/self/mounts', 'utf8')).not.toContain(loop);
    const plans = JSON.parse(cli('compare', '--plans', '--json').stdout) as WizardPlanState[];
    expect(plans).toHaveLength(1);
    expect(plans[0]!.steps.map((s) => s.status)).toEqual(['done', 'pending']);
    // The plan wrote its partition table: a unique identity, so no name is needed to go on.
    const resumed = cli('compare', '--resume', plans[0]!.id);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(
      /Identified by the id of the partition table DiskDial wrote \([0-9a-f-]{36}\)\. Before each erase the disk must still carry that partition table\./,
    );
    expect(resumed.stdout).toMatch(/^## XFS vs ext4 on /);
    expect(JSON.parse(cli('compare', '--plans', '--json').stdout)).toEqual([]);
  }, 120_000);
});
