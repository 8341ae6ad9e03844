// The share-limits panel (issue 34): on a folder that is not on a share, the runner's own refusal
// before Start; on a share, Start sends the large file, the small files and the runs the controls
// show; while it runs, the step under way; after it, the verdict in the one renderer's words
// (model/verdict/share.ts), the figures it was decided from, and the small-file verdict. The
// document is a real one (test/fixtures/results/share.json: `diskdial run <share> --test share`
// over SFTP in the lab of test/helpers/share-run.ts).
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResultDocument } from '@model/result';
import { DetailedSettings } from '@model/settings';
import { shareText, smallFileText } from '@model/verdict/share';
import shareJson from '../../../fixtures/results/share.json';
import { JOB, plan, progress, renderDetailed, step } from '../../helpers/detailed-fixtures';
import { createFakeBridge, shareTarget, target } from '../../helpers/fake-bridge';
import { retype } from '../../helpers/dom';
import { resetStores } from '../../helpers/reset-stores';
import { useTargetsStore } from '../../../../renderer/src/lib/targets-store';

const shareDoc = (): ResultDocument => JSON.parse(JSON.stringify(shareJson)) as ResultDocument;
const panel = () => screen.getByTestId('share-panel');
const startButton = () => screen.getByTestId('share-start') as HTMLButtonElement;

/** The app on the Detailed tab with a local disk (selected first) and a share. */
async function onShare() {
  const r = await renderDetailed(createFakeBridge([target(), shareTarget()]));
  act(() => useTargetsStore.getState().select('/mnt/nas'));
  return r;
}

describe('Share-limits panel', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('a folder that is not on a share: Start is held back with the runner’s own refusal; a share frees it', async () => {
    const { fake } = await renderDetailed(createFakeBridge([target(), shareTarget()]));
    expect(startButton().disabled).toBe(true);
    expect(screen.getByTestId('share-status').textContent).toBe('This test measures a network share, and /media/t7 is not on one (exfat).');
    // The other panels are not held back by it.
    expect((screen.getByTestId('cdm-start') as HTMLButtonElement).disabled).toBe(false);
    act(() => useTargetsStore.getState().select('/mnt/nas'));
    expect(startButton().disabled).toBe(false);
    expect(screen.getByTestId('share-status').textContent).toBe('Ready');
    expect(fake.calls.detailedStart).toEqual([]);
  });

  it('Start sends the large file, the small files and the runs the controls show', async () => {
    const { fake, user } = await onShare();
    expect((within(panel()).getByTestId('share-files') as HTMLInputElement).value).toBe('100');
    await user.click(within(panel()).getByTestId(`share-size-${4e9}`));
    await retype(user, 'share-files', '20');
    await retype(user, 'share-runs', '2');
    await user.click(startButton());
    const sent = { kind: 'share', target: '/mnt/nas', sizeBytes: 4e9, files: 20, runs: 2, restSeconds: 300 };
    expect(fake.calls.detailedStart).toEqual([sent]);
    expect(DetailedSettings.parse(fake.calls.detailedStart[0])).toEqual(sent);
  });

  it('a small-file count out of range is marked and Start is held back', async () => {
    const { fake, user } = await onShare();
    await retype(user, 'share-files', '10001');
    expect(panel().textContent).toContain('Small files: a whole number from 1 to 10,000.');
    expect(startButton().disabled).toBe(true);
    expect(fake.calls.detailedStart).toEqual([]);
  });

  it('while it runs: the step under way and how far it is; a stop says there is no verdict', async () => {
    const { fake, user } = await onShare();
    await user.click(startButton());
    const steps = shareDoc().tests.map((t) => t.name);
    act(() => fake.emitDetailedPlan(plan({ kind: 'share', steps })));
    act(() =>
      fake.emitDetailedProgress(
        progress({ kind: 'share', testIndex: 0, testCount: 6, testName: 'Server disk: write', bytesDone: 64e6, bytesTotal: 134e6 }),
      ),
    );
    await expect.poll(() => within(panel()).getByTestId('share-live').textContent).toBe('Server disk: write… 64.0 MB of 134 MB');
    act(() => fake.emitDetailedStep(step(shareDoc().tests[0]!, { kind: 'share' })));
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'stopped' }));
    await expect.poll(() => within(panel()).getByTestId('share-live').textContent).toBe('Stopped before the end: no verdict.');
    expect(within(panel()).queryByTestId('share-verdict')).toBeNull();
  });

  it('after the run: the verdict, the figures it was decided from, and the small-file verdict', async () => {
    const { fake, user } = await onShare();
    await user.click(startButton());
    const doc = shareDoc();
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: doc }));
    const result = await within(panel()).findByTestId('share-result');
    const run = doc.share!.runs[0]!;
    expect(within(result).getByTestId('share-verdict').textContent).toBe(shareText(run.verdict));
    expect(within(result).getByTestId('share-verdict').textContent).toBe(VERDICT);
    const figures = [...within(result).getByTestId('share-figures').querySelectorAll('div')].map((d) => [
      d.querySelector('dt')!.textContent,
      d.querySelector('dd')!.textContent,
    ]);
    expect(figures).toEqual(FIGURES);
    expect(within(result).getByTestId('share-file-verdict').textContent).toBe(smallFileText(run.fileVerdict));
    expect(within(panel()).queryByText(/will be shown here/)).toBeNull();
  });
});

// The real document's words and figures, as the panel must show them.
const VERDICT =
  "Server-bound: the server's disk gives 19.9 MB/s read cold (written at 68.3 MB/s, flushed to the server); the link carried 228 MB/s from the server's memory.";
const FIGURES = [
  ["From the server's memory", '228 MB/s'],
  ["Server's disk, read cold", '19.9 MB/s'],
  ["Server's disk, written", '68.3 MB/s'],
  ['Link ceiling', 'not known'],
  ['Round trip', '0.004 ms'],
  ['A small file', '0.260 ms'],
  ['Round trips a small file', '64.9'],
];
