// The wizard's run step against the fake bridge: progress events move the bar, the stage line,
// the dials and the list of formats; wizard.format ticks a format done; events that come before
// the start's answer wait for it; Stop asks first; a stopped or failed plan says so in plain
// words with what finished; and the one-test-at-a-time rule holds across the screens.
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcResult } from '@ipc/contract';
import { useQuickTestStore } from '../../../../renderer/src/features/quick-test/store';
import { useWizardStore } from '../../../../renderer/src/features/wizard/store';
import { resetStores } from '../../helpers/reset-stores';
import { confirmPlanOnT7, renderWizard, wizardBridge, wprogress } from '../../helpers/wizard-fixtures';
import { text } from '../../helpers/dom';

beforeEach(resetStores);
afterEach(resetStores);

const steps = () => screen.getAllByTestId('wizard-step').map((s) => `${s.dataset.format}:${s.dataset.status}`);

/** Queries inside the run step (the Quick Test screen, hidden, has dials too). */
const run = () => within(screen.getByTestId('wizard-run'));

type User = Awaited<ReturnType<typeof renderWizard>>['user'];

/** Picks T7, ext4 + ext4 (fscrypt) + XFS, the default plan, types the name and starts. */
async function startPlan(user: User) {
  await confirmPlanOnT7(user, ['ext4', 'ext4-fscrypt', 'xfs']);
  await user.click(screen.getByTestId('wizard-start'));
  await screen.findByTestId('wizard-run');
}

