// Issue 17's first done-when, for real (root): the wizard tests ext4 and ext4 + fscrypt on a disk
// image; the plan measures the cipher ceiling once (it has an encrypted format), the fscrypt
// result records its encryption and the ceiling, and the format report's encrypted row carries
// the verdict naming the kernel's AES driver from this machine's /proc/crypto (aes-fixed-time
// here) and the cipher rate measured in the same run.
import { execFileSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../app/src/core/history.js';
import { kernelCipher, parseProcCrypto } from '../../../../app/src/core/kernel-cipher.js';
import { PlanStore } from '../../../../app/src/core/wizard/plan-store.js';
import { buildFormatReport } from '../../../../app/src/model/report/format-report.js';
import { formatMBpsFigure } from '../../../../app/src/model/units.js';
import type { WizardSettings } from '../../../../app/src/model/wizard/types.js';
import { rootOnly } from '../../../helpers/loopfs.js';
import { wizardSettings } from '../../../helpers/wizard-plans.js';
import { realLinux, realWizard } from '../../../helpers/wizard-real.js';
import { wizardSink } from '../../../helpers/wizard-sink.js';

describe.runIf(rootOnly())('the encryption verdict on a real fscrypt image (root)', () => {
  let dir: string;
  let loop = '';
  const { provider, run } = realLinux();

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-cipher-'));
    const img = path.join(dir, 'disk.img');
    execFileSync('truncate', ['-s', '384M', img]);
    loop = execFileSync('losetup', ['--find', '--partscan', '--direct-io=on', '--show', img], { encoding: 'utf8' }).trim();
  });
  afterAll(async () => {
    for (const line of readFileSync('/proc/self/mounts', 'utf8').split('\n')) {
      const [src, target] = line.split(' ');
      if (src?.startsWith(`${loop}p`) && target) execFileSync('umount', ['-l', target.replace(/\\040/g, ' ')]);
    }
    if (loop) execFileSync('losetup', ['-d', loop]);
    await fsp.rm(dir, { recursive: true, force: true });
  });

  /** Runs a plan on the image to the end, its results and plans in folders of their own. */
  async function runPlan(name: string, over: Partial<WizardSettings>) {
    const history = new HistoryStore(path.join(dir, `results-${name}`));
    const svc = realWizard(dir, { provider, run, history, plans: new PlanStore(path.join(dir, `plans-${name}`)) });
    const disk = (await svc.listDisks()).find((d) => d.path === loop)!;
    const settings = wizardSettings({ device: loop, identity: { path: loop, sizeBytes: disk.sizeBytes }, confirmName: disk.name, ...over });
    const sink = wizardSink();
    svc.start(await svc.begin(settings), sink);
    const done = await sink.done;
    expect(done.outcome).toBe('finished');
    return { sink, docs: await Promise.all(done.resultIds.map((id) => history.get(id))) };
  }

  it("puts the verdict, naming the kernel's AES and a cipher rate measured in the same run, on the fscrypt row", async () => {
    const started = Date.now();
    const { sink, docs } = await runPlan('quick', {
      formats: ['ext4', 'ext4-fscrypt'],
      sizes: [16 * 1024 * 1024],
      // fscrypt cannot do direct I/O: ext4 is measured again as applications see it, so the
      // verdict sets the encrypted row against a row measured the same way.
      commonMode: true,
    });
    const plain = docs.find((d) => d.campaign?.format === 'ext4' && d.campaign.pass === undefined);
    const enc = docs.find((d) => d.campaign?.format === 'ext4-fscrypt');
    expect(sink.messages).toContain('Measuring how fast this machine encrypts (the cipher ceiling)…');

    // The fscrypt folder is recorded as such; the unencrypted row carries no ceiling.
    expect(enc!.target).toMatchObject({ encrypted: true, encryption: { kind: 'fscrypt' } });
    expect(plain!.target.encryption).toBeUndefined();
    expect(plain!.cipher).toBeUndefined();

    // The ceiling was measured in this run, on this machine's crypto and this kernel's driver.
    const cipher = enc!.cipher!;
    const expected = kernelCipher(parseProcCrypto(readFileSync('/proc/crypto', 'utf8')))!;
    expect(cipher.kernel).toMatchObject({ driver: expected.driver, aes: expected.aes, meaning: expected.meaning });
    expect(cipher.xts!.oneCore.mbps).toBeGreaterThan(0);
    expect(cipher.xts!.oneCore.seconds).toBeGreaterThan(0.9);
    expect(Date.parse(enc!.finishedAt)).toBeGreaterThanOrEqual(started);

    const report = buildFormatReport(docs);
    const row = report.variants.find((v) => v.key === 'ext4-fscrypt')!;
    expect(report.variants.find((v) => v.key === 'ext4')!.encryption).toBeUndefined();
    expect(row.encryption).toContain(`(${expected.aes})`);
    // The rate the verdict cites is the one this run measured: the kernel's own where the kernel
    // lets a program measure it, else the library's.
    const cited = cipher.kernel?.rate?.mbps ?? cipher.xts!.oneCore.mbps;
    expect(row.encryption).toContain(`${formatMBpsFigure(cited)} MB/s`);
    expect(report.findings).toContain(`${row.label}: ${row.encryption}`);
    // Set against ext4 as applications see it (page cache, flushed, like fscrypt), never the uncached row.
    const like = report.variants.find((v) => v.label === 'ext4 · as applications see it')!;
    expect(row.reference).toBe(report.variants.indexOf(like));
    if (expected.aes === 'aes-fixed-time' && !cipher.kernel?.rate) {
      // This machine: software AES in the kernel and no AF_ALG to measure it. With no cipher
      // ceiling the bottleneck law names no limit; the verdict says what the kernel is.
      expect(row.encryption).toMatch(/^No single limit: .* This kernel encrypts with software AES, no acceleration \(aes-fixed-time\)/);
    }
  }, 300_000);

  it("restates the encrypted Hash test's own verdict in the report's row and finding (issue 33)", async () => {
    const {
      docs: [enc],
    } = await runPlan('hash', { formats: ['ext4-fscrypt'], plan: 'hash', sizes: [64 * 1024 * 1024] });
    const own = enc!.flags.find((f) => f.code === 'encrypted-target')!.message;
    expect(own.startsWith(enc!.hash!.verdict.text)).toBe(true);
    // The cipher section is the one the Hash test measured (with the decryption its read saw where
    // the kernel's rate cannot be measured), not one the plan measured apart from it.
    const k = enc!.cipher!.kernel;
    if (k && !k.rate && k.accelerated === false) expect(k.observed?.mbps).toBeGreaterThan(0);
    const report = buildFormatReport([enc!]);
    const row = report.variants[0]!;
    expect(row.encryption).toBe(own);
    expect(report.findings).toContain(`${row.label}: ${own}`);
  }, 300_000);
});
