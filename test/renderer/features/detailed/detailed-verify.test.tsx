// The verify panel: Start sends the amount the chips show (the whole free space by default, one
// pass); after the run, the verdict in the capacity verdict's own words, the capacity bar's shares
// and the two curves. The genuine document is a real one (test/fixtures/results/verify.json: 96 MiB
// on a loop-mounted ext4 on this machine); the fake one is that document with a drive that wraps.
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResultDocument } from '@model/result';
import { DetailedSettings } from '@model/settings';
import { capacityText, capacityVerdict } from '@model/verdict/capacity';
import verifyJson from '../../../fixtures/results/verify.json';
import { JOB, renderDetailed } from '../../helpers/detailed-fixtures';
import { createFakeBridge } from '../../helpers/fake-bridge';
import { LOOP, SYSTEM, T7 } from '../../helpers/wizard-fixtures';
import { resetStores } from '../../helpers/reset-stores';

const genuine = (): ResultDocument => JSON.parse(JSON.stringify(verifyJson)) as ResultDocument;
const panel = () => screen.getByTestId('verify-panel');

/** The real document, as if its drive wrapped at a third of what was written. */
function wrapped(): ResultDocument {
  const doc = genuine();
  const s = doc.verify!;
  const f = s.verdict.figures;
  const n = Math.floor(f.plannedBlocks / 3);
  const v = capacityVerdict({
    ...f,
    intactBlocks: n,
    aliasedBlocks: f.plannedBlocks - n,
    firstBadBlock: 0,
    wrapBlocks: n,
    prefixBlocks: 0,
    reportedBytes: 64e9,
  });
  doc.verify = { ...s, verdict: v, summary: capacityText(v), runs: [{ block: 0, blocks: f.plannedBlocks - n, kind: 'aliased', held: n }] };
  return doc;
}

describe('Verify panel', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('Start sends the whole free space by default, or the amount chosen, one pass', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(within(panel()).getByTestId('verify-size-10000000000'));
    await user.click(screen.getByTestId('verify-start'));
    const sent = { kind: 'verify', target: '/media/t7', maxBytes: 10e9, runs: 1, restSeconds: 0 };
    expect(fake.calls.detailedStart).toEqual([sent]);
    expect(DetailedSettings.parse(fake.calls.detailedStart[0])).toEqual(sent);
  });

  it('a genuine drive: the verdict, an all-intact bar and both curves', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('verify-start'));
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: genuine() }));
    expect(within(panel()).getByTestId('verify-verdict').textContent).toBe('Genuine: all 101 MB written and read back intact');
    const bar = within(panel()).getByTestId('verify-bar');
    expect([...bar.querySelectorAll('figcaption span')].map((s) => s.textContent)).toEqual(['intact 101 MB']);
    expect(within(panel()).queryByText(/will be drawn here/)).toBeNull();
  });

  it('a fake drive: the verdict says so, in the bad colour, and the bar shows what read back wrong', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('verify-start'));
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: wrapped() }));
    const verdict = within(panel()).getByTestId('verify-verdict');
    expect(verdict.textContent).toMatch(/^Fake capacity: only .+ of the 64 GB it reports hold data; writes beyond wrap to the start$/);
    expect(verdict.className).toContain('verify-verdict--bad');
    const bar = within(panel()).getByTestId('verify-bar');
    expect([...bar.querySelectorAll('figcaption span')].map((s) => s.textContent)).toEqual(['intact 33.6 MB', 'read back wrong 67.1 MB']);
  });

  it('a whole disk: only disks the wizard offers; Start waits for the disk’s name, then sends the disk and the name', async () => {
    const fake = createFakeBridge();
    fake.wizard.disks = [SYSTEM, T7, LOOP];
    const { user } = await renderDetailed(fake);
    await user.click(within(panel()).getByTestId('verify-face-disk'));
    const select = await within(panel()).findByTestId('verify-disk');
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Choose a disk…',
      '/dev/sdb · Samsung PSSD T7 · 1 TB',
      '/dev/loop7 · loop7 · 2 GB',
    ]);
    expect(within(panel()).getByTestId('verify-disks-not-offered').textContent).toBe('Not offered: /dev/vda (holds the system (/))');
    const start = screen.getByTestId('verify-start');
    expect(start).toHaveProperty('disabled', true);
    await user.selectOptions(select, '/dev/loop7');
    expect(start).toHaveProperty('disabled', true);
    await user.type(within(panel()).getByTestId('verify-confirm-input'), 'loop');
    expect(start).toHaveProperty('disabled', true);
    expect(within(panel()).getByRole('alert').textContent).toBe(
      "Type the disk's name, loop7, to confirm: everything on it is overwritten.",
    );
    await user.type(within(panel()).getByTestId('verify-confirm-input'), '7');
    expect(start).toHaveProperty('disabled', false);
    await user.click(start);
    const sent = { kind: 'verify', target: '/dev/loop7', runs: 1, restSeconds: 0, disk: { confirmName: 'loop7' } };
    expect(fake.calls.detailedStart).toEqual([sent]);
    expect(DetailedSettings.parse(fake.calls.detailedStart[0])).toEqual(sent);
  });

  it('browser mode without --allow-erase: says why up front, lists no disk, and Start stays off', async () => {
    const fake = createFakeBridge();
    fake.wizard.disks = [T7, LOOP];
    const why =
      'Erasing disks is not allowed in this browser mode: nothing was erased. Start it again with `diskdial serve --allow-erase`.';
    const info = fake.bridge.appInfo;
    fake.bridge.appInfo = () => info().then((r) => (r.ok ? { ok: true as const, value: { ...r.value, eraseRefused: why } } : r));
    const { user } = await renderDetailed(fake);
    await user.click(within(panel()).getByTestId('verify-face-disk'));
    expect((await within(panel()).findByTestId('verify-erase-refused')).textContent).toBe(why);
    expect(within(panel()).queryByTestId('verify-disk')).toBeNull();
    expect(fake.wizardCalls.listDisks).toEqual([]);
    expect(screen.getByTestId('verify-start')).toHaveProperty('disabled', true);
    // The folder face is unaffected.
    await user.click(within(panel()).getByTestId('verify-face-folder'));
    expect(screen.getByTestId('verify-start')).toHaveProperty('disabled', false);
  });
});
