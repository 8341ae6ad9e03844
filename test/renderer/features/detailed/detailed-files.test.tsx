// The many-file panel: the settings it sends (a preset, or a custom set checked before it is
// sent); a point per finished file on the right scatter, live; after the run the Theil–Sen line
// over the points and each pass's table with the document's figures; a scaled-down set said
// prominently.
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filesDoc, JOB, plan, progress, renderDetailed, step } from '../../helpers/detailed-fixtures';
import { resetStores } from '../../helpers/reset-stores';
import { DetailedSettings } from '@model/settings';
import { retype } from '../../helpers/dom';

const points = (pass: 'write' | 'read') => screen.getByTestId(`files-scatter-${pass}`).querySelectorAll('.recharts-scatter-symbol');
const row = (pass: 'write' | 'read', label: string) =>
  within(screen.getByTestId(`files-stats-${pass}`)).getByRole('row', { name: new RegExp(`^${label}`) });

describe('Many-file panel', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('Start sends the preset; Standard is Stibium’s set', async () => {
    const { fake, user } = await renderDetailed();
    expect(screen.getByText('40 files, 2–600 MB, ≈ 5 GB')).toBeTruthy();
    await user.click(within(screen.getByTestId('files-panel')).getByRole('radio', { name: 'Standard' }));
    expect(screen.getByText(/160 files, 2 MB – 2 GB, ≈ 53 GB/)).toBeTruthy();
    await user.click(screen.getByTestId('files-start'));
    const sent = { kind: 'files', target: '/media/t7', preset: 'standard', runs: 1, restSeconds: 0 };
    expect(fake.calls.detailedStart).toEqual([sent]);
    expect(DetailedSettings.parse(fake.calls.detailedStart[0])).toEqual(sent);
  });

  it('a custom set: count and sizes are checked, then sent in bytes', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    await retype(user, 'files-min', '500');
    await retype(user, 'files-max', '100');
    expect(within(screen.getByTestId('files-panel')).getByRole('alert').textContent).toBe(
      'The largest file cannot be smaller than the smallest.',
    );
    expect((screen.getByTestId('files-start') as HTMLButtonElement).disabled).toBe(true);

    await retype(user, 'files-min', '2.5');
    await retype(user, 'files-count', '24');
    await retype(user, 'files-runs', '2');
    await retype(user, 'files-rest', '1.5');
    await user.click(screen.getByTestId('files-start'));
    const sent = {
      kind: 'files',
      target: '/media/t7',
      preset: 'custom',
      count: 24,
      minBytes: 2.5e6,
      maxBytes: 100e6,
      runs: 2,
      restSeconds: 90,
    };
    expect(fake.calls.detailedStart).toEqual([sent]);
    expect(DetailedSettings.parse(fake.calls.detailedStart[0])).toEqual(sent);
  });

  it('one point per finished file on its pass’s scatter, live', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('files-start'));
    const doc = filesDoc();
    const items = doc.files!.runs[0]!.items;
    const set = items.map((i) => ({ name: i.name, bytes: i.bytes }));
    act(() => fake.emitDetailedPlan(plan({ kind: 'files', steps: [], bytes: doc.files!.totalBytes, files: set })));
    expect(screen.getByText(/24 files, 3\.1 MB – 168 MB, 1\.4 GB in all/)).toBeTruthy();
    const fileStep = (k: number, pass: 'write' | 'read') => {
      const it = items[k]!;
      const test = { ...doc.tests[pass === 'write' ? 0 : 1]!, mbps: it[pass]!.mbps, bytes: it.bytes };
      return step(test, { kind: 'files', testIndex: k, file: { name: it.name, bytes: it.bytes, pass } });
    };
    for (let k = 0; k < 7; k++) act(() => fake.emitDetailedStep(fileStep(k, 'write')));
    act(() =>
      fake.emitDetailedProgress(
        progress({
          kind: 'files',
          testIndex: 7,
          testCount: 48,
          testName: 'Write file 8/24 (65 MB)',
          bytesDone: 1e7,
          bytesTotal: 6.5e7,
          secondsTotal: 0,
        }),
      ),
    );
    expect(points('write')).toHaveLength(7);
    expect(screen.getByTestId('files-scatter-read').textContent).toMatch(/Read speeds appear after the write pass/);
    expect(screen.getByText(/7 of 24 files/)).toBeTruthy();
    expect(screen.getByTestId('files-status').textContent).toMatch(
      /^Write file 8\/24 \(65 MB\) · measuring · test 8 of 48( · about .* left)?$/,
    );

    for (let k = 0; k < 3; k++) act(() => fake.emitDetailedStep(fileStep(k, 'read')));
    expect(points('write')).toHaveLength(7);
    expect(points('read')).toHaveLength(3);
    // No fit while the run is going: the model comes with the document.
    expect(screen.getByTestId('files-scatter-write').querySelectorAll('.recharts-line-curve')).toHaveLength(0);
    expect(screen.queryByTestId('files-stats-write')).toBeNull();
  });

  it('after the run: every file, the Theil–Sen line, and the fit table from the document', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('files-start'));
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: filesDoc() }));
    expect(points('write')).toHaveLength(24);
    expect(points('read')).toHaveLength(24);
    // The Theil–Sen model: one drawn line per pass over the points.
    for (const pass of ['write', 'read'] as const) {
      const curves = screen.getByTestId(`files-scatter-${pass}`).querySelectorAll('.recharts-line-curve');
      expect(curves).toHaveLength(1);
      expect(curves[0]!.getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+[CL]/);
    }
    // Write pass: aggregate 1738.5, mean 1580.2, median 1572.9, trimmed 1596.6, Theil–Sen 1868.6 MB/s + 1.796 ms,
    // least squares 1846.7 MB/s + 1.911 ms, R² 0.9746.
    const writeRows = {
      Aggregate: '1,739 MB/s',
      'Mean per file': '1,580 MB/s',
      'Median per file': '1,573 MB/s',
      '20 % trimmed mean': '1,597 MB/s',
      'Theil–Sen rate': '1,869 MB/s',
      'Theil–Sen overhead per file': '1.80 ms',
      'Least-squares rate': '1,847 MB/s',
      'Least-squares overhead per file': '1.91 ms',
      'Least-squares R²': '0.975',
    };
    for (const [label, want] of Object.entries(writeRows)) expect(row('write', label).textContent).toContain(want);
    // Read pass: Theil–Sen 1434.5 MB/s + 0.886 ms, R² 0.9857.
    expect(row('read', 'Theil–Sen rate').textContent).toContain('1,434 MB/s');
    expect(row('read', 'Theil–Sen overhead per file').textContent).toContain('0.89 ms');
    expect(row('read', 'Least-squares R²').textContent).toContain('0.986');
    expect(screen.getByText(/24 files, 3\.1 MB – 168 MB, 1\.4 GB in all · seed 326/)).toBeTruthy();
    expect(screen.queryByTestId('files-scaled')).toBeNull();
  });

  it('a fit below zero: the overhead shows 0 ms with the reason, never a negative time', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('files-start'));
    const doc = filesDoc();
    doc.files!.runs[0]!.read.theilSen!.overheadMs = -0.98;
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: doc }));
    expect(row('read', 'Theil–Sen overhead per file').textContent).toContain('0.00 ms *');
    expect(screen.getByTestId('files-stats-read').closest('.table-scroll')!.textContent).not.toMatch(/[−-]0\.98/);
    expect(screen.getByTestId('files-overhead-note-read').textContent).toBe(
      "* 0 ms: the fit's intercept is below zero: per-file overhead too small to measure here.",
    );
    // The write pass's fits are above zero: no star, no note.
    expect(row('write', 'Theil–Sen overhead per file').textContent).toContain('1.80 ms');
    expect(row('write', 'Theil–Sen overhead per file').textContent).not.toContain('*');
    expect(screen.queryByTestId('files-overhead-note-write')).toBeNull();
  });

  it('a set scaled down to free space is said prominently', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('files-start'));
    const doc = filesDoc();
    doc.files!.scaled = 'Free space is short: the set was scaled down to 24 files (1.4 GB).';
    doc.notes = [doc.files!.scaled];
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: doc }));
    const note = screen.getByTestId('files-scaled');
    expect(note.getAttribute('role')).toBe('note');
    expect(note.textContent).toContain('scaled down to 24 files');
    // Said once, not again among the notes.
    expect(screen.getAllByText(/scaled down to 24 files/)).toHaveLength(1);
  });

  it('a scaled-down set is said as soon as the plan arrives, before any file is written', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('files-start'));
    const note = 'Free space (1 GB usable) is short of the 40 files (5.01 GB) this set needs: scaled down to 12 files (951 MB).';
    act(() => fake.emitDetailedPlan(plan({ kind: 'files', steps: ['Write file 1/12 (2 MB)'], notes: [note], scaled: note })));
    expect(screen.getByTestId('files-scaled').textContent).toContain('scaled down to 12 files');
  });
});
