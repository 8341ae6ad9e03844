// The Hash screen as a whole, with a fake bridge: its tab; Stop sends the job id (also when
// pressed before the start was answered); a failure or a refused start shows its error; one test
// at a time across Quick, Detailed and Hash; events of other jobs are ignored and early events
// are kept until the job id says they are ours; listeners go with the screen.
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcResult } from '@ipc/contract';
import { useHashStore } from '../../../../renderer/src/features/hash/store';
import { JOB as DJOB, cdmDoc } from '../../helpers/detailed-fixtures';
import { createFakeBridge, progress as quickProgress } from '../../helpers/fake-bridge';
import { HJOB, cpuBoundDoc, hashProgress, hashStage, renderHash, stagesOf } from '../../helpers/hash-fixtures';
import { resetStores } from '../../helpers/reset-stores';

const hashStart = () => screen.getByTestId('hash-start') as HTMLButtonElement;
const picker = () => screen.getByRole('button', { name: /Target: T7/ }) as HTMLButtonElement;
const reasonOf = (b: HTMLElement) => document.getElementById(b.getAttribute('aria-describedby') ?? '')?.textContent;

async function renderWithPath(fake = createFakeBridge()) {
  const r = await renderHash(fake);
  await r.user.type(screen.getByLabelText('File'), '/data/big.iso');
  return r;
}

