// The video kind: format ids resolved from the format table, the paced plan, the verdict in
// plain words, and the section and metrics its analysis makes from the engine's figures.
import { describe, expect, it } from 'vitest';
import type { StepOutcome } from '../../../../../app/src/model/analysis.js';
import type { EngineResult, PacedFigures } from '../../../../../app/src/model/engine-types.js';
import { buildPlan } from '../../../../../app/src/model/presets.js';
import { parseResultText } from '../../../../../app/src/model/result-parse.js';
import { video } from '../../../../../app/src/model/kinds/video/index.js';
import { stripCells } from '../../../../../app/src/model/kinds/video/card.js';
import { videoData } from '../../../../../app/src/model/kinds/video/data.js';
import { mbpsToMBps, neededMbps } from '../../../../../app/src/model/kinds/video/math.js';
import { pacedFormat, pacedFormats, phaseVerdict } from '../../../../../app/src/model/kinds/video/paced.js';
import quickDoc from '../../../../fixtures/results/quick.json' with { type: 'json' };

const figures = (over: Partial<PacedFigures> = {}): PacedFigures => ({
  frames: 1800,
  completed: 1800,
  late: 0,
  dropped: 0,
  frameBytes: 3_690_496,
  budgetMs: 1000 / 29.97,
  p50Ms: 9.2,
  p99Ms: 18.4,
  p999Ms: 20.1,
  maxMs: 20.5,
  jitterMs: 2.1,
  worstLatenessMs: 21.3,
  timeline: '.'.repeat(1800),
  ...over,
});

describe('paced format ids', () => {
  it('name format, resolution and frame rate, and carry the table’s rate as a frame size', () => {
    const f = pacedFormat('prores-hq-uhd-2997')!;
    const format = videoData.formats.find((x) => x.id === 'prores-hq')!;
    const uhd = videoData.resolutions.find((r) => r.id === 'uhd')!;
    const rate = mbpsToMBps(neededMbps(format, uhd, 29.97, videoData.resolutions)!.mbps);
    expect(f).toMatchObject({ formatId: 'prores-hq', format: 'ProRes 422 HQ', resolutionId: 'uhd', fps: 29.97, estimated: false });
    expect(f.dataRateMBps).toBe(rate);
    expect(f.frameBytes).toBe(Math.ceil((rate * 1e6) / 29.97));
    expect(pacedFormat('prores-hq-hd-24')?.fps).toBe(24);
    expect(pacedFormat('prores-hq-uhd-29.97')).toBeUndefined();
  });

  it('are unique across the table', () => {
    const ids = pacedFormats().map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(500);
  });
});

describe('the video plan', () => {
  it('writes then reads the same frames, paced, for --seconds', () => {
    const plan = buildPlan('video', { seconds: 30, video: { format: 'prores-hq-uhd-2997', layout: 'frames', buffer: 8 } });
    const paced = { fps: 29.97, frameBytes: pacedFormat('prores-hq-uhd-2997')!.frameBytes, frames: 899, layout: 'frames', buffer: 8 };
    expect(plan.steps.map((s) => [s.name, s.spec.rw, s.spec.keepFile, s.spec.paced])).toEqual([
      ['Write 899 frames at 29.97 fps', 'write', true, paced],
      ['Read 899 frames at 29.97 fps', 'read', false, paced],
    ]);
    expect(plan.needBytes).toBe(899 * Math.ceil(paced.frameBytes / 4096) * 4096);
    expect(plan.settings.video).toEqual({ format: 'prores-hq-uhd-2997', layout: 'frames', buffer: 8 });
  });

  it('carries the Quick Test it was launched from ("Check this format") into the result\'s settings', () => {
    expect(buildPlan('video', { video: { format: 'prores-hq-uhd-2997', from: 'quick-1' } }).settings.video).toEqual({
      format: 'prores-hq-uhd-2997',
      layout: 'stream',
      buffer: 4,
      from: 'quick-1',
    });
  });

  it('refuses an unknown format and a buffer out of range, in plain words', () => {
    expect(() => buildPlan('video', { video: { format: 'prores-hq-uhd' } })).toThrow(
      /"prores-hq-uhd" is not a video format id; ids are format-resolution-rate/,
    );
    expect(() => buildPlan('video', { video: { format: 'prores-hq-uhd-2997', buffer: 0 } })).toThrow(/from 1 to 256/);
  });
});

