// The video panel: the format picker (only combinations the data offers), the settings Start
// sends; the live strip from the engine's frame counts (fates told by shape and words, not colour
// alone); after the run the verdict, per-direction lines, the strip from the timeline and the
// frame-time table. The document is a real one (test/fixtures/results/video.json: its write had
// 2 late frames on this loaded machine, its read none).
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResultDocument } from '@model/result';
import { DetailedSettings } from '@model/settings';
import videoJson from '../../../fixtures/results/video.json';
import { createFakeBridge } from '../../helpers/fake-bridge';
import { JOB, plan, progress, renderDetailed } from '../../helpers/detailed-fixtures';
import { resetStores } from '../../helpers/reset-stores';

const videoDoc = (): ResultDocument => JSON.parse(JSON.stringify(videoJson)) as ResultDocument;
const panel = () => screen.getByTestId('video-panel');
const select = (id: string) => within(panel()).getByTestId(id) as HTMLSelectElement;
const options = (id: string) => [...select(id).options].map((o) => o.value);

describe('Video panel', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('Start sends the format, layout, buffer and duration the controls show', async () => {
    const { fake, user } = await renderDetailed();
    // The default: ProRes 422 HQ, UHD, 29.97 fps, one stream file, 4 frames, 30 s.
    expect(select('video-format').value).toBe('prores-hq');
    expect(select('video-resolution').value).toBe('uhd');
    expect(select('video-fps').value).toBe('29.97');
    // Grouped by family, as the Will-it-work table's tabs.
    expect([...select('video-format').querySelectorAll('optgroup')].map((g) => g.label)).toEqual([
      'ProRes',
      'DNxHR',
      'Blackmagic RAW',
      'H.264 / HEVC',
      'Uncompressed',
    ]);
    await user.selectOptions(select('video-format'), 'dnxhr-hqx');
    await user.selectOptions(select('video-resolution'), 'hd');
    await user.selectOptions(select('video-fps'), '50');
    await user.click(within(panel()).getByTestId('video-layout-frames'));
    await user.click(within(panel()).getByTestId('video-buffer-8'));
    await user.click(within(panel()).getByTestId('video-seconds-60'));
    expect(within(panel()).getByTestId('video-format-line').textContent).toMatch(/MB\/s · .* a frame · 20\.0 ms per frame · .* written/);
    await user.click(screen.getByTestId('video-start'));
    const sent = {
      kind: 'video',
      target: '/media/t7',
      format: 'dnxhr-hqx-hd-50',
      layout: 'frames',
      buffer: 8,
      seconds: 60,
      runs: 1,
      restSeconds: 0,
    };
    expect(fake.calls.detailedStart).toEqual([sent]);
    expect(DetailedSettings.parse(fake.calls.detailedStart[0])).toEqual(sent);
  });

  it('offers only resolutions and rates the data has for the format, and moves to one that is', async () => {
    const { user } = await renderDetailed();
    await user.selectOptions(select('video-format'), 'h264-camera');
    // Whatever was chosen before, the pair shown is one the data offers.
    expect(options('video-resolution')).toContain(select('video-resolution').value);
    expect(options('video-fps')).toContain(select('video-fps').value);
    await user.selectOptions(select('video-format'), 'prores-hq');
    await user.selectOptions(select('video-resolution'), '8k');
    expect(options('video-fps').length).toBeGreaterThan(0);
    expect(options('video-fps')).toContain(select('video-fps').value);
  });

  it('refuses a format id the data does not have, at the door', () => {
    const base = { kind: 'video', target: '/t', layout: 'stream', buffer: 4, seconds: 10, runs: 1, restSeconds: 0 };
    expect(DetailedSettings.safeParse({ ...base, format: 'prores-hq-uhd-2997' }).success).toBe(true);
    expect(DetailedSettings.safeParse({ ...base, format: 'prores-hq-uhd' }).success).toBe(false);
    expect(DetailedSettings.safeParse({ ...base, format: 'prores-hq-uhd-2997', buffer: 0 }).success).toBe(false);
  });

  it('draws the strip live from the engine’s frame counts: a cell per interval, its fate in shape, title and totals', async () => {
    const { fake, user } = await renderDetailed(createFakeBridge());
    await user.click(screen.getByTestId('video-start'));
    act(() => fake.emitDetailedPlan(plan({ kind: 'video', steps: ['Write 899 frames at 29.97 fps', 'Read 899 frames at 29.97 fps'] })));
    const counts = [
      { due: 10, onTime: 9, late: 0, dropped: 0 },
      { due: 20, onTime: 18, late: 1, dropped: 0 },
      { due: 30, onTime: 25, late: 2, dropped: 2 },
    ];
    counts.forEach((frames, i) =>
      act(() =>
        fake.emitDetailedProgress(
          progress({ kind: 'video', testCount: 2, testName: 'Write 899 frames at 29.97 fps', elapsed: (i + 1) * 0.33, frames }),
        ),
      ),
    );
    const live = within(panel()).getByTestId('video-live');
    const write = within(live).getByTestId('video-strip-write');
    const cells = [...write.querySelectorAll<HTMLElement>('.frame-cell')];
    expect(cells.map((c) => c.dataset.fate)).toEqual(['ok', 'late', 'dropped']);
    expect(cells[1]!.title).toBe('0.3–0.7 s: 9 on time, 1 late, 0 dropped');
    expect(within(live).getByTestId('video-strip-write-totals').textContent).toBe('25 on time · 2 late · 2 dropped');
    expect(within(write).getByRole('img').getAttribute('aria-label')).toBe('Write: 25 on time · 2 late · 2 dropped');
    // The read's strip starts on its own step.
    act(() =>
      fake.emitDetailedProgress(
        progress({ kind: 'video', testIndex: 1, testCount: 2, elapsed: 0.3, frames: { due: 9, onTime: 9, late: 0, dropped: 0 } }),
      ),
    );
    expect(within(live).getByTestId('video-strip-read-totals').textContent).toBe('9 on time · 0 late · 0 dropped');
    expect(within(live).getByTestId('video-strip-write-totals').textContent).toBe('25 on time · 2 late · 2 dropped');
    // The legend says in words what each shape means.
    expect(live.textContent).toMatch(/on time.*late \(done after its frame period\).*dropped \(buffer full\)/);
  });

  it('late frames in the computer’s pauses: each strip its own, the legend both directions’ and says so', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('video-start'));
    const doc = videoDoc();
    const run = doc.video!.runs[0]!;
    Object.assign(run.write, { hostLate: 2, longestPauseMs: 95 });
    Object.assign(run.read, { late: 1, hostLate: 1, longestPauseMs: 40 });
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: doc }));
    const result = within(panel()).getByTestId('video-result');
    expect(within(result).getByTestId('video-strip-write-totals').getAttribute('title')).toBe(
      '2 of the late frames came while this computer itself paused (up to 95 ms), not the drive',
    );
    expect(within(result).getByTestId('frame-legend').textContent).toContain(
      '3 of the late frames, writing and reading, came while this computer itself paused (up to 95 ms), not the drive',
    );
  });

  it('after the run: the verdict once, each direction’s strip, and the frame times', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('video-start'));
    const doc = videoDoc();
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: doc }));
    const result = within(panel()).getByTestId('video-result');
    // The document was saved under the old rule (2 late frames: ✗); it is judged by today's: the
    // 4-frame buffer absorbed them, none was dropped, so ✓ with a note.
    expect(within(result).getByTestId('video-verdict').textContent).toBe(
      'ProRes 422 Proxy HD 25 fps: ✓ no frame dropped; 2 frames late, absorbed by the 4-frame buffer',
    );
    // Printed once: no direction repeats it.
    expect(result.textContent!.match(/[✓✗]/g)).toHaveLength(1);
    expect(within(result).queryByTestId('video-verdict-write')).toBeNull();
    expect(within(result).getByTestId('video-strip-write-totals').textContent).toBe('48 on time · 2 late · 0 dropped');
    expect(within(result).getByTestId('video-strip-read-totals').textContent).toBe('50 on time · 0 late · 0 dropped');
    // The two late frames (28th and 29th) are the late cells: one cell a frame for 50 frames.
    const fates = [...within(result).getByTestId('video-strip-write').querySelectorAll<HTMLElement>('.frame-cell')].map(
      (c) => c.dataset.fate,
    );
    expect(fates).toHaveLength(50);
    expect(fates.flatMap((f, i) => (f === 'late' ? [i + 1] : []))).toEqual([28, 29]);
    const rows = [...within(result).getByTestId('video-figures').querySelectorAll('tbody tr')].map((r) =>
      [...r.children].map((c) => c.textContent),
    );
    const w = doc.video!.runs[0]!.write;
    expect(rows[0]).toEqual([
      'Write',
      `${w.p50Ms.toFixed(1)} ms`,
      `${w.p99Ms.toFixed(1)} ms`,
      `${w.p999Ms.toFixed(1)} ms`,
      `${w.maxMs.toFixed(1)} ms`,
      `${w.jitterMs.toFixed(1)} ms`,
      expect.stringMatching(/^[\d.,]+ MB\/s$/),
    ]);
    expect(rows[1]![0]).toBe('Read');
    // No frame was late in this computer's pauses: the legend says nothing of them.
    expect(within(result).getByTestId('frame-legend').textContent).not.toMatch(/paused/);
    expect(result.textContent).toMatch(/50 frames of .* each into one stream file, due every 40\.0 ms, with a 4-frame buffer/);
  });
});