describe('running a plan', () => {
  it('progress events drive the bar, the stage, the dials and the list of formats', async () => {
    const { fake, user } = await renderWizard();
    await startPlan(user);
    await waitFor(() => expect(useWizardStore.getState().status).toBe('running'));

    act(() => fake.emitWizardProgress(wprogress({ stage: 'erasing', message: 'Erasing /dev/sdb and making ext4…', elapsed: 2 })));
    expect(text(screen.getByTestId('wizard-stage'))).toBe('Erasing /dev/sdb and making ext4…');
    expect(steps()).toEqual(['ext4:running', 'ext4-fscrypt:pending', 'xfs:pending']);
    expect(text(screen.getByTestId('wizard-run'))).toContain('Format 1 of 3: ext4');
    expect(text(screen.getByTestId('wizard-run'))).toContain('time left: after the first format');

    const test = {
      name: 'Quick Test',
      sizeBytes: 1e9,
      run: 1,
      runs: 5,
      phase: 'write' as const,
      instMBps: 812,
      avgMBps: 800,
      bytesDone: 5e8,
      bytesTotal: 1e9,
    };
    act(() => fake.emitWizardProgress(wprogress({ test, elapsed: 30 })));
    expect(text(run().getByTestId('value-write'))).toBe('812');
    expect(run().getByTestId('dial-write').classList.contains('dial--active')).toBe(true);
    expect(text(screen.getByTestId('wizard-run'))).toContain('Quick Test · 1 GB · run 1 of 5 · writing');
    act(() => fake.emitWizardProgress(wprogress({ test: { ...test, phase: 'read', instMBps: 955, bytesDone: 1e9 }, elapsed: 32 })));
    expect(text(run().getByTestId('value-read'))).toBe('955');
    expect(text(run().getByTestId('value-write'))).toBe('812');
    const bar = screen.getByTestId('wizard-progress');
    const first = Number(bar.getAttribute('aria-valuenow'));
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(34);

    // Another job's events are not ours.
    act(() =>
      fake.emitWizardProgress(
        wprogress({ jobId: 'other', formatIndex: 2, format: 'xfs', formatLabel: 'XFS', test: { ...test, instMBps: 5 } }),
      ),
    );
    expect(steps()).toEqual(['ext4:running', 'ext4-fscrypt:pending', 'xfs:pending']);
    expect(text(run().getByTestId('value-read'))).toBe('955');

    // ext4 is saved; the next format is erased (the needles drop) and time left is known.
    act(() =>
      fake.emitWizardFormat({
        jobId: 'wjob-1',
        planId: 'plan-1',
        format: 'ext4',
        formatLabel: 'ext4',
        resultIds: ['r-ext4-1', 'r-ext4-5'],
      }),
    );
    expect(steps()).toEqual(['ext4:done', 'ext4-fscrypt:pending', 'xfs:pending']);
    act(() =>
      fake.emitWizardProgress(
        wprogress({
          formatIndex: 1,
          format: 'ext4-fscrypt',
          formatLabel: 'ext4 (fscrypt encrypted)',
          stage: 'formatting',
          message: 'Making ext4 (fscrypt encrypted)…',
          elapsed: 725,
          remainingSeconds: 3000,
        }),
      ),
    );
    expect(steps()).toEqual(['ext4:done', 'ext4-fscrypt:running', 'xfs:pending']);
    expect(text(run().getByTestId('value-write'))).toBe('0');
    expect(text(screen.getByTestId('wizard-run'))).toContain('1 of 3 formats done · elapsed 12 min 05 s · about 50 min left');
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThan(first);

    // Resting between runs counts down.
    act(() =>
      fake.emitWizardProgress(
        wprogress({
          formatIndex: 1,
          format: 'ext4-fscrypt',
          stage: 'resting',
          message: 'Resting',
          remaining: 252,
          test: { ...test, run: 2 },
          elapsed: 800,
        }),
      ),
    );
    expect(text(screen.getByTestId('wizard-run'))).toContain('Resting so the cache drains · 4 min 12 s left');

    // The final format.
    act(() =>
      fake.emitWizardProgress(
        wprogress({ formatIndex: 3, format: 'ext4', stage: 'finishing', message: 'Leaving the disk as ext4…', elapsed: 9000 }),
      ),
    );
    expect(screen.getByTestId('wizard-step-final').dataset.status).toBe('running');
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
  });

  it('holds events that arrive before the start is answered, then replays them', async () => {
    const fake = wizardBridge();
    let answer!: (r: IpcResult<{ jobId: string; planId: string }>) => void;
    fake.bridge.startWizard = (s) => {
      fake.wizardCalls.start.push(s);
      return new Promise((resolve) => (answer = resolve));
    };
    const { user } = await renderWizard(fake);
    await startPlan(user);
    expect(text(screen.getByTestId('wizard-stage'))).toBe('Starting…');
    act(() => fake.emitWizardProgress(wprogress({ stage: 'checking', message: 'Checking /dev/sdb is the disk you confirmed…' })));
    act(() => fake.emitWizardFormat({ jobId: 'wjob-1', planId: 'plan-1', format: 'ext4', formatLabel: 'ext4', resultIds: ['a'] }));
    expect(steps()).toEqual(['ext4:pending', 'ext4-fscrypt:pending', 'xfs:pending']);
    await act(async () => answer({ ok: true, value: { jobId: 'wjob-1', planId: 'plan-1' } }));
    expect(steps()).toEqual(['ext4:done', 'ext4-fscrypt:pending', 'xfs:pending']);
    expect(useWizardStore.getState().job?.planId).toBe('plan-1');
  });

  it('Stop asks first, then stops after unmounting; a stopped plan says what finished', async () => {
    const { fake, user } = await renderWizard();
    await startPlan(user);
    await waitFor(() => expect(useWizardStore.getState().status).toBe('running'));
    act(() => fake.emitWizardFormat({ jobId: 'wjob-1', planId: 'plan-1', format: 'ext4', formatLabel: 'ext4', resultIds: ['r1', 'r5'] }));
    act(() => fake.emitWizardProgress(wprogress({ formatIndex: 1, format: 'ext4-fscrypt', formatLabel: 'ext4 (fscrypt encrypted)' })));

    await user.click(screen.getByTestId('wizard-stop'));
    expect(text(screen.getByRole('alertdialog'))).toContain('Stop after unmounting? Finished formats stay saved');
    expect(fake.wizardCalls.stop).toEqual([]);
    await user.click(screen.getByTestId('wizard-stop-cancel'));
    expect(screen.queryByTestId('wizard-stop-confirm')).toBeNull();
    await user.click(screen.getByTestId('wizard-stop'));
    await user.click(screen.getByTestId('wizard-stop-confirm'));
    expect(fake.wizardCalls.stop).toEqual(['wjob-1']);
    expect(text(screen.getByTestId('wizard-stop'))).toContain('Stopping…');
    expect(text(screen.getByTestId('wizard-stage'))).toBe('Stopping after unmounting…');

    act(() => fake.emitWizardDone({ jobId: 'wjob-1', planId: 'plan-1', outcome: 'stopped', resultIds: ['r1', 'r5'] }));
    expect(screen.queryByTestId('wizard-stop')).toBeNull();
    expect(steps()).toEqual(['ext4:done', 'ext4-fscrypt:pending', 'xfs:pending']);
    expect(text(screen.getByTestId('wizard-ended'))).toContain('Stopped. ext4 finished and is saved in History.');
    expect(screen.getByTestId('wizard-show-report')).toBeTruthy();
    expect(useWizardStore.getState().status).toBe('idle');
  });

  it('a failed plan shows the error in plain words and marks the format failed', async () => {
    const { fake, user } = await renderWizard();
    await startPlan(user);
    await waitFor(() => expect(useWizardStore.getState().status).toBe('running'));
    act(() => fake.emitWizardProgress(wprogress({ stage: 'formatting' })));
    act(() =>
      fake.emitWizardDone({
        jobId: 'wjob-1',
        planId: 'plan-1',
        outcome: 'failed',
        resultIds: [],
        error: { code: 'ERR_DISK_GONE', message: 'The disk went away while it was being formatted.' },
      }),
    );
    expect(text(screen.getByTestId('wizard-error'))).toBe('The plan failed: The disk went away while it was being formatted.');
    expect(steps()).toEqual(['ext4:failed', 'ext4-fscrypt:pending', 'xfs:pending']);
    expect(text(screen.getByTestId('wizard-ended'))).toContain('No format finished.');
    expect(screen.queryByTestId('wizard-show-report')).toBeNull();
    // New plan goes back to the disks.
    await user.click(screen.getByTestId('wizard-new'));
    expect(await screen.findAllByTestId('wizard-disk')).toHaveLength(4);
  });
});