describe('Hash screen', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('has its own tab; arrow keys reach it; the brand says which screen', async () => {
    const { user } = await renderHash();
    const tab = screen.getByTestId('nav-hash');
    expect(tab.textContent).toBe('Hash');
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('brand-tag').textContent).toBe('Hash');
    expect(screen.getByRole('tabpanel', { name: 'Hash' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Hash' })).toBeTruthy();
    await user.click(screen.getByTestId('nav-quick'));
    screen.getByTestId('nav-quick').focus();
    // End: the last tab (History); ArrowLeft three times steps back past Compare setups and
    // Format & compare to Hash; ArrowRight four times wraps to the first.
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByTestId('nav-history'));
    await user.keyboard('{ArrowLeft}{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement).toBe(tab);
    expect(tab.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(screen.getByTestId('nav-quick').getAttribute('aria-selected')).toBe('true');
  });

  it('Stop sends stopHash with the job id; a stopped test keeps what finished', async () => {
    const { fake, user } = await renderWithPath();
    await user.click(hashStart());
    expect(hashStart().textContent).toBe('Stop the hash test');
    act(() => fake.emitHashStage(stagesOf(cpuBoundDoc())[0]!));
    await user.click(hashStart());
    expect(fake.hashCalls.stop).toEqual([HJOB]);
    expect(hashStart().textContent).toMatch(/^Stopping…/);
    expect(hashStart().disabled).toBe(true);
    expect(screen.getByTestId('hash-status').textContent).toBe('Stopping…');
    act(() => fake.emitHashDone({ jobId: HJOB, outcome: 'stopped' }));
    expect(hashStart().textContent).toMatch(/^Start/);
    expect(screen.getByTestId('hash-status').textContent).toBe('Stopped. What finished before the stop is shown below.');
    expect(screen.getByTestId('hash-bar-read').querySelector('.hash-bar__value')!.textContent).toBe('6,500 MB/s');
    expect(screen.getByTestId('hash-lead').textContent).toBe('Stopped before the end: no verdict.');
  });

  it('stopping a generated test file says it is removed', async () => {
    const { fake, user } = await renderHash();
    await user.click(screen.getByTestId('hash-source-generate'));
    await user.click(hashStart());
    await user.click(hashStart());
    expect(screen.getByTestId('hash-status').textContent).toBe('Stopping and removing the test file…');
    act(() => fake.emitHashDone({ jobId: HJOB, outcome: 'stopped' }));
    // Nothing had finished: the line does not point at figures that are not there.
    expect(screen.getByTestId('hash-status').textContent).toBe('Stopped before any step finished. The test file was removed.');
  });

  it('a long hash says about how long is left, from what was done so far', async () => {
    const fake = createFakeBridge();
    const { user } = await renderWithPath(fake);
    await user.click(hashStart());
    // A minute in, half-way through step 2 of 4: 37.5 % done, so about 100 s ≈ 2 min left.
    act(() => useHashStore.setState({ job: { ...useHashStore.getState().job!, startedAt: Date.now() - 60_000 } }));
    act(() => fake.emitHashProgress(hashProgress({ stage: 'read-hash', stageIndex: 1, bytesDone: 8_406_151_168 })));
    await waitFor(() => expect(screen.getByTestId('hash-status').textContent).toMatch(/^Step 2 of 4 · .* · about 2 min left$/));
  });

  it('a Stop pressed before the start is answered reaches the core once the job id arrives; early events are kept', async () => {
    const fake = createFakeBridge();
    let answer!: (r: IpcResult<{ jobId: string }>) => void;
    fake.bridge.startHash = (s) => {
      fake.hashCalls.start.push(s);
      return new Promise((resolve) => (answer = resolve));
    };
    const { user } = await renderWithPath(fake);
    await user.click(hashStart());
    expect(screen.getByTestId('hash-status').textContent).toBe('Starting…');
    // Events may come before the answer: held until the job id says they are ours.
    act(() => {
      fake.emitHashProgress(hashProgress({ jobId: 'hjob-7', avgMBps: 6000 }));
      fake.emitHashStage(hashStage('read', 6500, { jobId: 'hjob-7' }));
      fake.emitHashStage(hashStage('read', 10, { jobId: 'not-ours' }));
    });
    expect(useHashStore.getState().job!.stages).toHaveLength(0);
    await user.click(hashStart());
    expect(fake.hashCalls.stop).toEqual([]);
    await act(async () => answer({ ok: true, value: { jobId: 'hjob-7' } }));
    expect(fake.hashCalls.stop).toEqual(['hjob-7']);
    expect(useHashStore.getState().job!.stages.map((s) => s.mbps)).toEqual([6500]);
    expect(useHashStore.getState().job!.progress?.avgMBps).toBe(6000);
  });

  it('a failed test shows the error in plain words in an alert; the next start clears it', async () => {
    const { fake, user } = await renderWithPath();
    await user.click(hashStart());
    act(() =>
      fake.emitHashDone({
        jobId: HJOB,
        outcome: 'failed',
        error: { code: 'ENOENT', message: 'open(2) failed, ENOENT: /data/big.iso does not exist.' },
      }),
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('open(2) failed, ENOENT: /data/big.iso does not exist.');
    expect(screen.getByTestId('hash-status').textContent).toBe('Failed before any step finished.');
    expect(hashStart().disabled).toBe(false);
    await user.click(hashStart());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a failure without words still says something', async () => {
    const { fake, user } = await renderWithPath();
    await user.click(hashStart());
    act(() => fake.emitHashDone({ jobId: HJOB, outcome: 'failed' }));
    expect(screen.getByRole('alert').textContent).toBe('The test failed.');
  });

  it('a refused start (busy) says so and leaves the screen ready', async () => {
    const fake = createFakeBridge();
    fake.bridge.startHash = () => Promise.resolve({ ok: false, error: { code: 'ERR_BUSY', message: '' } });
    const { user } = await renderWithPath(fake);
    await user.click(hashStart());
    expect(screen.getByRole('alert').textContent).toBe('Another test is running. Stop it or wait for it to finish, then start this one.');
    expect(hashStart().textContent).toMatch(/^Start/);
    expect(useHashStore.getState().status).toBe('idle');
  });

  it('while a Quick Test runs, the hash Start is disabled with the reason', async () => {
    const { fake, user } = await renderWithPath();
    await user.click(screen.getByTestId('nav-quick'));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    act(() => fake.emitProgress(quickProgress()));
    await user.click(screen.getByTestId('nav-hash'));
    expect(hashStart().disabled).toBe(true);
    expect(reasonOf(hashStart())).toBe('A Quick Test is running. Stop it or wait for it to finish.');
    act(() => fake.emitDone({ jobId: 'job-1', outcome: 'stopped' }));
    expect(hashStart().disabled).toBe(false);
  });

  it('while a detailed test runs, the hash Start is disabled with the reason', async () => {
    const { fake, user } = await renderWithPath();
    await user.click(screen.getByTestId('nav-detailed'));
    await user.click(screen.getByTestId('cdm-start'));
    await user.click(screen.getByTestId('nav-hash'));
    expect(hashStart().disabled).toBe(true);
    expect(reasonOf(hashStart())).toBe('A detailed test is running. Stop it or wait for it to finish.');
    act(() => fake.emitDetailedDone({ jobId: DJOB, outcome: 'finished', result: cdmDoc() }));
    expect(hashStart().disabled).toBe(false);
  });

  it('while a hash test runs: the target picker, the Quick Test and every detailed Start are locked', async () => {
    const { fake, user } = await renderWithPath();
    await user.click(hashStart());
    expect(picker().disabled).toBe(true);
    const reason = 'A hash test is running. Stop it or wait for it to finish.';

    await user.click(screen.getByTestId('nav-quick'));
    const quickStart = screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement;
    expect(quickStart.disabled).toBe(true);
    expect(screen.getByText(reason)).toBeTruthy();

    await user.click(screen.getByTestId('nav-detailed'));
    for (const kind of ['cdm', 'sustained', 'files']) {
      const b = screen.getByTestId(`${kind}-start`) as HTMLButtonElement;
      expect(b.disabled).toBe(true);
      expect(reasonOf(b)).toBe(reason);
    }

    act(() => {
      for (const s of stagesOf(cpuBoundDoc())) fake.emitHashStage(s);
      fake.emitHashDone({ jobId: HJOB, outcome: 'finished', result: cpuBoundDoc() });
    });
    expect(picker().disabled).toBe(false);
    expect((screen.getByTestId('cdm-start') as HTMLButtonElement).disabled).toBe(false);
    await user.click(screen.getByTestId('nav-quick'));
    expect(quickStart.disabled).toBe(false);
  });

  it('a hash test keeps running, and receiving events, while another screen is shown', async () => {
    const { fake, user } = await renderWithPath();
    await user.click(hashStart());
    await user.click(screen.getByTestId('nav-quick'));
    act(() => {
      for (const s of stagesOf(cpuBoundDoc())) fake.emitHashStage(s);
      fake.emitHashDone({ jobId: HJOB, outcome: 'finished', result: cpuBoundDoc() });
    });
    await user.click(screen.getByTestId('nav-hash'));
    expect(screen.getByTestId('hash-bound').textContent).toBe('CPU-bound');
  });

  it('events of another job are ignored, and nothing arrives for a job once it has ended', async () => {
    const { fake, user } = await renderWithPath();
    await user.click(hashStart());
    const other = { jobId: 'someone-else' };
    act(() => {
      fake.emitHashProgress(hashProgress({ ...other, avgMBps: 999 }));
      fake.emitHashStage(hashStage('read', 999, other));
      fake.emitHashDone({ ...other, outcome: 'failed', error: { code: 'EIO', message: 'Not ours.' } });
    });
    const job = useHashStore.getState().job!;
    expect(job.progress).toBeNull();
    expect(job.stages).toHaveLength(0);
    expect(useHashStore.getState().status).toBe('running');
    expect(screen.getByTestId('hash-bar-read').querySelector('.hash-bar__value')!.textContent).toBe('—');
    expect(screen.queryByText('Not ours.')).toBeNull();

    act(() => fake.emitHashDone({ jobId: HJOB, outcome: 'stopped' }));
    act(() => fake.emitHashStage(hashStage('read', 6500)));
    expect(useHashStore.getState().job!.stages).toHaveLength(0);
  });

  it('subscribes once, and unsubscribes from bridge events on unmount', async () => {
    const { fake, user } = await renderHash();
    expect(fake.hashListeners()).toBe(3);
    await user.click(screen.getByTestId('nav-quick'));
    await user.click(screen.getByTestId('nav-hash'));
    expect(fake.hashListeners()).toBe(3);
    resetStores();
    expect(fake.hashListeners()).toBe(0);
  });
});
