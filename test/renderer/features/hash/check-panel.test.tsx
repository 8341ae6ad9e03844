// The Hash screen's "Check a folder" mode with a fake bridge: the folder and action sent to the
// core, live progress (files, bytes, the current file), the ✓/✗/missing/new lists after, Stop with
// the job id, events of another job ignored, and one test at a time across the screens.
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResultDocument } from '@model/result';
import type { CheckSection } from '@model/check';
import { cpuBoundDoc, renderHash } from '../../helpers/hash-fixtures';
import { resetStores } from '../../helpers/reset-stores';

const CJOB = 'cjob-1';
const start = () => screen.getByTestId('check-start') as HTMLButtonElement;

function checkDoc(patch: Partial<CheckSection> = {}): ResultDocument {
  const { hash: _hash, ...base } = cpuBoundDoc();
  const check: CheckSection = {
    folder: '/media/card',
    manifest: '/media/card/SHA256SUMS',
    manifestFormat: 'gnu',
    algo: 'sha256',
    mode: 'verify',
    manifestWritten: false,
    provider: 'OpenSSL 3',
    streams: 2,
    streamsWhy: '2: one per CPU',
    files: 999,
    bytes: 812e6,
    seconds: 2,
    filesPerSecond: 499.5,
    mbps: 406,
    ceilingMBps: 1400,
    bound: { bound: 'disk', text: 'Disk-bound: reading (and opening files) was the limit, not hashing.' },
    counts: { unchanged: 998, changed: 1, missing: 1, added: 1, unreadable: 0, skipped: 0 },
    changed: ['DCIM/IMG 0001.JPG'],
    missing: ['DCIM/größe.MOV'],
    added: ['neu.txt'],
    unreadable: [],
    skipped: [],
    ok: false,
    summary: '1 changed, 1 missing, 1 new; 998 unchanged.',
    ...patch,
  };
  return { ...base, kind: 'check', check };
}

async function renderFolderMode() {
  const r = await renderHash();
  await r.user.click(screen.getByTestId('hash-mode-folder'));
  return r;
}

