// `diskdial run --test quick --video`: a real Quick Test on this machine's disk, then "Will it
// work?" on the terminal — aligned, ✓/✗ judged from the speeds the same run printed, the rate
// each format needs, and how it was decided — and as `willItWork` in --json.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../app/src/model/result.js';
import type { WillItWork } from '../../../app/src/model/kinds/video/will-it-work.js';
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
        new RegExp(
          `^${fam.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s+Res\\s+Needs w/ margin MB/s\\s+Write\\s+Read\\s+Write fps\\s+Read fps$`,
          'm',
        ),
      );
    const row = /^ProRes 422 HQ\s+UHD\s+(\S+)\s+(✓|✗|\?)\s+(✓|✗|\?)\s+([\d,]+|> 120)\s+([\d,]+|> 120)$/m.exec(out)!;
    expect(row).not.toBeNull();
    expect(row[1]).toBe('115');
    // ✓ becomes '?' when this machine's temporary folder is flagged (a cache): never ✗ for ✓.
    const cached = /^The speeds carry warnings \(/m.test(out);
    const mark = (fits: boolean): string => (fits ? (cached ? '?' : '✓') : '✗');
    expect(row[2]).toBe(mark(write >= HQ_UHD_25 / 0.8));
    expect(row[3]).toBe(mark(read >= HQ_UHD_25 / 0.8));
    // How fast: the highest whole frame rate 80 % of the speed carries (the printed speed is rounded
    // to 0.1), or "> 120" above the highest rate the table offers.
    const fastest = (write * 0.8 * 25) / HQ_UHD_25;
    if (row[4] === '> 120') expect(fastest).toBeGreaterThan(119);
    else expect(Math.abs(Number(row[4]!.replace(/,/g, '')) - fastest)).toBeLessThan(2);
    expect(out).toMatch(/measured speed \(the mean of the runs\).*with a 20 % margin.*a paced test checks frame by frame/);
    // Aligned: in every family's block, each ✓/✗ sits under its column's header.
    for (const block of out.split('\n\n').filter((b) => /^\S.*\s+Res\s+Needs w\/ margin MB\/s/.test(b))) {
      const [head, , ...lines] = block.split('\n');
      const at = head!.indexOf('Write  ');
      expect(at).toBeGreaterThan(0);
      for (const l of lines) expect(l[at], l).toMatch(/[✓✗?]/);
    }
  });

  it('--json adds willItWork to the one document it prints', () => {
    const r = cli('run', tmp, '--test', 'quick', '--size', '16MiB', '--video', '--json', '--no-save');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as ResultDocument & { willItWork: WillItWork };
    const w = doc.willItWork;
    expect(w).toMatchObject({ decidedBy: 'average', fps: 29.97, margin: 0.2 });
    expect(w.sustainedMBps.write).toBe(doc.tests.find((t) => t.rw === 'write')!.mbps);
    expect(w.sustainedMBps.read).toBe(doc.tests.find((t) => t.rw === 'read')!.mbps);
    expect(w.rows.length).toBeGreaterThan(80);
    // The mark agrees with the two figures printed: ✗ exactly when the measured mean is below the
    // need with the margin (✓ may be '?' under a cache flag, never ✗).
    for (const row of w.rows) expect(row.write.outcome === 'fail').toBe(w.sustainedMBps.write + 1e-9 < row.needsMBps);
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

  it('refuses a frame rate it does not know; the report takes --fps for its Will it work? grid', () => {
    expect(cli('export', quickFile, '--format', 'md', '--fps', '31')).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/--fps: 31 fps is not one/),
    });
    expect(cli('report', quickFile, '--fps', '25')).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('### Will it work? At 25 fps'),
    });
    expect(cli('report', quickFile, '--fps', '31')).toMatchObject({ status: 2, stderr: expect.stringMatching(/--fps: 31 fps is not one/) });
  });

  it('a saved frame-paced test of this folder, not launched from the new Quick Test, is a dated line that decides no row', () => {
    const home = path.join(tmp, 'home-paced');
    const run = (...args: string[]): CliRun => runCli(args, { cwd: tmp, home, timeout: 120_000 });
    const paced = run('run', tmp, '--test', 'video', '--format', 'prores-proxy-hd-25', '--seconds', '2', '--json');
    expect(paced.status).toBe(0);
    const pacedDoc = JSON.parse(paced.stdout) as ResultDocument;
    const r = run('run', tmp, '--test', 'quick', '--size', '16MiB', '--video', '--fps', '25', '--no-save');
    expect(r.status).toBe(0);
    const line = r.stdout.split('\n').find((l) => /^ProRes 422 Proxy\s+HD\s/.test(l))!;
    expect(line).not.toMatch(/†/);
    expect(r.stdout).toContain(
      `frame-paced test on this drive, ${pacedDoc.startedAt.slice(0, 10)}, not launched from this result (decides nothing here): ProRes 422 Proxy HD 25 fps: `,
    );
    const json = run('run', tmp, '--test', 'quick', '--size', '16MiB', '--video', '--fps', '25', '--no-save', '--json');
    const table = (JSON.parse(json.stdout) as { willItWork: WillItWork }).willItWork;
    expect(table.rows.filter((row) => row.paced)).toEqual([]);
    expect(table.pacedLines.map((l) => l.resultId)).toEqual([pacedDoc.id]);
  }, 240_000);
});
