// The seeds' protocols in the wizard, for real (root): a disk image on a loop device (direct I/O,
// partition scanning, as an external disk behaves) erased into each format and tested with
// Stibium Standard (scaled to the image, and the report says to what), the write-only plan, the
// sustained write and the hash test; with ext4 + fscrypt, whose files cannot take direct I/O,
// the common-mode pass gives every format a row in one mode and the report compares those like
// rows, saying so. The plan's time estimate is held to the real run's.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../app/src/core/history.js';
import { PlanStore } from '../../../../app/src/core/wizard/plan-store.js';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import type { WizardSettings } from '../../../../app/src/model/settings.js';
import { buildFormatReport, renderFormatReport } from '../../../../app/src/model/report/format-report.js';
import { estimatePlan } from '../../../../app/src/model/wizard/estimate.js';
import type { WizardProgressEvent } from '../../../../app/src/model/events.js';
import { rootOnly } from '../../../helpers/loopfs.js';
import { wizardSettings } from '../../../helpers/wizard-plans.js';
import { attachImage, detachImage, realLinux, realWizard } from '../../../helpers/wizard-real.js';
import { wizardSink } from '../../../helpers/wizard-sink.js';

const MiB = 1024 * 1024;

describe.runIf(rootOnly())('the seeds’ protocols on a real disk image (root)', () => {
  let dir: string;
  let loop: string;
  let history: HistoryStore;
  let plans: PlanStore;
  const { provider, run } = realLinux();

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-protocols-'));
    // 2 GiB: room for a scaled Stibium set and a sustained write beside their 512 MiB reserve.
    loop = attachImage(dir, '2G');
    history = new HistoryStore(path.join(dir, 'results'));
    plans = new PlanStore(path.join(dir, 'plans'));
  });
  afterAll(async () => {
    detachImage(loop);
    await fsp.rm(dir, { recursive: true, force: true });
  });

  async function runWizard(over: Partial<WizardSettings>) {
    const svc = realWizard(dir, { provider, run, history, plans });
    const disk = (await svc.listDisks()).find((d) => d.path === loop)!;
    const settings = wizardSettings({
      device: loop,
      identity: { path: loop, sizeBytes: disk.sizeBytes },
      confirmName: disk.name,
      ...over,
    });
    const s = wizardSink();
    const t0 = performance.now();
    svc.start(await svc.begin(settings), s);
    const done = await s.done;
    const seconds = (performance.now() - t0) / 1000;
    expect(done.outcome, JSON.stringify(done.error)).toBe('finished');
    const docs: ResultDocument[] = await Promise.all(done.resultIds.map((id) => history.get(id)));
    const progress = s.events.filter((e) => e.channel === 'wizard.progress').map((e) => e.data as WizardProgressEvent);
    return { settings, docs, seconds, progress, diskBytes: disk.sizeBytes };
  }

  it('runs Stibium Standard on each format, scaled to the image, the report saying to what; the estimate is within 2× of the real time', async () => {
    const { settings, docs, seconds, progress, diskBytes } = await runWizard({
      formats: ['ext4', 'xfs'],
      finalFormat: 'ext4',
      plan: 'files',
      filesSet: 'standard',
    });
    expect(docs.map((d) => [d.kind, d.campaign!.format, d.settings.preset])).toEqual([
      ['files', 'ext4', 'standard'],
      ['files', 'xfs', 'standard'],
    ]);
    for (const d of docs) {
      // Stibium's shape kept: 40 files (not the 8 the fit used to rest on), the same spread, smaller.
      expect(d.files!.scaled).toMatch(
        /is short of the 160 files \(5\d\.\d GB\) this set needs: scaled down to 40 files of .+ the same spread of sizes, smaller/,
      );
      expect(d.files!.runs[0]!.items.length).toBe(40);
    }
    // The same set on every format (the room the first gave it), so the rows are like for like.
    expect(docs[1]!.files!.runs[0]!.items.map((f) => f.bytes)).toEqual(docs[0]!.files!.runs[0]!.items.map((f) => f.bytes));
    expect(buildFormatReport(docs).warnings.join(' ')).not.toMatch(/different settings/);
    const md = renderFormatReport(docs, 'md').text;
    expect(md).toMatch(/ext4: Free space \(.+\) is short of the 160 files .+ scaled down to \d+ files/);
    expect(md).toMatch(/XFS: Free space \(.+\) is short of the 160 files .+ scaled down to \d+ files/);

    // The estimate, at the rates this run measured and the erase-and-format time it took, is
    // within a factor of 2 of the wall time (it is what the plan step prints at assumed rates).
    // It leaves out only the CPU work around the I/O (mkfs, mounts, file creation), which a loaded
    // machine stretches: 20 runs under scripts/test-loaded.sh beside another test loop (load 7–11)
    // gave 1.24–1.75 (mean 1.52, sd 0.14): 2 is 3.6 sd above, a false failure ~1 in 6,000 runs at
    // that load, fewer at CI's. (Before the estimate counted the final format it was 2.0–2.2 there.)
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const rate = (rw: string) => mean(docs.flatMap((d) => d.tests.filter((t) => t.rw === rw)).map((t) => t.mbps));
    const firstTest = progress.find((e) => e.stage === 'testing')!.elapsed;
    const est = estimatePlan(
      settings,
      { formats: 2, diskBytes },
      { writeMBps: rate('write'), readMBps: rate('read'), formatSeconds: firstTest },
    );
    expect(est.scaled).toMatch(/scaled down to \d+ files/);
    console.log(`record: real/estimated ${(seconds / est.seconds).toFixed(3)} (real ${seconds.toFixed(1)} s)`);
    expect(seconds / est.seconds, `real ${seconds.toFixed(1)} s, estimated ${est.seconds.toFixed(1)} s`).toBeGreaterThan(0.5);
    expect(seconds / est.seconds, `real ${seconds.toFixed(1)} s, estimated ${est.seconds.toFixed(1)} s`).toBeLessThan(2);
  }, 300_000);

  it('runs the write-only plan on each format: writes at each size, nothing read back', async () => {
    const { docs } = await runWizard({
      formats: ['ext4', 'btrfs'],
      finalFormat: 'ext4',
      plan: 'write',
      sizes: [64 * MiB, 128 * MiB],
      runs: 2,
    });
    expect(docs.map((d) => [d.kind, d.campaign!.format, d.settings.size])).toEqual([
      ['seq-write', 'ext4', 64 * MiB],
      ['seq-write', 'ext4', 128 * MiB],
      ['seq-write', 'btrfs', 64 * MiB],
      ['seq-write', 'btrfs', 128 * MiB],
    ]);
    for (const d of docs) {
      expect(d.tests.map((t) => t.rw)).toEqual(['write', 'write']);
      expect(d.cacheMode).toBe('direct');
    }
    const r = buildFormatReport(docs);
    expect(r.variants.map((v) => v.label)).toEqual(['ext4', 'Btrfs']);
    expect(r.columns.every((c) => /Write/.test(c.figure))).toBe(true);
  }, 180_000);

  it('runs the sustained write and the hash test per format', async () => {
    const sustained = await runWizard({ formats: ['xfs'], finalFormat: 'ext4', plan: 'sustained' });
    expect(sustained.docs.map((d) => [d.kind, d.campaign!.format])).toEqual([['sustained', 'xfs']]);
    expect(sustained.docs[0]!.sustained).toBeDefined();
    const hash = await runWizard({ formats: ['ext4'], finalFormat: 'ext4', plan: 'hash', sizes: [64 * MiB] });
    expect(hash.docs.map((d) => [d.kind, d.campaign!.format])).toEqual([['hash', 'ext4']]);
    expect(hash.docs[0]!.hash!.read.mbps).toBeGreaterThan(0);
    expect(hash.docs[0]!.hash!.verdict.text).toMatch(/-bound: |^No single limit: /);
  }, 180_000);

  it('with ext4 + fscrypt: no cross-mode finding without the common-mode pass; with it, the like rows are compared and the report says so', async () => {
    const plain = await runWizard({ formats: ['ext4', 'ext4-fscrypt'], finalFormat: 'ext4', sizes: [64 * MiB] });
    expect(plain.docs.map((d) => [d.campaign!.format, d.cacheMode])).toEqual([
      ['ext4', 'direct'],
      ['ext4-fscrypt', 'buffered-flushed'],
    ]);
    const r0 = buildFormatReport(plain.docs);
    // The encrypted row's encryption verdict stands on its own figures and the cipher's: it sets no
    // figure of the uncached ext4 row against it.
    // Its words are the bottleneck verdict's (model/verdict/bottleneck.ts).
    const verdicts = r0.findings.filter((f) =>
      /^ext4 \(fscrypt encrypted\): (Encryption-bound|Storage-bound|Link-bound|No single limit)/.test(f),
    );
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).not.toMatch(/unencrypted disk/);
    expect(r0.findings.filter((f) => !verdicts.includes(f))).toEqual([
      'ext4 (fscrypt encrypted) was measured through the page cache, flushed; ext4 uncached: not compared.',
    ]);

    const common = await runWizard({ formats: ['ext4', 'ext4-fscrypt'], finalFormat: 'ext4', sizes: [64 * MiB], commonMode: true });
    // ext4 twice (its own pass uncached, then as applications see it); fscrypt once: its own pass
    // already went through the page cache.
    expect(common.docs.map((d) => [d.campaign!.format, d.campaign!.pass ?? 'own', d.cacheMode])).toEqual([
      ['ext4', 'own', 'direct'],
      ['ext4', 'common', 'buffered-flushed'],
      ['ext4-fscrypt', 'own', 'buffered-flushed'],
    ]);
    const r = buildFormatReport(common.docs);
    expect(r.variants.map((v) => v.label)).toEqual(['ext4', 'ext4 · as applications see it', 'ext4 (fscrypt encrypted)']);
    expect(r.variants[2]!.reference).toBe(1);
    expect(r.findings.find((f) => f.startsWith('ext4 (fscrypt encrypted)'))).toMatch(
      /— vs ext4 · as applications see it\.$|^ext4 \(fscrypt encrypted\): (inconclusive on |no difference from ext4 · as applications see it)/,
    );
    // Issue 29's wizard seed on the real setup: a figure the cipher halves (or worse) is never
    // "no difference", in its cell or in the findings.
    const halved = r.cells[2]!.filter((c) => c?.claim && (c.claim.change <= -0.5 || c.claim.change >= 1));
    for (const c of halved) expect(c!.verdict).not.toBe('same');
    if (halved.length > 0) expect(r.findings.join(' ')).not.toMatch(/no (measurable )?difference from ext4 · as applications see it/);
    expect(r.findings).toContain(
      'Compared like for like: ext4 (fscrypt encrypted) against ext4 · as applications see it (both through the page cache, flushed). Rows measured in different modes are not set against each other.',
    );
    expect(renderFormatReport(common.docs, 'md').text).toContain('Compared like for like');
    // With the like row there, the verdict sets the encrypted row against it.
    expect(r.variants[2]!.encryption).toMatch(/the unencrypted disk's best/);
  }, 240_000);
});
