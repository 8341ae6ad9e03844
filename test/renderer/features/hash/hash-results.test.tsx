// The Hash screen's figures: the four bars fill in from stage events in order, on one scale set
// by the largest; the running stage grows from progress; a finished document shows the verdict
// with its bound, the digest (with Copy, and a selection when there is no clipboard), whether it
// matches, and how it was measured — for a CPU-bound and a storage-bound result.
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResultDocument } from '@model/result';
import { smallHashFileNote } from '@model/trust';
import { barsFromJob, barsFromSection, waitLine } from '../../../../renderer/src/lib/hash-model';
import { createFakeBridge } from '../../helpers/fake-bridge';
import {
  CPU_DIGEST,
  HJOB,
  STORAGE_DIGEST,
  STORAGE_EXPECTED,
  cpuBoundDoc,
  hashProgress,
  hashStage,
  renderHash,
  stagesOf,
  storageBoundDoc,
} from '../../helpers/hash-fixtures';
import { resetStores } from '../../helpers/reset-stores';

const BARS = ['read', 'read-hash', 'memory', 'memory-parallel'] as const;
const bar = (stage: string) => screen.getByTestId(`hash-bar-${stage}`);
const width = (stage: string) => (bar(stage).querySelector('.hash-bar__fill') as HTMLElement).style.width;
const value = (stage: string) => bar(stage).querySelector('.hash-bar__value')!.textContent;
const label = (stage: string) => bar(stage).querySelector('.hash-bar__label')!.textContent;

async function startFile(path = '/media/ana/TB5/Footage/A001_C002_1122XY.mov', fake = createFakeBridge()) {
  const r = await renderHash(fake);
  await r.user.type(screen.getByLabelText('File'), path);
  await r.user.click(screen.getByTestId('hash-start'));
  return r;
}

async function finish(doc: ResultDocument) {
  const r = await startFile();
  act(() => {
    for (const s of stagesOf(doc)) r.fake.emitHashStage(s);
    r.fake.emitHashDone({ jobId: HJOB, outcome: 'finished', result: doc });
  });
  return r;
}

describe('Hash figures (model)', () => {
  it('a document’s bars share one scale: the largest is full width', () => {
    const bars = barsFromSection(cpuBoundDoc().hash!);
    expect(bars.map((b) => [b.stage, b.mbps, Math.round(b.width * 1000) / 1000])).toEqual([
      ['read', 6500, 0.663],
      ['read-hash', 2550, 0.26],
      ['memory', 2600, 0.265],
      ['memory-parallel', 9800, 1],
    ]);
    expect(bars.map((b) => b.label)).toEqual(['Read (storage)', 'Read + hash', 'Hash in memory, 1 core', 'Hash in memory, 4 cores']);
  });

  it('a job’s live bar counts towards the scale; before any figure every bar is empty', () => {
    const bars = barsFromJob(
      {
        stages: [hashStage('read', 480)],
        progress: hashProgress({ stage: 'read-hash', stageIndex: 1, avgMBps: 960, bytesDone: 1e9, bytesTotal: 4e9 }),
      },
      true,
    );
    expect(bars.map((b) => [b.state, b.width])).toEqual([
      ['done', 0.5],
      ['live', 1],
      ['pending', 0],
      ['pending', 0],
    ]);
    expect(bars[1]!.fraction).toBe(0.25);
    expect(barsFromJob({ stages: [], progress: null }, false).every((b) => b.state === 'pending' && b.width === 0)).toBe(true);
  });

  it('the all-cores bar names its stream count as soon as its stage reports progress', () => {
    const p = hashProgress({
      stage: 'memory-parallel',
      stageIndex: 3,
      avgMBps: 3000,
      bytesDone: 0,
      bytesTotal: 0,
      elapsed: 1,
      secondsTotal: 2,
      threads: 6,
    });
    expect(barsFromJob({ stages: [], progress: p }, true)[3]!.label).toBe('Hash in memory, 6 cores');
    expect(barsFromJob({ stages: [], progress: null }, true)[3]!.label).toBe('Hash in memory, all cores');
  });

  it('the waits say which side held the other up', () => {
    expect(waitLine(cpuBoundDoc().hash!.readHash)).toBe('The reader waited 3.9 s for the hasher: hashing is the limit.');
    expect(waitLine(storageBoundDoc().hash!.readHash)).toBe('The hasher waited 6.4 s for the reader: the disk is the limit.');
    expect(waitLine({ ...cpuBoundDoc().hash!.readHash, readerWaitSeconds: 0.1, hasherWaitSeconds: 0.09 })).toMatch(
      /^Reader and hasher hardly waited for each other/,
    );
  });
});

