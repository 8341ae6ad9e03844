// The Detailed screen as a whole, with a fake bridge: the tabs switch screens (mouse and arrow
// keys); Stop sends the job id (also when pressed before the start was answered); a failure or
// a refused start shows its error; one test at a time across Quick and Detailed; events of other
// jobs are ignored; listeners go with the screen; the three panels show their results together.
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcResult } from '@ipc/contract';
import { useDetailedStore } from '../../../../renderer/src/features/detailed/store';
import { createFakeBridge, progress as quickProgress } from '../../helpers/fake-bridge';
import { cdmDoc, filesDoc, JOB, kneeDoc, plan, progress, renderDetailed, step } from '../../helpers/detailed-fixtures';
import { resetStores } from '../../helpers/reset-stores';

const startButton = (kind: string) => screen.getByTestId(`${kind}-start`) as HTMLButtonElement;

describe('Detailed screen', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('the tabs switch screens, and the brand says which', async () => {
    const { user } = await renderDetailed();
    const detailed = screen.getByTestId('nav-detailed');
    const quick = screen.getByTestId('nav-quick');
    expect(screen.getByRole('tablist', { name: 'Screens' })).toBeTruthy();
    expect(detailed.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('brand-tag').textContent).toBe('Detailed');
    expect(screen.getByRole('tabpanel', { name: 'Detailed' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'CrystalDiskMark' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start' })).toBeNull(); // the Quick Test's Start is hidden

    await user.click(quick);
    expect(quick.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('brand-tag').textContent).toBe('Quick Test');
    expect(screen.getByRole('button', { name: 'Start' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'CrystalDiskMark' })).toBeNull();

    // Arrow keys move between tabs and focus follows.
    quick.focus();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(detailed);
    expect(detailed.getAttribute('aria-selected')).toBe('true');
    expect(detailed.tabIndex).toBe(0);
    expect(quick.tabIndex).toBe(-1);
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(quick);
  });

  it('keyboard: Tab reaches a panel’s Start and Enter starts it', async () => {
    const { fake, user } = await renderDetailed();
    const start = startButton('cdm');
    for (let i = 0; i < 40 && document.activeElement !== start; i++) await user.tab();
    expect(document.activeElement).toBe(start);
    await user.keyboard('{Enter}');
    expect(fake.calls.detailedStart).toHaveLength(1);
  });

  it('Stop sends stopDetailed with the job id; a stopped grid keeps what finished', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(startButton('cdm'));
    const doc = cdmDoc();
    act(() => fake.emitDetailedStep(step(doc.tests[0]!)));
    expect(startButton('cdm').textContent).toBe('Stop the CrystalDiskMark test');
    await user.click(startButton('cdm'));
    expect(fake.calls.detailedStop).toEqual([JOB]);
    expect(startButton('cdm').textContent).toMatch(/^Stopping…/);
    expect(startButton('cdm').disabled).toBe(true);
    expect(screen.getByTestId('cdm-status').textContent).toBe('Stopping and removing the test files…');
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'stopped' }));
    expect(startButton('cdm').textContent).toMatch(/^Start/);
    expect(screen.getByTestId('cdm-status').textContent).toMatch(/^Stopped/);
    expect(screen.getByTestId('cdm-cell-SEQ1M-Q8T1-read').querySelector('.cdm-cell__big')!.textContent).toBe('1,670');
  });

  it('pauses are shown as they run down; a screen reader hears the step, not each second', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(startButton('cdm'));
    const live = () => screen.getByTestId('cdm-panel').querySelector('[aria-live="polite"]')!.textContent;
    act(() =>
      fake.emitDetailedProgress(
        progress({ runs: 5, testIndex: 1, testName: 'SEQ1M Q1T1 Read', stage: 'interval', secondsTotal: 5, remaining: 5 }),
      ),
    );
    expect(screen.getByTestId('cdm-status').textContent).toMatch(/^pause 5 s · test 2 of 8 · run 1 of 5( · about \d+ (s|min) left)?$/);
    // No cell is being measured during a pause.
    expect(screen.getByTestId('cdm-panel').querySelector('.cdm-cell--active')).toBeNull();
    act(() => fake.emitDetailedProgress(progress({ run: 2, runs: 5, stage: 'rest', secondsTotal: 300, remaining: 252 })));
    expect(screen.getByTestId('cdm-status').textContent).toBe('Resting 4:12 before run 2');
    expect(live()).toBe('Resting before run 2');
    act(() => fake.emitDetailedProgress(progress({ run: 2, runs: 5, stage: 'rest', secondsTotal: 300, remaining: 251 })));
    expect(screen.getByTestId('cdm-status').textContent).toBe('Resting 4:11 before run 2');
    expect(live()).toBe('Resting before run 2');
  });

  it('a Stop pressed before the start is answered reaches the core once the job id arrives', async () => {
    const fake = createFakeBridge();
    let answer!: (r: IpcResult<{ jobId: string }>) => void;
    fake.bridge.startDetailed = (s) => {
      fake.calls.detailedStart.push(s);
      return new Promise((resolve) => (answer = resolve));
    };
    const { user } = await renderDetailed(fake);
    await user.click(startButton('sustained'));
    expect(screen.getByTestId('sustained-status').textContent).toBe('Starting…');
    await user.click(startButton('sustained'));
    expect(fake.calls.detailedStop).toEqual([]);
    // The plan may come before the answer: it is kept until the job id says it is ours.
    act(() => fake.emitDetailedPlan(plan({ jobId: 'djob-7', kind: 'sustained', bytes: 50e9, steps: ['SEQ1M Q8T1 Sustained Write'] })));
    await act(async () => answer({ ok: true, value: { jobId: 'djob-7' } }));
    expect(fake.calls.detailedStop).toEqual(['djob-7']);
    expect(useDetailedStore.getState().job?.plan?.bytes).toBe(50e9);
  });

  it('a failed run shows the error in plain words in its panel', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(startButton('sustained'));
    act(() =>
      fake.emitDetailedDone({
        jobId: JOB,
        outcome: 'failed',
        error: { code: 'ENOSPC', message: 'The disk is full: 0 B free, 13.5 GB kept in reserve.' },
      }),
    );
    const alert = within(screen.getByTestId('sustained-panel')).getByRole('alert');
    expect(alert.textContent).toBe('The disk is full: 0 B free, 13.5 GB kept in reserve.');
    expect(within(screen.getByTestId('cdm-panel')).queryByRole('alert')).toBeNull();
    expect(startButton('sustained').disabled).toBe(false);
    // The next start clears it.
    await user.click(startButton('sustained'));
    expect(within(screen.getByTestId('sustained-panel')).queryByRole('alert')).toBeNull();
  });

  it('a refused start (busy) says so and leaves the panel ready', async () => {
    const fake = createFakeBridge();
    fake.bridge.startDetailed = () => Promise.resolve({ ok: false, error: { code: 'ERR_BUSY', message: '' } });
    const { user } = await renderDetailed(fake);
    await user.click(startButton('files'));
    expect(within(screen.getByTestId('files-panel')).getByRole('alert').textContent).toBe(
      'Another test is running. Stop it or wait for it to finish, then start this one.',
    );
    expect(startButton('files').textContent).toMatch(/^Start/);
    expect(useDetailedStore.getState().status).toBe('idle');
  });

  it('while a Quick Test runs, every detailed Start is disabled with the reason', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('nav-quick'));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    act(() => fake.emitProgress(quickProgress()));
    await user.click(screen.getByTestId('nav-detailed'));
    for (const kind of ['cdm', 'sustained', 'files']) {
      const b = startButton(kind);
      expect(b.disabled).toBe(true);
      expect(document.getElementById(b.getAttribute('aria-describedby')!)!.textContent).toBe(
        'A Quick Test is running. Stop it or wait for it to finish.',
      );
    }
    act(() => fake.emitDone({ jobId: 'job-1', outcome: 'stopped' }));
    expect(startButton('cdm').disabled).toBe(false);
  });

  it('while a detailed test runs: the target picker, the Quick Test and the other panels are locked', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(startButton('cdm'));
    expect((screen.getByRole('button', { name: /Target: T7/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(startButton('sustained').disabled).toBe(true);
    expect(document.getElementById(startButton('files').getAttribute('aria-describedby')!)!.textContent).toBe(
      'Wait for the CrystalDiskMark test to finish, or stop it.',
    );
    // The other panels' settings stay editable (for the next run); the running one's are locked.
    expect(screen.getByTestId('sustained-runs').matches(':disabled')).toBe(false);
    expect(screen.getByTestId('cdm-runs').matches(':disabled')).toBe(true);

    await user.click(screen.getByTestId('nav-quick'));
    const quickStart = screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement;
    expect(quickStart.disabled).toBe(true);
    expect(screen.getByText('A detailed test is running. Stop it or wait for it to finish.')).toBeTruthy();

    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: cdmDoc() }));
    expect(quickStart.disabled).toBe(false);
    expect((screen.getByRole('button', { name: /Target: T7/ }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('events of another job are ignored', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(startButton('cdm'));
    const other = { jobId: 'someone-else' };
    act(() => {
      fake.emitDetailedPlan(plan({ ...other, steps: ['SEQ1M Q8T1 Read'] }));
      fake.emitDetailedProgress(progress(other));
      fake.emitDetailedStep(step(cdmDoc().tests[0]!, other));
      fake.emitDetailedDone({ ...other, outcome: 'failed', error: { code: 'EIO', message: 'Not ours.' } });
    });
    const job = useDetailedStore.getState().job!;
    expect(job.plan).toBeNull();
    expect(job.progress).toBeNull();
    expect(job.steps).toHaveLength(0);
    expect(useDetailedStore.getState().status).toBe('running');
    expect(screen.getByTestId('cdm-cell-SEQ1M-Q8T1-read').textContent).toBe('—');
    expect(screen.queryByText('Not ours.')).toBeNull();
    // …and nothing arrives for a job once it has ended.
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'stopped' }));
    act(() => fake.emitDetailedStep(step(cdmDoc().tests[0]!)));
    expect(useDetailedStore.getState().job!.steps).toHaveLength(0);
  });

  it('the three panels show their last results at once', async () => {
    const { fake, user } = await renderDetailed();
    const runs: Array<[string, ReturnType<typeof cdmDoc>]> = [
      ['cdm', cdmDoc()],
      ['sustained', kneeDoc()],
      ['files', filesDoc()],
    ];
    for (const [kind, doc] of runs) {
      fake.bridge.startDetailed = (s) => (fake.calls.detailedStart.push(s), Promise.resolve({ ok: true, value: { jobId: `job-${kind}` } }));
      await user.click(startButton(kind));
      act(() => fake.emitDetailedDone({ jobId: `job-${kind}`, outcome: 'finished', result: doc }));
    }
    expect(screen.getByTestId('cdm-cell-SEQ1M-Q8T1-read').querySelector('.cdm-cell__big')!.textContent).toBe('1,670');
    expect(screen.getByTestId('sustained-verdict').textContent).toBe('Fast cache ≈ 12.4 GB, then 800 MB/s (−73 %)');
    expect(screen.getByTestId('files-scatter-write').querySelectorAll('.recharts-scatter-symbol')).toHaveLength(24);
    for (const kind of ['cdm', 'sustained', 'files']) expect(screen.getByTestId(`${kind}-cache-badge`)).toBeTruthy();
  });

  it('unsubscribes from bridge events on unmount', async () => {
    const { fake } = await renderDetailed();
    // The Detailed screen's four, and the Quick Test screen's end-of-test listener (a paced test
    // launched from its result decides its rows).
    expect(fake.detailedListeners()).toBe(5);
    resetStores();
    expect(fake.detailedListeners()).toBe(0);
  });
});