describe('Hash screen: Check a folder', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('sends the folder and the action; Start waits for a folder', async () => {
    const { fake, user } = await renderFolderMode();
    expect(start().getAttribute('aria-disabled') === 'true' || start().disabled).toBe(true);
    await user.type(screen.getByLabelText('Folder'), '/media/card');
    await user.selectOptions(screen.getByTestId('check-action'), 'update');
    await user.click(start());
    expect(fake.checkCalls.start).toEqual([{ folder: '/media/card', action: 'update' }]);
  });

  it('shows live progress, then the changed, missing and new files with the figures', async () => {
    const { fake, user } = await renderFolderMode();
    await user.type(screen.getByLabelText('Folder'), '/media/card');
    await user.click(start());
    act(() =>
      fake.emitCheckProgress({
        jobId: CJOB,
        filesDone: 120,
        filesTotal: 999,
        bytesDone: 310e6,
        bytesTotal: 812e6,
        current: 'DCIM/IMG 0120.JPG',
        elapsedSeconds: 1,
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('check-status').textContent).toBe('120 of 999 files · 310 MB of 812 MB · DCIM/IMG 0120.JPG'),
    );
    // Another job's events change nothing.
    act(() => fake.emitCheckDone({ jobId: 'other', outcome: 'finished', result: checkDoc({ summary: 'not ours' }) }));
    expect(screen.queryByTestId('check-result')).toBeNull();
    act(() => fake.emitCheckDone({ jobId: CJOB, outcome: 'finished', result: checkDoc() }));
    await waitFor(() =>
      expect(screen.getByTestId('check-summary').textContent).toBe('Failed: 1 changed, 1 missing, 1 new; 998 unchanged.'),
    );
    expect(screen.getByTestId('check-unchanged').textContent).toBe('✓ 998 unchanged');
    expect(screen.getByTestId('check-changed').textContent).toContain('DCIM/IMG 0001.JPG');
    expect(screen.getByTestId('check-missing').textContent).toContain('DCIM/größe.MOV');
    expect(screen.getByTestId('check-new').textContent).toContain('neu.txt');
    expect(screen.getByTestId('check-bound').textContent).toMatch(/^Disk-bound/); // the saved document's own words
    expect(screen.getByTestId('check-result').textContent).toContain('500 files/s, 406 MB/s with SHA-256 on 2 streams');
  });

  it('a check with 1 changed and 1 missing file shows a red banner with the counts and the status Failed', async () => {
    const { fake, user } = await renderFolderMode();
    await user.type(screen.getByLabelText('Folder'), '/media/card');
    await user.click(start());
    const counts = { unchanged: 38, changed: 1, missing: 1, added: 0, unreadable: 0, skipped: 0 };
    act(() =>
      fake.emitCheckDone({
        jobId: CJOB,
        outcome: 'finished',
        result: checkDoc({ counts, added: [], files: 39, ok: false, summary: '1 changed, 1 missing; 38 unchanged.' }),
      }),
    );
    await waitFor(() => expect(screen.getByTestId('check-status').textContent).toBe('Failed: 1 changed, 1 missing; 38 unchanged.'));
    const banner = screen.getByTestId('check-summary');
    expect(banner.getAttribute('data-outcome')).toBe('failed');
    expect(banner.className).toContain('check-banner--failed');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.textContent).toBe('Failed: 1 changed, 1 missing; 38 unchanged.');
  });

  it('green only when every file is unchanged', async () => {
    const { fake, user } = await renderFolderMode();
    await user.type(screen.getByLabelText('Folder'), '/media/card');
    await user.click(start());
    const counts = { unchanged: 40, changed: 0, missing: 0, added: 0, unreadable: 0, skipped: 0 };
    act(() =>
      fake.emitCheckDone({
        jobId: CJOB,
        outcome: 'finished',
        result: checkDoc({ counts, changed: [], missing: [], added: [], files: 40, ok: true }),
      }),
    );
    await waitFor(() => expect(screen.getByTestId('check-status').textContent).toBe('Done · All 40 files unchanged.'));
    expect(screen.getByTestId('check-summary').className).toContain('check-banner--intact');
  });

  it('after an error the status says the error, not Ready., and the last result is gone', async () => {
    const { fake, user } = await renderFolderMode();
    await user.type(screen.getByLabelText('Folder'), '/media/card');
    await user.click(start());
    act(() => fake.emitCheckDone({ jobId: CJOB, outcome: 'finished', result: checkDoc() }));
    await waitFor(() => expect(screen.getByTestId('check-result')).toBeTruthy());
    await user.click(start());
    act(() =>
      fake.emitCheckDone({
        jobId: CJOB,
        outcome: 'failed',
        error: { code: 'EACCES', message: 'DiskDial may not read /media/card/DCIM.' },
      }),
    );
    await waitFor(() => expect(screen.getByTestId('check-status').textContent).toBe('Error: DiskDial may not read /media/card/DCIM.'));
    expect(screen.queryByTestId('check-result')).toBeNull();
  });

  it('Stop sends the job id and says the manifest was left as it was; other screens wait while it runs', async () => {
    const { fake, user } = await renderFolderMode();
    await user.type(screen.getByLabelText('Folder'), '/media/card');
    await user.click(start());
    await user.click(screen.getByTestId('nav-quick'));
    const quickStart = screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement;
    expect(quickStart.disabled).toBe(true);
    expect(screen.getByText('A hash test is running. Stop it or wait for it to finish.')).toBeTruthy();
    await user.click(screen.getByTestId('nav-hash'));
    await user.click(start());
    expect(fake.checkCalls.stop).toEqual([CJOB]);
    act(() => fake.emitCheckDone({ jobId: CJOB, outcome: 'stopped' }));
    await waitFor(() => expect(screen.getByTestId('check-status').textContent).toBe('Stopped. The manifest was left as it was.'));
  });
});