describe('the verdict: what a recorder suffers', () => {
  it('✓ names the frames and the worst frame against its budget', () => {
    expect(phaseVerdict(figures(), true, 4).text).toBe('✓ 1,800 frames, none late; worst 21 ms of a 33 ms budget');
  });

  it('late frames the buffer absorbed are ✓ with a note; ✗ only when frames were dropped, and a late start in a write looks like a cache filling', () => {
    const late = figures({ late: 37, firstLateSeconds: 41.2, timeline: '.'.repeat(1235) + 'L'.repeat(37) + '.'.repeat(528) });
    expect(phaseVerdict(late, true, 4)).toEqual({
      ok: true,
      text: '✓ 1,800 frames, none dropped; 37 frames late (worst 21 ms), absorbed by the 4-frame buffer',
    });
    expect(phaseVerdict({ ...late, dropped: 5 }, true, 4)).toEqual({
      ok: false,
      text: "✗ 5 of 1,800 frames dropped (the 4-frame buffer overflowed), 37 late, first at 41 s (on time until then: as when a drive's cache fills)",
    });
    // Trouble from the first second on may be a start-up stall: the verdict asks for a second run.
    expect(phaseVerdict({ ...late, dropped: 5, firstLateSeconds: 0.4 }, false, 4).text).toBe(
      '✗ 5 of 1,800 frames dropped (the 4-frame buffer overflowed), 37 late, first at 0.4 s: possibly a start-up stall, run again',
    );
    // Dropping on through the run, though it began at once, is a drive that cannot keep up.
    const throughout = { ...late, dropped: 5, firstLateSeconds: 0.4, timeline: 'D' + '.'.repeat(1000) + 'DDDD' + '.'.repeat(795) };
    expect(phaseVerdict(throughout, false, 4).text).toBe(
      '✗ 5 of 1,800 frames dropped (the 4-frame buffer overflowed), 37 late, first at 0.4 s',
    );
  });
});

describe('the analysis', () => {
  const plan = buildPlan('video', { seconds: 60, video: { format: 'prores-hq-uhd-2997' } });
  const outcome = (i: number, run: number, p: PacedFigures, mbps: number): StepOutcome => ({
    step: plan.steps[i]!,
    run,
    result: { mbps, cacheMode: 'direct', engineVersion: '0.4.0', paced: p } as EngineResult,
  });

  it('makes one section, ✗ when any phase of any run dropped frames; late frames alone leave it ✓ with a note', () => {
    const absorbed = video.analyse(plan, [
      outcome(0, 1, figures(), 110.6),
      outcome(1, 1, figures({ late: 2, firstLateSeconds: 3 }), 110.5),
    ]).video;
    expect(absorbed).toMatchObject({
      ok: true,
      verdict: 'ProRes 422 HQ UHD 29.97 fps: ✓ no frame dropped; 2 frames late, absorbed by the 4-frame buffer',
    });
    // Late frames the pause watch explains are the computer's, in the section's line as in the phase's.
    const paused = (hostLate: number) =>
      video.analyse(plan, [
        outcome(0, 1, figures(), 110.6),
        outcome(1, 1, figures({ late: 2, firstLateSeconds: 3, hostLate, longestPauseMs: 95 }), 110.5),
      ]).video!.verdict;
    expect(paused(2)).toBe(
      'ProRes 422 HQ UHD 29.97 fps: ✓ no frame dropped; 2 frames late while this computer itself paused, not the drive, absorbed by the 4-frame buffer',
    );
    expect(paused(1)).toBe(
      'ProRes 422 HQ UHD 29.97 fps: ✓ no frame dropped; 2 frames late (1 of them while this computer itself paused), absorbed by the 4-frame buffer',
    );
    const { video: s } = video.analyse(plan, [
      outcome(0, 1, figures(), 110.6),
      outcome(1, 1, figures({ late: 2, dropped: 1, firstLateSeconds: 3 }), 110.5),
    ]);
    expect(s).toMatchObject({ id: 'prores-hq-uhd-2997', frames: 1798, layout: 'stream', buffer: 4, ok: false });
    expect(s!.runs[0]!.write).toMatchObject({ ok: true, mbps: 110.6, late: 0 });
    expect(s!.verdict).toBe(
      'ProRes 422 HQ UHD 29.97 fps: ✗ read 1 of 1,800 frames dropped (the 4-frame buffer overflowed), 2 late, first at 3.0 s',
    );
    const metrics = video.report.metrics({ video: s } as never)!.metrics;
    expect(metrics.filter((m) => m.primary).map((m) => m.key)).toEqual([
      'Video/write.lateShare',
      'Video/write.p99Ms',
      'Video/write.mbps',
      'Video/read.lateShare',
      'Video/read.p99Ms',
      'Video/read.mbps',
    ]);
    expect(metrics.find((m) => m.key === 'Video/read.lateShare')!.values).toEqual([(3 / 1800) * 100]);
  });

  it('refuses results from an engine that did not pace', () => {
    const old = { ...outcome(0, 1, figures(), 1), result: { mbps: 1, engineVersion: '0.3.0' } as EngineResult };
    expect(() => video.analyse(plan, [old, old])).toThrow(/engine \(0.3.0\) did not pace the frames: rebuild it/);
  });

  it('a result document with the section reads back', () => {
    const { video: s } = video.analyse(plan, [outcome(0, 1, figures(), 110), outcome(1, 1, figures(), 110)]);
    const doc = parseResultText(JSON.stringify({ ...quickDoc, kind: 'video', video: s }));
    expect(doc.video?.ok).toBe(true);
    expect(() => parseResultText(JSON.stringify({ ...quickDoc, kind: 'video', video: { ...s, runs: 'x' } }))).toThrow();
  });
});

it('the card strip squeezes a timeline, a cell as bad as its worst frame', () => {
  expect(stripCells('..L..D', 3)).toBe('.LD');
  expect(stripCells('....', 8)).toBe('....');
});
