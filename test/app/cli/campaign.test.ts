// `diskdial campaign` for real: two setups of one loop-mounted ext4 (direct I/O loop), throttled
// with cgroup v1 blkio to 100 MB/s and then, while the campaign waits, to 5 MB/s — as a person
// would swap the cable while DiskDial waits. The CLI runs in the throttle's
// group from the start (no limit yet); the test answers its prompts on stdin. Root only.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignState } from '../../../app/src/model/campaign.js';
import { canThrottle, throttleGroup, type ThrottleGroup } from '../../helpers/blkio.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { bin } from '../../helpers/cli.js';
import { cleanupAllLoopFs, mountFs, rootOnly, type MountedFs } from '../../helpers/loopfs.js';

const THROTTLE_BPS = 20_000_000;
/** The slow setup: well under what even a busy shared disk gives the fast one (CI saw 25 MB/s). */
const SLOW_BPS = 5_000_000;
const FAST_BPS = 100_000_000;
const RUN_ARGS = ['--plan', 'seq-write,seq-read', '--size', '16MiB', '--runs', '3'];

interface Live {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  exit: Promise<number | null>;
}

/** The CLI in `group`, its output gathered as it comes. */
function start(args: string[], home: string, group: ThrottleGroup): Live {
  const child = spawn('sh', ['-c', group.script, process.execPath, bin, ...args], {
    env: { ...process.env, DISKDIAL_HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stderr: () => err, stdout: () => out, exit };
}

/** Waits until stderr has shown `text` `times` times. */
async function prompted(live: Live, text: string, times = 1): Promise<void> {
  await expect.poll(() => live.stderr().split(text).length - 1, { timeout: 120_000, interval: 100 }).toBeGreaterThanOrEqual(times);
}

function campaigns(home: string): CampaignState[] {
  const dir = path.join(home, 'campaigns');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.endsWith('.json'))
        .map((n) => JSON.parse(readFileSync(path.join(dir, n), 'utf8')) as CampaignState)
    : [];
}

describe.runIf(rootOnly() && canThrottle())('diskdial campaign: two setups, the second throttled', () => {
  let fs: MountedFs;
  let home: string;
  let group: ThrottleGroup;

  beforeAll(async () => {
    buildCoreIfChanged();
    home = await mkdtemp(path.join(os.tmpdir(), 'dd-campaign-home-'));
    // The loop device reads its image uncached, so no figure is the host's page cache's (a row
    // with a cache flag is not compared).
    fs = await mountFs('ext4', { sizeMiB: 400, directIo: true });
    group = throttleGroup(fs.device!, 'dd-campaign');
  }, 120_000);

  afterAll(async () => {
    group?.remove();
    await fs?.cleanup();
    await cleanupAllLoopFs();
    await rm(home, { recursive: true, force: true });
  });

  it('waits before each setup, measures the slow one at its throttle and reports it worse: a real change by its 95 % interval', async () => {
    // The first setup is capped too (100 MB/s): a shared machine's disk varies from run to run,
    // and the verdict must rest on the two setups, not on that noise.
    group.set(FAST_BPS);
    const live = start(['campaign', fs.dir, '--setups', 'Free,Throttled', ...RUN_ARGS], home, group);
    await prompted(live, 'Setup 1 of 2: "Free"');
    // Its length before the first question: 4 tests at the estimate's stated rate.
    expect(live.stderr()).toMatch(/4 tests \(2 on each of 2 setups\): about \d+ min of testing at 500 MB\/s/);
    live.child.stdin!.write('\n');
    await prompted(live, 'Setup 2 of 2: "Throttled"');
    // It waits: no test of the second setup starts before the answer.
    expect(live.stderr()).not.toContain('[3/4] Throttled');
    // Each step says what is left of the testing (scaled by the steps done so far).
    expect(live.stderr()).toMatch(/\[2\/4\] Free: seq-read · about \d+ min of testing left/);
    group.set(SLOW_BPS);
    live.child.stdin!.write('\n');
    expect(await live.exit).toBe(0);
    const md = live.stdout();
    expect(md).toContain('## Free vs Throttled on');
    expect(md).toMatch(/\| Setup \| SEQ1M Q8T1 Write \(MB\/s\) \| SEQ1M Q8T1 Read \(MB\/s\) \|/);
    expect(md).toMatch(/\| Free \(baseline\) \|/);
    const figures = (setup: string) =>
      [
        ...md
          .split('\n')
          .find((l) => l.startsWith(`| ${setup} `))!
          .matchAll(/\| ([\d,.]+) ±/g),
      ].map((m) => Number(m[1]!.replace(/,/g, '')));
    const [write, read] = figures('Throttled');
    // The throttled row, each the mean of 3 runs, within ±5 % of its 5 MB/s throttle. Seen on this
    // machine under a load of 3–8 (other test runs): 52 figures of 16 MiB at 5 and 10 MB/s
    // throttles, 0.988–1.001 of the throttle (sd 0.003). Each bound is over 12 sd away: a false
    // failure below 1 in 10^9 per run (normal model), while the disk under the loop device gives
    // 5 MB/s of 1 MiB direct I/O (any disk of this decade does under load).
    for (const x of [write, read]) {
      expect(x! / (SLOW_BPS / 1e6)).toBeGreaterThan(0.95);
      expect(x! / (SLOW_BPS / 1e6)).toBeLessThan(1.05);
    }
    // The free row: at least the 25 MB/s a busy shared CI disk gave (the floor the verdict's error
    // rate below is computed for). No upper bound: 16 MiB passes within blkio's burst allowance, and
    // runs of it under the 100 MB/s cap were seen at up to 2.9× the cap (0.17 s each).
    for (const x of figures('Free (baseline)')) expect(x).toBeGreaterThanOrEqual(25);
    // A real drop on both figures: the 95 % interval of the ratio (Welch's t on the runs' log
    // values, 3 runs each) lies wholly below 0. Ground truth: Free is capped at 100 MB/s and gave at
    // least 25 MB/s on a busy shared CI disk; Throttled is held at 5 MB/s. Over every set of Free
    // runs in [25, 100]³ and Throttled runs in [4.9, 5.1]³ (a grid of 159,885 sets), the interval's
    // upper end stays at or below −6 %: none is inconclusive. It takes two Free runs at 25 with the
    // third at the cap and all three Throttled at the 5.5 allowed above to reach +1 % (2 of 159,885
    // grid sets); drawing Free runs log-uniformly from 25–100 and Throttled within ±0.5 %, 0 of 10⁶
    // sets fail. False failures: below 1 in 10⁵ per run (0 of 10⁶ simulated) while the disks hold
    // those bounds.
    // (5.5 / 25 − 1 = −78 %: the change is −7x % or beyond. Beyond −99.5 % it is written with the
    // decimals that matter, "−99.6 %": a Free read at 1,081 MB/s, inside blkio's burst allowance, gave
    // one, and a pattern of whole percents failed it.)
    const pct = '−(?:[7-9]\\d|99\\.\\d+) %';
    expect(md, md).toMatch(
      new RegExp(
        `Throttled is worse than Free: worse on all 2 throughput figures \\(SEQ1M Q8T1 Write ${pct}; SEQ1M Q8T1 Read ${pct}\\)\\.`,
      ),
    );
    const ci = `${pct}, CI −\\d+(\\.\\d+)? to −\\d+(\\.\\d+)? %( \\([^)]*\\))?`;
    expect(md, md).toMatch(new RegExp(`Throttled: SEQ1M Q8T1 Write ${ci}; SEQ1M Q8T1 Read ${ci} — vs Free\\.`));
    // Nothing of the tests is left in the folder; the campaign is done.
    expect(readdirSync(fs.dir).filter((n) => n !== 'lost+found')).toEqual([]);
    expect(campaigns(home).map((c) => c.status)).toEqual(['done']);
  }, 300_000);

  it('"stop" leaves it resumable; --resume asks for the setup again and finishes the report', async () => {
    group.set(0);
    const sub = await mkdtemp(path.join(home, 'h2-'));
    const first = start(['campaign', fs.dir, '--setups', 'Dock,Hub', '--plan', 'seq-write', '--size', '32MiB'], sub, group);
    await prompted(first, 'Setup 1 of 2');
    first.child.stdin!.write('\n');
    await prompted(first, 'Setup 2 of 2');
    first.child.stdin!.write('stop\n');
    expect(await first.exit).toBe(1);
    expect(first.stderr()).toMatch(
      /Stopped before Hub\. So far: Dock done \(1 test\), Hub 0 of 1 tests\. Resume with diskdial campaign --resume [0-9a-f]{8}/,
    );
    const [state] = campaigns(sub);
    expect(state?.status).toBe('stopped');

    const second = start(['campaign', '--resume', state!.id.slice(0, 8)], sub, group);
    await prompted(second, 'Setup 2 of 2: "Hub"');
    second.child.stdin!.write('\n');
    expect(await second.exit).toBe(0);
    // The first session's result comes back from history into the report's first row.
    expect(second.stdout()).toMatch(/\| Dock \(baseline\) \| [\d,.]+ \|/);
    expect(second.stdout()).toMatch(/\| Hub \| [\d,.]+ /);
    expect(campaigns(sub)[0]?.status).toBe('done');
  }, 300_000);

  it('Ctrl-C during a test removes its files, exits 130 and leaves the campaign resumable', async () => {
    group.set(THROTTLE_BPS / 4); // slow enough that the test is surely running when stopped
    const sub = await mkdtemp(path.join(home, 'h3-'));
    const live = start(['campaign', fs.dir, '--setups', 'A,B', '--plan', 'seq-write', '--size', '64MiB'], sub, group);
    await prompted(live, 'Setup 1 of 2');
    live.child.stdin!.write('\n');
    await prompted(live, '[1/2] A: seq-write');
    await expect.poll(() => readdirSync(fs.dir).some((n) => n.startsWith('.diskdial-')), { timeout: 30_000 }).toBe(true);
    live.child.kill('SIGINT');
    expect(await live.exit).toBe(130);
    expect(readdirSync(fs.dir).filter((n) => n !== 'lost+found')).toEqual([]);
    expect(campaigns(sub).map((c) => [c.status, c.reason])).toEqual([['stopped', 'Cancelled during a test.']]);
  }, 300_000);
});