describe('Hash figures (screen)', () => {
  // The status adds "about … left" once the job's wall-clock time says it is long; a stopped clock
  // keeps these exact-text checks from depending on how loaded the machine is.
  beforeEach(() => {
    resetStores();
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-26T12:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
    resetStores();
  });

  it('before any test: four labelled, empty bars and what they will show', async () => {
    await renderHash();
    expect(BARS.map(label)).toEqual(['Read (storage)', 'Read + hash', 'Hash in memory, 1 core', 'Hash in memory, all cores']);
    for (const s of BARS) {
      expect(value(s)).toBe('—');
      expect(width(s)).toBe('0%');
    }
    expect(screen.getByTestId('hash-lead').textContent).toMatch(/^Start a test/);
    expect(screen.queryByTestId('hash-details')).toBeNull();
  });

  it('bars fill in from stage events, in order, each time rescaled to the largest', async () => {
    const { fake } = await startFile();
    const [read, readHash, memory, parallel] = stagesOf(cpuBoundDoc());
    act(() => fake.emitHashStage(read!));
    expect(value('read')).toBe('6,500 MB/s');
    expect(width('read')).toBe('100%');
    expect(bar('read').dataset.state).toBe('done');
    expect(bar('read-hash').dataset.state).toBe('pending');
    expect(value('read-hash')).toBe('—');

    act(() => fake.emitHashStage(readHash!));
    expect(value('read-hash')).toBe('2,550 MB/s');
    expect(width('read-hash')).toBe('39.2%');
    // The digest is shown as soon as the read + hash stage knows it.
    expect(screen.getByTestId('hash-digest').textContent).toBe(CPU_DIGEST);

    act(() => fake.emitHashStage(memory!));
    expect(value('memory')).toBe('2,600 MB/s');
    expect(width('memory')).toBe('40%');
    expect(width('read')).toBe('100%');

    act(() => fake.emitHashStage(parallel!));
    expect(label('memory-parallel')).toBe('Hash in memory, 4 cores');
    expect(value('memory-parallel')).toBe('9,800 MB/s');
    expect(width('memory-parallel')).toBe('100%');
    expect(width('read')).toBe('66.3%');
    expect(width('read-hash')).toBe('26%');
    expect(width('memory')).toBe('26.5%');
  });

  it('the running stage shows a live bar from progress, and the status says where the test is', async () => {
    const { fake } = await startFile();
    act(() =>
      fake.emitHashProgress(
        hashProgress({ stage: 'read', stageIndex: 0, stageCount: 4, bytesDone: 4.2e9, bytesTotal: 16.8e9, avgMBps: 6310, instMBps: 6420 }),
      ),
    );
    expect(bar('read').dataset.state).toBe('live');
    expect(value('read')).toBe('6,310 MB/s so far');
    expect(width('read')).toBe('100%');
    expect((bar('read').querySelector('.hash-bar__progress') as HTMLElement).style.transform).toBe('scaleX(0.25)');
    expect(screen.getByTestId('hash-status').textContent).toBe('Step 1 of 4 · reading (storage only) · 4.2 GB of 16.8 GB');
    expect(screen.getByRole('progressbar', { name: 'Progress of the hash test' }).getAttribute('aria-valuenow')).toBe('6.3');
    act(() => fake.emitHashStage(hashStage('read', 6500)));
    act(() =>
      fake.emitHashProgress(hashProgress({ stage: 'read-hash', stageIndex: 1, bytesDone: 8.4e9, bytesTotal: 16.8e9, avgMBps: 2540 })),
    );
    expect(bar('read').dataset.state).toBe('done');
    expect(bar('read-hash').dataset.state).toBe('live');
    expect(value('read-hash')).toBe('2,540 MB/s so far');
    expect(width('read-hash')).toBe('39.1%');

    // The memory stages are time-bound: the status counts down seconds.
    act(() =>
      fake.emitHashProgress(
        hashProgress({ stage: 'memory', stageIndex: 2, bytesDone: 2.6e9, bytesTotal: 0, elapsed: 1.2, secondsTotal: 2, avgMBps: 2600 }),
      ),
    );
    expect(screen.getByTestId('hash-status').textContent).toBe('Step 3 of 4 · hashing in memory on 1 core · 1 s left');
    expect(bar('read-hash').dataset.state).toBe('pending'); // its stage event has not arrived (in this test)
    // A minute into the job the status adds the time left of the whole job.
    vi.setSystemTime(Date.now() + 60_000);
    act(() =>
      fake.emitHashProgress(
        hashProgress({ stage: 'memory', stageIndex: 2, bytesDone: 2.6e9, bytesTotal: 0, elapsed: 1.2, secondsTotal: 2, avgMBps: 2600 }),
      ),
    );
    expect(screen.getByTestId('hash-status').textContent).toMatch(
      /^Step 3 of 4 · hashing in memory on 1 core · 1 s left · about \d+ s left$/,
    );
  });

  it('a generated file’s write stage is progress only: no bar, and the step count includes it', async () => {
    const { fake, user } = await renderHash();
    await user.click(screen.getByTestId('hash-source-generate'));
    await user.click(screen.getByTestId('hash-start'));
    act(() =>
      fake.emitHashProgress(hashProgress({ stage: 'write', stageIndex: 0, stageCount: 5, bytesDone: 1e9, bytesTotal: 4e9, avgMBps: 900 })),
    );
    expect(screen.getByTestId('hash-status').textContent).toBe('Step 1 of 5 · writing the test file · 1.0 GB of 4.0 GB');
    for (const s of BARS) expect(bar(s).dataset.state).toBe('pending');
    act(() => fake.emitHashStage(hashStage('write', 910)));
    for (const s of BARS) expect(value(s)).toBe('—');
  });

  it('CPU-bound: verdict and badge, digest, a matching checksum file, and how it was measured', async () => {
    await finish(cpuBoundDoc());
    expect(screen.getByTestId('hash-verdict').textContent).toBe(
      'CPU-bound by 2.5×: the disk could deliver 2.5× what one core can hash — reading 6,500 MB/s, hashing SHA-256 on one core 2,600 MB/s; read + hash 2,550 MB/s.',
    );
    expect(screen.getByTestId('hash-bound').textContent).toBe('CPU-bound');
    expect(screen.getByTestId('hash-digest').textContent).toBe(CPU_DIGEST);
    // Wrapped between groups of eight, never inside one.
    expect(screen.getByTestId('hash-digest').querySelectorAll('.hash-digest__group')).toHaveLength(8);
    expect(screen.getByTestId('hash-digest').querySelectorAll('wbr')).toHaveLength(7);
    const verify = screen.getByTestId('hash-verify');
    expect(verify.textContent).toBe('✓ Matches the SHA-256 in SHA256SUMS.');
    expect(verify.className).toContain('hash-verify--ok');
    expect(screen.getByTestId('hash-provider').textContent).toBe(
      'SHA-256 · OpenSSL 3.0.22 1 Jul 2025 (libcrypto) · on AMD Ryzen 5 7640U w/ Radeon 760M Graphics (4 cores)',
    );
    expect(screen.getByTestId('hash-file').textContent).toBe(
      '/media/ana/TB5/Footage/A001_C002_1122XY.mov · 16.8 GB · your file, only read',
    );
    expect(screen.getByTestId('hash-cache-badge').textContent).toMatch(/^● direct I\/O · the file’s own data/);
    expect(screen.getByTestId('hash-waits').textContent).toBe('The reader waited 3.9 s for the hasher: hashing is the limit.');
    expect(screen.getByTestId('hash-efficiency').textContent).toBe(
      'Read + hash reached 98 % of the slower of reading and one-core hashing.',
    );
    expect(screen.getByTestId('hash-notes').textContent).toContain('the 4-core figure is what several files hashed at once could reach');
    expect(screen.getByTestId('hash-status').textContent).toBe('Done · 16.8 GB hashed with SHA-256');
    expect(BARS.map(value)).toEqual(['6,500 MB/s', '2,550 MB/s', '2,600 MB/s', '9,800 MB/s']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('storage-bound: verdict and badge, a SHA-512 digest, a mismatch in red with the expected digest', async () => {
    await finish(storageBoundDoc());
    expect(screen.getByTestId('hash-verdict').textContent).toBe(
      'Storage-bound by 4.0×: one core could hash 4.0× what the disk delivers — reading 480 MB/s, hashing SHA-512 on one core 1,900 MB/s; read + hash 470 MB/s.',
    );
    expect(screen.getByTestId('hash-bound').textContent).toBe('Storage-bound');
    expect(screen.getByTestId('hash-digest').textContent).toBe(STORAGE_DIGEST);
    expect(screen.getByTestId('hash-digest').querySelectorAll('.hash-digest__group')).toHaveLength(16);
    const verify = screen.getByTestId('hash-verify');
    expect(within(verify).getByText(/Does NOT match/).textContent).toBe(
      '✗ Does NOT match the SHA-512 you gave: the file differs from the one that digest was made from.',
    );
    expect(verify.className).toContain('hash-verify--bad');
    expect(verify.getAttribute('role')).toBe('alert');
    expect(screen.getByTestId('hash-verify-expected').textContent).toBe(STORAGE_EXPECTED);
    expect(verify.textContent).toContain('Expected (pasted):');
    expect(screen.getByTestId('hash-file').textContent).toBe(
      '/media/t7/.diskdial-3f9c2e41/hash-test.dat · 4 GB · a test file DiskDial wrote for the test, and removed afterwards',
    );
    expect(screen.getByTestId('hash-cache-badge').textContent).toMatch(/^● direct I\/O · random data/);
    expect(screen.getByTestId('hash-waits').textContent).toBe('The hasher waited 6.4 s for the reader: the disk is the limit.');
    expect(label('memory-parallel')).toBe('Hash in memory, 2 cores');
    expect(width('memory-parallel')).toBe('100%');
    expect(width('read')).toBe('13%');
  });

  it('the core’s notes and the result’s flags are shown with the facts', async () => {
    const doc = cpuBoundDoc();
    doc.notes = ['The file is small (52.4 MB): start-up costs weigh on its read rates; a file of 1 GB or more gives steadier figures.'];
    doc.flags = [{ code: 'THERMAL', message: 'The drive reached 71 °C during the test.', fix: 'Let it cool and run again.' }];
    await finish(doc);
    expect(screen.getByTestId('hash-doc-notes').textContent).toMatch(/^The file is small \(52\.4 MB\)/);
    expect(screen.getByTestId('hash-flags').textContent).toContain('The drive reached 71 °C during the test.');
  });

  it('a test file asked as 64 MiB is written in MiB everywhere: the step line, the file, the small-file note, Done', async () => {
    const MiB = 1024 * 1024;
    const doc = cpuBoundDoc();
    const h = doc.hash!;
    h.file = { ...h.file, bytes: 64 * MiB, generated: true };
    doc.notes = [smallHashFileNote(64 * MiB)!];
    const r = await startFile();
    act(() => r.fake.emitHashProgress(hashProgress({ bytesDone: 32 * MiB, bytesTotal: 64 * MiB })));
    await waitFor(() => expect(screen.getByTestId('hash-status').textContent).toMatch(/^Step 1 of 4 · .* · 32 MiB of 64 MiB/));
    act(() => {
      for (const s of stagesOf(doc)) r.fake.emitHashStage(s);
      r.fake.emitHashDone({ jobId: HJOB, outcome: 'finished', result: doc });
    });
    expect(screen.getByTestId('hash-status').textContent).toBe('Done · 64 MiB hashed with SHA-256');
    expect(screen.getByTestId('hash-file').textContent).toMatch(/ · 64 MiB · a test file DiskDial wrote/);
    expect(screen.getByTestId('hash-doc-notes').textContent).toBe(
      'The file is small (64 MiB): start-up costs weigh on its read rates; a file of 1 GiB or more gives steadier figures.',
    );
    // No decimal size anywhere in the details under it.
    expect(screen.getByTestId('hash-details').textContent).not.toMatch(/\d (kB|MB|GB)\b/);
  });

  it('balanced, and a buffered read shows as a warning with its reason', async () => {
    const doc = cpuBoundDoc();
    const h = doc.hash!;
    h.verdict = {
      bound: 'balanced',
      factor: 1.04,
      efficiency: 0.95,
      text: 'Balanced: the disk and the CPU are within 10 % of each other — reading 2,700 MB/s, hashing SHA-256 on one core 2,600 MB/s; read + hash 2,470 MB/s.',
    };
    h.readHash.cacheMode = 'buffered';
    h.readHash.cacheNote = 'exFAT refused O_DIRECT: read through the page cache after dropping the file’s pages.';
    delete h.verify;
    await finish(doc);
    expect(screen.getByTestId('hash-bound').textContent).toBe('No single limit'); // the bottleneck verdict's own words
    expect(screen.queryByTestId('hash-verify')).toBeNull();
    const badge = screen.getByTestId('hash-cache-badge');
    expect(badge.textContent).toMatch(/^⚠ buffered/);
    expect(badge.getAttribute('title')).toContain('exFAT refused O_DIRECT');
  });

  it('Copy puts the digest on the clipboard and says so', async () => {
    await finish(cpuBoundDoc());
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const copy = screen.getByTestId('hash-copy');
    expect(copy.textContent).toBe('Copy the digest');
    await act(async () => copy.click());
    expect(writeText).toHaveBeenCalledWith(CPU_DIGEST);
    expect(copy.textContent).toBe('Copied the digest');
    expect(screen.getByTestId('hash-copy-note').textContent).toBe('Copied to the clipboard.');
  });

  it('without a clipboard, Copy selects the digest for the keyboard', async () => {
    await finish(storageBoundDoc());
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    await act(async () => screen.getByTestId('hash-copy').click());
    expect(window.getSelection()!.toString()).toBe(STORAGE_DIGEST);
    // jsdom has no execCommand('copy'): the text stays selected, and the note says what to press.
    expect(screen.getByTestId('hash-copy-note').textContent).toBe('Selected: press Ctrl+C (⌘C on a Mac) to copy.');
    expect(screen.getByTestId('hash-copy').textContent).toBe('Copy the digest');
    // Where the browser can copy a selection, that counts as copied.
    const execCommand = vi.fn().mockReturnValue(true);
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    try {
      await act(async () => screen.getByTestId('hash-copy').click());
      expect(execCommand).toHaveBeenCalledWith('copy');
      expect(screen.getByTestId('hash-copy').textContent).toBe('Copied the digest');
    } finally {
      delete (document as { execCommand?: unknown }).execCommand;
    }
  });

  it('a refused clipboard falls back to the selection too', async () => {
    await finish(cpuBoundDoc());
    const writeText = vi.fn().mockRejectedValue(new DOMException('Document is not focused.', 'NotAllowedError'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await act(async () => screen.getByTestId('hash-copy').click());
    expect(writeText).toHaveBeenCalled();
    expect(window.getSelection()!.toString()).toBe(CPU_DIGEST);
  });

  it('a new run replaces the last result’s figures with its own', async () => {
    const { fake, user } = await finish(cpuBoundDoc());
    fake.bridge.startHash = (s) => (fake.hashCalls.start.push(s), Promise.resolve({ ok: true, value: { jobId: 'hjob-2' } }));
    await user.click(screen.getByTestId('hash-start'));
    for (const s of BARS) expect(value(s)).toBe('—');
    expect(screen.queryByTestId('hash-verdict')).toBeNull();
    expect(screen.queryByTestId('hash-details')).toBeNull();
    expect(screen.getByTestId('hash-lead').textContent).toMatch(/^Measuring/);
  });
});
