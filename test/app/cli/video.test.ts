// `diskdial run --test quick --video`: a real Quick Test on this machine's disk, then "Will it
// work?" on the terminal — aligned, ✓/✗ judged from the speeds the same run printed, the rate
// each format needs, and how it was decided — and as `willItWork` in --json.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../app/src/model/result.js';
import type { VideoVerdicts } from '../../../app/src/model/video/will-it-work.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { runCli, type CliRun } from '../../helpers/cli.js';

let tmp: string;

beforeAll(async () => {
  buildCoreIfChanged();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-cli-video-'));
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

const cli = (...args: string[]): CliRun => runCli(args, { cwd: tmp, home: path.join(tmp, 'home'), timeout: 60_000 });

// Apple's ProRes 422 HQ UHD figure at 25 fps: 737 Mb/s = 92.125 MB/s; with the 20 % margin, 115.
const HQ_UHD_25 = 737 / 8;

describe('diskdial run --test quick --video', () => {
  it('prints the table after the result at the chosen frame rate, judged from the speeds above it', () => {
    const r = cli('run', tmp, '--test', 'quick', '--size', '16MiB', '--video', '--fps', '25', '--no-save');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = r.stdout;
    const speed = (rw: string): number => Number(new RegExp(`^${rw}\\s+([\\d.]+)`, 'm').exec(out)![1]);
    const [write, read] = [speed('Write'), speed('Read')];
    expect(out.indexOf('Will it work? At 25 fps')).toBeGreaterThan(out.indexOf('Cache mode:'));
    for (const fam of ['ProRes', 'DNxHR', 'Blackmagic RAW', 'H.264 / HEVC', 'Uncompressed'])
      expect(out).toMatch(
        new RegExp(`^${fam.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s+Res\\s+Needs MB/s\\s+Write\\s+Read\\s+Write fps\\s+Read fps$`, 'm'),
      );
    const row = /^ProRes 422 HQ\s+UHD\s+(\S+)\s+(✓|✗)\s+(✓|✗)\s+([\d,]+)\s+([\d,]+)$/m.exec(out)!;
    expect(row).not.toBeNull();
    expect(row[1]).toBe('115');
    expect(row[2]).toBe(write * 0.8 >= HQ_UHD_25 ? '✓' : '✗');
    expect(row[3]).toBe(read * 0.8 >= HQ_UHD_25 ? '✓' : '✗');
    // How fast: the highest whole frame rate 80 % of the speed carries (the printed speed is rounded to 0.1).
    expect(Math.abs(Number(row[4]!.replace(/,/g, '')) - (write * 0.8 * 25) / HQ_UHD_25)).toBeLessThan(2);
    expect(out).toMatch(/average measured speed, keeping a 20 % margin.*a paced test checks frame by frame/);
    // Aligned: in every family's block, each ✓/✗ sits under its column's header.
    for (const block of out.split('\n\n').filter((b) => /^\S.*\s+Res\s+Needs MB\/s/.test(b))) {
      const [head, , ...lines] = block.split('\n');
      const at = head!.indexOf('Write  ');
      expect(at).toBeGreaterThan(0);
      for (const l of lines) expect(l[at], l).toMatch(/[✓✗]/);
    }
  });

  it('--json adds willItWork to the one document it prints', () => {
    const r = cli('run', tmp, '--test', 'quick', '--size', '16MiB', '--video', '--json', '--no-save');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as ResultDocument & { willItWork: VideoVerdicts };
    const w = doc.willItWork;
    expect(w).toMatchObject({ decidedBy: 'average', fps: 29.97, margin: 0.2 });
    expect(w.sustainedMBps.write).toBe(doc.tests.find((t) => t.rw === 'write')!.mbps);
    expect(w.sustainedMBps.read).toBe(doc.tests.find((t) => t.rw === 'read')!.mbps);
    expect(w.rows.length).toBeGreaterThan(80);
    for (const row of w.rows) expect(row.write.ok).toBe(w.sustainedMBps.write * 0.8 + 1e-9 >= row.needsMBps * 0.8);
    // Without --video the document is printed as saved.
    const plain = JSON.parse(cli('run', tmp, '--test', 'quick', '--size', '16MiB', '--json', '--no-save').stdout) as object;
    expect('willItWork' in plain).toBe(false);
  });

  it.each([
    [['--test', 'cdm', '--video'], /--video applies to --test quick only/],
    [['--fps', '25'], /--fps sets the frame rate of the --video table; add --video/],
    [['--video', '--fps', '31'], /--fps: 31 fps is not one of the frame rates the table knows: 23\.98, 24, 25, 29\.97/],
    [['--video', '--fps', 'fast'], /--fps must be a frame rate such as 25 or 29\.97, not "fast"/],
  ])('refuses %j in plain words, exit 2', (args, message) => {
    const r = cli('run', tmp, ...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe('diskdial export --fps', () => {
  const quickFile = path.join(import.meta.dirname, '../../fixtures/results/quick.json');

  it("sets the frame rate of a Quick Test's video section in the export", () => {
    const r = cli('export', quickFile, '--format', 'md', '--fps', '25');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('### Will it work? At 25 fps');
    // 737 Mb/s at 25 fps = 92.1 MB/s, 115 with the margin.
    expect(r.stdout).toMatch(/^\| ProRes 422 HQ \| UHD \| 115 \|/m);
    expect(cli('export', quickFile, '--format', 'md').stdout).toContain('### Will it work? At 29.97 fps');
  });

  it('refuses a frame rate it does not know, and --fps where there is no video table', () => {
    expect(cli('export', quickFile, '--format', 'md', '--fps', '31')).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/--fps: 31 fps is not one/),
    });
    expect(cli('report', quickFile, '--fps', '25')).toMatchObject({
      status: 2,
      stderr: 'diskdial: unknown option --fps; see diskdial --help\n',
    });
  });

  it('a row a saved frame-paced test of this folder decided takes its verdict, marked †, on the terminal and in --json', () => {
    const home = path.join(tmp, 'home-paced');
    const run = (...args: string[]): CliRun => runCli(args, { cwd: tmp, home, timeout: 120_000 });
    const paced = run('run', tmp, '--test', 'video', '--format', 'prores-proxy-hd-25', '--seconds', '2', '--json');
    expect(paced.status).toBe(0);
    const pacedDoc = JSON.parse(paced.stdout) as ResultDocument;
    const r = run('run', tmp, '--test', 'quick', '--size', '16MiB', '--video', '--fps', '25', '--no-save');
    expect(r.status).toBe(0);
    const line = r.stdout.split('\n').find((l) => /^ProRes 422 Proxy\s+HD\s/.test(l))!;
    expect(line).toMatch(/[✓✗]†\s+[✓✗]†/);
    expect(r.stdout).toContain(
      `† ProRes 422 Proxy HD: frame-paced test, ${pacedDoc.startedAt.slice(0, 10)} (${pacedDoc.id.slice(0, 8)}): `,
    );
    const json = run('run', tmp, '--test', 'quick', '--size', '16MiB', '--video', '--fps', '25', '--no-save', '--json');
    const table = (JSON.parse(json.stdout) as { willItWork: VideoVerdicts }).willItWork;
    const rows = table.rows.filter((row) => row.paced);
    expect(rows.map((row) => [row.format, row.resolution, row.paced!.resultId])).toEqual([['ProRes 422 Proxy', 'HD', pacedDoc.id]]);
  }, 240_000);
});
