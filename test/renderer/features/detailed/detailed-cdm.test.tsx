// The CrystalDiskMark panel with a fake bridge: Start sends exactly the settings the controls
// show (and the contract accepts them); plan and step events fill the right cells live, the
// cell being measured is highlighted; the unit switch changes every figure; a finished
// document shows the best run big and the median from its summary.
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MiB } from '../../../../renderer/src/features/detailed/form-rules';
import { cdmDoc, JOB, plan, progress, renderDetailed, step } from '../../helpers/detailed-fixtures';
import { resetStores } from '../../helpers/reset-stores';
import { DetailedSettings } from '@model/settings';
import { retype } from '../../helpers/dom';

const cell = (row: string, col: string) => screen.getByTestId(`cdm-cell-${row}-${col}`);
const big = (row: string, col: string) => cell(row, col).querySelector('.cdm-cell__big')!.textContent;

describe('CrystalDiskMark panel', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('Start sends exactly the settings the controls show', async () => {
    const { fake, user } = await renderDetailed();
    // CrystalDiskMark's defaults first.
    expect((screen.getByTestId('cdm-runs') as HTMLSelectElement).value).toBe('5');
    expect(screen.getByRole('option', { name: '1 GiB', selected: true })).toBeTruthy();
    await user.selectOptions(screen.getByTestId('cdm-runs'), '3');
    await user.selectOptions(screen.getByTestId('cdm-size'), String(64 * MiB));
    await user.selectOptions(screen.getByTestId('cdm-preset'), 'nvme');
    await user.selectOptions(screen.getByTestId('cdm-mode'), 'all');
    await user.selectOptions(screen.getByTestId('cdm-seconds'), '10');
    await user.selectOptions(screen.getByTestId('cdm-interval'), '0');
    await retype(user, 'cdm-rest', '2');
    await user.click(screen.getByTestId('cdm-start'));

    const sent = {
      kind: 'cdm',
      target: '/media/t7',
      preset: 'nvme',
      mode: 'all',
      sizeBytes: 64 * MiB,
      seconds: 10,
      intervalSeconds: 0,
      runs: 3,
      restSeconds: 120,
    };
    expect(fake.calls.detailedStart).toEqual([sent]);
    expect(DetailedSettings.parse(fake.calls.detailedStart[0])).toEqual(sent);
    // Running: the button stops, the settings are locked, the grid is the NVMe profile in All mode.
    expect(screen.getByTestId('cdm-start').textContent).toMatch(/^Stop/);
    expect((screen.getByTestId('cdm-size') as HTMLSelectElement).matches(':disabled')).toBe(true);
    expect(cell('RND4K-Q32T16', 'mix').textContent).toBe('—');
  });

  it('the grid before a run follows the chosen profile and mode', async () => {
    const { user } = await renderDetailed();
    expect(screen.getAllByRole('row')).toHaveLength(5); // header + 4 rows of Default
    expect(screen.queryByTestId('cdm-cell-SEQ1M-Q8T1-mix')).toBeNull();
    await user.selectOptions(screen.getByTestId('cdm-preset'), 'peak');
    await user.selectOptions(screen.getByTestId('cdm-mode'), 'write');
    expect(screen.getByTestId('cdm-cell-RND4K-Q32T1-write').textContent).toBe('—');
    expect(screen.queryByTestId('cdm-cell-RND4K-Q32T1-read')).toBeNull();
    expect(screen.queryByTestId('cdm-cell-SEQ1M-Q1T1-write')).toBeNull();
  });

  it('plan and step events fill the right cells live; the measured cell is highlighted', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('cdm-start'));
    const doc = cdmDoc();
    const run1 = doc.tests.filter((t) => t.run === 1);
    act(() => fake.emitDetailedPlan(plan({ runs: 2, steps: run1.map((t) => t.name), bytes: 64 * MiB })));
    act(() => fake.emitDetailedProgress(progress({ runs: 2, testName: 'SEQ1M Q8T1 Read', elapsed: 2.5, secondsTotal: 5 })));
    expect(cell('SEQ1M-Q8T1', 'read').className).toMatch(/cdm-cell--active/);
    expect(cell('SEQ1M-Q8T1', 'read').querySelector<HTMLElement>('.cdm-cell__bar')!.style.transform).toBe('scaleX(0.5)');
    // Time left joins once the job looks longer than 10 s, which depends on how long this machine
    // took between Start and the event (3 % done): either form is right.
    expect(screen.getByTestId('cdm-status').textContent).toMatch(
      /^SEQ1M Q8T1 Read · measuring · test 1 of 8 · run 1 of 2( · about \d+ (s|min) left)?$/,
    );
    expect(screen.getByRole('progressbar', { name: /CrystalDiskMark/ }).getAttribute('aria-valuenow')).toBe('3.1');

    act(() => fake.emitDetailedStep(step(run1[0]!)));
    // SEQ1M Q8T1 Read, run 1: 1669.67 MB/s, 1592.3 IOPS, mean 4994 µs, p50 4882 µs, p99 7766 µs, p99.9 8454 µs.
    const c = cell('SEQ1M-Q8T1', 'read');
    expect(big('SEQ1M-Q8T1', 'read')).toBe('1,670');
    for (const text of ['1,592', '4.99 ms', '4.88 ms', '7.77 ms', '8.45 ms']) expect(c.textContent).toContain(text);
    expect(c.textContent).not.toContain('median');
    expect(big('SEQ1M-Q8T1', 'write')).toBe('—');
    expect(big('SEQ1M-Q1T1', 'read')).toBe('—');

    // The next step is measured: the highlight moves on.
    act(() => fake.emitDetailedProgress(progress({ runs: 2, testIndex: 1, testName: 'SEQ1M Q1T1 Read' })));
    expect(cell('SEQ1M-Q8T1', 'read').className).not.toMatch(/active/);
    expect(cell('SEQ1M-Q1T1', 'read').className).toMatch(/cdm-cell--active/);

    // Run 2 of the same test was slower: the best so far stays, the median appears.
    const run2 = doc.tests.find((t) => t.run === 2 && t.name === 'SEQ1M Q8T1 Read')!;
    act(() => fake.emitDetailedStep(step(run2, { run: 2 })));
    expect(big('SEQ1M-Q8T1', 'read')).toBe('1,670');
    expect(cell('SEQ1M-Q8T1', 'read').querySelector('.cdm-cell__median')!.textContent).toBe('median 1,648');
  });

  it('the unit switch changes the figures: MB/s, GB/s, IOPS, µs', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('cdm-start'));
    act(() => fake.emitDetailedStep(step(cdmDoc().tests[0]!)));
    expect(big('SEQ1M-Q8T1', 'read')).toBe('1,670');
    expect(screen.getByRole('columnheader', { name: /Read \(MB\/s\)/ })).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: 'GB/s' }));
    expect(big('SEQ1M-Q8T1', 'read')).toBe('1.670');
    expect(screen.getByRole('columnheader', { name: /Read \(GB\/s\)/ })).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: 'IOPS' }));
    expect(big('SEQ1M-Q8T1', 'read')).toBe('1,592');
    // With IOPS big, the MB/s goes underneath instead.
    expect(cell('SEQ1M-Q8T1', 'read').querySelector('dl')!.textContent).toContain('MB/s1,670');

    await user.click(screen.getByRole('radio', { name: 'µs' }));
    expect(big('SEQ1M-Q8T1', 'read')).toBe('4,994');
    expect(screen.getByRole('radio', { name: 'µs' }).getAttribute('aria-checked')).toBe('true');
  });

  it('a finished document: best of the runs big, the median from its summary, cache mode shown', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('cdm-start'));
    const doc = cdmDoc();
    // The summary is the document's word on the spread: make its median differ from the tests' to prove it is used.
    doc.summary![0]!.mbps.median = 1650.2;
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: doc }));

    expect(screen.getByTestId('cdm-start').textContent).toMatch(/^Start/);
    expect(big('SEQ1M-Q8T1', 'read')).toBe('1,670');
    expect(cell('SEQ1M-Q8T1', 'read').querySelector('.cdm-cell__median')!.textContent).toBe('median 1,650');
    // SEQ1M Q1T1 Read: run 2 was the best (1603.36 MB/s), median 1598.5.
    expect(big('SEQ1M-Q1T1', 'read')).toBe('1,603');
    expect(cell('SEQ1M-Q1T1', 'read').querySelector('.cdm-cell__median')!.textContent).toBe('median 1,599');
    await user.click(screen.getByRole('radio', { name: 'µs' }));
    // Best latency is the lowest mean: SEQ1M Q8T1 Read 4994 (run 1) against 5130 (run 2); median 5062.
    expect(big('SEQ1M-Q8T1', 'read')).toBe('4,994');
    expect(cell('SEQ1M-Q8T1', 'read').querySelector('.cdm-cell__median')!.textContent).toBe('median 5,062');
    await user.click(screen.getByRole('radio', { name: 'IOPS' }));
    expect(big('SEQ1M-Q8T1', 'read')).toBe('1,592');
    expect(cell('SEQ1M-Q8T1', 'read').querySelector('.cdm-cell__median')!.textContent).toBe('median 1,572');

    expect(screen.getByText(/Best of 2 runs/)).toBeTruthy();
    expect(screen.getByTestId('cdm-status').textContent).toBe('Done · 2 runs');
    expect(within(screen.getByTestId('cdm-meta')).getByTestId('cdm-cache-badge').textContent).toMatch(/direct I\/O · random data/);
    expect(screen.queryByTestId('cdm-flags')).toBeNull();
  });

  it('offers the Fast profile (Default’s tests under the stop rule) and sends it with Start', async () => {
    const { fake, user } = await renderDetailed();
    expect(screen.getByRole('option', { name: 'Fast (± 3 %)' })).toBeTruthy();
    await user.selectOptions(screen.getByTestId('cdm-preset'), 'fast');
    expect(screen.getAllByRole('row')).toHaveLength(5); // header + Default's 4 rows
    await user.click(screen.getByTestId('cdm-start'));
    expect(fake.calls.detailedStart[0]).toMatchObject({ kind: 'cdm', preset: 'fast' });
    expect(DetailedSettings.parse(fake.calls.detailedStart[0])).toMatchObject({ preset: 'fast' });
  });

  it('each cell shows its run’s 95 % interval and how the stop rule ended it', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('cdm-start'));
    const [first, second] = cdmDoc().tests;
    const settled = { ...first!, seconds: 1.43, settle: { precision: 0.03, settled: true } };
    settled.interval = { halfWidth: 0.018 * first!.mbps, relative: 0.018, method: 'series' as const, n: 14, batchLength: 1 };
    act(() => fake.emitDetailedStep(step(settled)));
    act(() => fake.emitDetailedStep(step({ ...second!, interval: { halfWidth: 1, relative: 0.012, method: 'series', n: 10 } })));
    const precision = (row: string) => cell(row, 'read').querySelector('.cdm-cell__precision')?.textContent;
    expect(precision('SEQ1M-Q8T1')).toBe('settled in 1.4 s: ± 1.8 %');
    expect(precision('SEQ1M-Q1T1')).toBe('± 1.2 %');
    // Latency (µs) is not the rate the interval is of: no interval under it.
    await user.click(screen.getByRole('radio', { name: 'µs' }));
    expect(precision('SEQ1M-Q8T1')).toBeUndefined();
  });

  it('a finished document’s flags are listed in the panel', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('cdm-start'));
    const doc = cdmDoc();
    doc.cacheMode = 'buffered';
    doc.flags = [
      {
        code: 'cache-not-direct',
        message: 'Direct I/O was refused; the OS cache was involved.',
        fix: 'Use a file system that supports direct I/O.',
      },
    ];
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: doc }));
    const flags = screen.getByTestId('cdm-flags');
    expect(flags.textContent).toContain('1 thing may make these figures not the disk’s alone');
    expect(flags.textContent).toContain('Direct I/O was refused');
    expect(screen.getByTestId('cdm-cache-badge').className).toMatch(/badge--warn/);
  });
});