describe('one test at a time', () => {
  it('while the plan runs, the other screens say why they cannot start and the target picker is locked', async () => {
    const { user } = await renderWizard();
    await startPlan(user);
    await waitFor(() => expect(useWizardStore.getState().status).toBe('running'));
    expect((screen.getByRole('button', { name: /Target: T7/ }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByTestId('nav-quick'));
    const quick = screen.getByRole('tabpanel', { name: 'Quick Test' });
    expect(text(quick)).toContain('A format-and-compare plan is running. Stop it or wait for it to finish.');
    expect((within(quick).getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByTestId('nav-hash'));
    expect((screen.getByTestId('hash-start') as HTMLButtonElement).disabled).toBe(true);
    expect(text(screen.getByTestId('hash-status'))).toContain('A format-and-compare plan is running.');
  });

  it('while another screen’s test runs, the wizard cannot start and says why', async () => {
    const { user } = await renderWizard();
    act(() => useQuickTestStore.setState({ status: 'running', job: { jobId: 'job-1' } }));
    await confirmPlanOnT7(user, ['ext4']);
    expect((screen.getByTestId('wizard-start') as HTMLButtonElement).disabled).toBe(true);
    expect(text(screen.getByTestId('wizard'))).toContain('A Quick Test is running. Stop it or wait for it to finish.');
  });
});
