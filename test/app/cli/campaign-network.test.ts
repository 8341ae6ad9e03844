// `diskdial campaign` on a real share: an SMB server in a network namespace behind a veth pair
// (test/helpers/netns.ts), mounted here with smbnetfs. Setup 1 is the link shaped to 1 Gbit/s
// ("GigE"); while the campaign waits, the test reshapes it to 200 Mbit/s ("Wi-Fi"), as a person
// would move the machine onto Wi-Fi. The plan is the transfer-size sweep and the small-file test,
// three runs each, the small files large enough (1 MiB) that the link bounds them too: every
// throughput of the plan is 5× slower on Wi-Fi. The report must list both setups and both tests'
// figures, measure each link at its rate, and call Wi-Fi worse — not mixed: the transfer size at
// which a sweep reaches 90 % of its own top speed has no direction and never votes (issue 29's
// second seed). Nothing is left on the share. Root only.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { twoSetupCampaign } from '../../helpers/campaign-run.js';
import { rootOnly } from '../../helpers/loopfs.js';
import { cleanupStaleLabs, listTree, startNetLab, type NetLab } from '../../helpers/netns.js';

describe.runIf(rootOnly())('diskdial campaign over a shaped network link (root)', () => {
  let lab: NetLab;
  let home: string;

  beforeAll(async () => {
    buildCoreIfChanged();
    await cleanupStaleLabs();
    home = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-campaign-net-'));
    lab = await startNetLab({ rateMbit: 1000, sshfs: false });
  }, 120_000);

  afterAll(async () => {
    await lab?.cleanup();
    await fsp.rm(home, { recursive: true, force: true });
  }, 60_000);

  it('GigE vs Wi-Fi: both setups, the sweep and small-file rows, each link at its rate, and Wi-Fi called worse, not mixed', async () => {
    const share = lab.smbMount!;
    const args = ['campaign', share, '--setups', 'GigE,Wi-Fi', '--plan', 'sweep,small-files', '--runs', '3'];
    // The sweep from 4 KiB (where GigE is still below 90 % of its top, so the size at which each
    // sweep gets there differs between the setups) to 256 KiB (past where both links top out:
    // GigE from 16–64 KiB, Wi-Fi from 4 KiB); its timed steps go over a 64 MiB file, not 256 MiB,
    // which each run lays out for its reads (11 s of every Wi-Fi run with the full ladder).
    const sweepRange = ['--from', '4KiB', '--to', '256KiB'];
    const options = ['--seconds', '0.3', ...sweepRange, '--files', '40', '--file-size', '1MiB'];
    const out = await twoSetupCampaign([...args, ...options], home, ['GigE', 'Wi-Fi'], () => lab.shape(200), 600_000);
    expect(out).toContain('## GigE vs Wi-Fi on');
    const head = out.split('\n').find((l) => l.startsWith('| Setup |'))!;
    expect(head).toMatch(/Write · top speed/);
    expect(head).toMatch(/Small files · /);
    expect(out).toMatch(/\n\| GigE \(baseline\) \|/);
    expect(out).toMatch(/\n\| Wi-Fi \|/);
    // Each link measured at its rate, every run, two-sided. Ground truth: tbf passes at most
    // rate × t + its 10 ms bucket, so a 0.3 s sweep step can show at most 3.4 % over the rate, and
    // SMB over TCP carries about 95–98 % of it as payload (measured: 98.4 % on both links, run-to-run
    // spread 0.2 %). Upper end 104 % of the rate: a link that holds its shaping cannot cross it.
    // Lower end: the 200 Mbit/s link needs a few % of a core and stays at 98 % (floor 80 %); at
    // 1 Gbit/s the FUSE SMB client and smbd share 2 cores with other jobs, and a loaded run here
    // fell to 77 % (96.8 MB/s) once in 24 top speeds over 4 runs — CPU, not the link, and not
    // random noise, so no per-run rate can be derived for it; the floor is 50 %, a starvation
    // twice that deep. Per run: with the 0.2 % spread, chance alone never reaches either floor.
    const floor = { GigE: 0.5, 'Wi-Fi': 0.8 } as const;
    const docs = await resultsIn(home);
    const setup = (name: string): ResultDocument[] => docs.filter((d) => d.campaign?.formatLabel === name);
    for (const [name, mbit] of [
      ['GigE', 1000],
      ['Wi-Fi', 200],
    ] as const) {
      const rate = (mbit * 1e6) / 8 / 1e6;
      const sweep = setup(name).find((d) => d.kind === 'sweep')!;
      // The range asked for is the range swept, and the result says so.
      expect(sweep.sweep!.sizes, name).toEqual([4, 8, 16, 32, 64, 128, 256].map((k) => k * 1024));
      expect(sweep.settings.size, name).toBe(64 * 1024 * 1024);
      const tops = sweep.sweep!.runs.flatMap((r) => [r.fullSpeedWrite!.topMBps, r.fullSpeedRead!.topMBps]);
      expect(tops, name).toHaveLength(6);
      for (const top of tops) {
        expect(top, `${name} top speed`).toBeGreaterThanOrEqual(floor[name] * rate);
        expect(top, `${name} top speed`).toBeLessThanOrEqual(1.04 * rate);
      }
      // The small files' payload is bounded by the link too (per-file round trips only lower it).
      const small = setup(name).find((d) => d.kind === 'small-files')!;
      for (const r of small.smallFiles!.runs) {
        expect(r.writeMBps, `${name} small-file writes`).toBeLessThanOrEqual(1.04 * rate);
        expect(r.readMBps, `${name} small-file reads`).toBeLessThanOrEqual(1.04 * rate);
      }
    }
    // Worse, never mixed: the direction-less sizes do not vote, and every throughput weighed is
    // bounded by a link 5× slower. The top speeds are real changes even at the floors above (a
    // GigE run at 50 % beside two at 98 % leaves the interval of a −75 % change ending at −34 %;
    // the Wi-Fi runs agree within 0.2 %); a small-file figure 2–5× slower cannot come out "better"
    // (its interval would have to clear 0 from a ratio of 0.5 or less). Between the floors the
    // top-speed change lies from −58 % (26 against 62.5 MB/s) to −84 %.
    const verdict = /Wi-Fi is worse than GigE: worse on (all 5|[2-4] of 5) throughput figures \(([^)]*)\)(; [^.]*)?\./.exec(out);
    expect(verdict, out).not.toBeNull();
    expect(verdict![2], out).toMatch(/Write · top speed −[5-9]\d %; Read · top speed −[5-9]\d %/);
    const findings = out.slice(out.indexOf('**Findings**'), out.indexOf('_Rule:'));
    expect(findings, out).not.toMatch(/mixed|better/);
    // The sizes at which each sweep reached 90 % of its top are said as higher or lower, not judged.
    const wifi = out.split('\n').find((l) => l.startsWith('| Wi-Fi |'))!;
    expect(wifi, out).toMatch(/^\| Wi-Fi \| [\d.]+ ± [\d.]+ \(−[5-9]\d %\) \| [^|]+ \| [\d.]+ ± [\d.]+ \(−[5-9]\d %\) \|/);
    // The share holds nothing of the tests.
    expect(await listTree(lab.shareDir)).toEqual(['data']);
  }, 900_000);
});

/** The result documents the campaign saved in `home`'s history. */
async function resultsIn(home: string): Promise<ResultDocument[]> {
  const dir = path.join(home, 'results');
  const names = (await fsp.readdir(dir)).filter((n) => n.endsWith('.json'));
  return Promise.all(names.map(async (n) => JSON.parse(await fsp.readFile(path.join(dir, n), 'utf8')) as ResultDocument));
}
