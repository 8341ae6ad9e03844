// The video-format data file checked against itself and against the makers' published figures:
// every value cites its table, rates agree with frame rate and with pixel count, and the figures
// a user would look up match what Apple, Avid and Sony print.
import { describe, expect, it } from 'vitest';
import { videoData } from '../../../../../app/src/model/kinds/video/data.js';
import {
  citesOf,
  mbpsToMBps,
  neededMbps,
  type FrameFigure,
  type RateFigure,
  type VideoFormat,
} from '../../../../../app/src/model/kinds/video/math.js';

const { formats, resolutions, frameRates, sources, families } = videoData;
const fmt = (id: string): VideoFormat => formats.find((f) => f.id === id)!;
const res = (id: string) => resolutions.find((r) => r.id === id)!;
const needMBps = (id: string, resId: string, fps: number): number => mbpsToMBps(neededMbps(fmt(id), res(resId), fps, resolutions)!.mbps);
const figures = (f: VideoFormat): (RateFigure | FrameFigure)[] => (f.kind === 'rate' || f.kind === 'frame' ? f.figures : []);

describe('every value cites its source', () => {
  it('every figure (and every formula) names a known source, the table in it and the row', () => {
    const ids = new Set(sources.map((s) => s.id));
    for (const f of formats) {
      const cs = citesOf(f);
      expect(cs.length, f.id).toBeGreaterThan(0);
      for (const c of cs) {
        expect(ids.has(c.source), `${f.id}: ${c.source}`).toBe(true);
        expect(c.table.length, f.id).toBeGreaterThan(3);
        expect(c.row.length, f.id).toBeGreaterThan(3);
      }
    }
  });
  it('every Mb/s figure states the frame rate it is given for; per-frame figures and formulas say they hold at any', () => {
    for (const f of formats) {
      if (f.kind !== 'rate') {
        for (const c of citesOf(f)) expect(c.table, f.id).toMatch(/(any frame rate|fps alike)\)$/);
        continue;
      }
      for (const g of f.figures) {
        expect([23.976, 25, 29.97, 50, 59.94], `${f.id} ${g.res}`).toContain(g.fps);
        if (g.upTo !== undefined) expect(g.upTo, f.id).toBeGreaterThan(g.fps);
      }
    }
  });
  it('every source has a title, publisher, https URL and date', () => {
    for (const s of sources) {
      expect(s.title && s.publisher && s.date, s.id).toBeTruthy();
      expect(s.url).toMatch(/^https:\/\//);
    }
  });
  it('covers the five families and five resolutions, and every format has a figure at UHD', () => {
    expect(families.map((f) => f.id)).toEqual(['prores', 'dnxhr', 'braw', 'h26x', 'uncompressed']);
    expect(resolutions.map((r) => r.id)).toEqual(['hd', 'uhd', 'dci4k', '6k', '8k']);
    expect(frameRates[0]).toBe(23.976);
    expect(frameRates.at(-1)).toBe(120);
    for (const f of formats) expect(neededMbps(f, res('uhd'), 30, resolutions), f.id).not.toBeNull();
  });
});

describe("the makers' figures", () => {
  it("ProRes: Apple's appendix at the frame rate Apple gives each figure for", () => {
    // [format, resolution, fps, Mb/s] — Apple's 24p and 30p rows (23.976 and 29.97 fps).
    const apple: [string, string, number, number][] = [
      ['prores-hq', 'hd', 29.97, 220],
      ['prores-hq', 'uhd', 23.976, 707],
      ['prores-hq', 'uhd', 29.97, 884],
      ['prores-4444', 'uhd', 29.97, 1326],
      ['prores-xq', 'uhd', 29.97, 1989],
      ['prores-hq', 'dci4k', 29.97, 943],
      ['prores-hq', 'dci4k', 23.976, 754],
      ['prores-422', 'hd', 29.97, 147],
      ['prores-proxy', 'hd', 29.97, 45],
      ['prores-xq', 'hd', 29.97, 495],
      ['prores-hq', '8k', 59.94, 7542],
    ];
    for (const [id, r, fps, mbps] of apple)
      expect(neededMbps(fmt(id), res(r), fps, resolutions), `${id} ${r} ${fps}`).toEqual({ mbps, estimated: false });
  });
  it('884 Mb/s for UHD 29.97 ProRes 422 HQ is 110.5 MB/s; a 95 MB/s drive is not told it fits', () => {
    expect(needMBps('prores-hq', 'uhd', 29.97)).toBe(110.5);
    expect(95 * 0.8).toBeLessThan(needMBps('prores-hq', 'uhd', 29.97));
  });
  it("DNxHR: Avid's bytes per frame, which Root6's MB/s columns (2^20 bytes) restate", () => {
    // Root6: UHD DNxHR HQ 104.08 MB/s at 29.97; 4K DNxHR 444 444.16 MB/s at 59.94; 2K LB 4.59 at 23.976.
    expect((needMBps('dnxhr-hq', 'uhd', 29.97) * 1e6) / 2 ** 20).toBeCloseTo(104.08, 2);
    expect((needMBps('dnxhr-444', 'dci4k', 59.94) * 1e6) / 2 ** 20).toBeCloseTo(444.16, 2);
    const lb2k = figures(fmt('dnxhr-lb')).find((g) => g.res === 'hd') as FrameFigure;
    expect((lb2k.bytesPerFrame * 23.976) / 2 ** 20).toBeCloseTo(4.59, 2);
  });
  it("H.264: Sony's mode rates (100 Mb/s UHD 24–30p, 50 Mb/s HD up to 60p)", () => {
    expect(neededMbps(fmt('h264-camera'), res('uhd'), 25, resolutions)).toEqual({ mbps: 100, estimated: false });
    expect(neededMbps(fmt('h264-camera'), res('hd'), 59.94, resolutions)).toEqual({ mbps: 50, estimated: false });
  });
  it('uncompressed: the AJA cross-check, 8-bit 4:2:2 HD at 30 fps = 124.4 MB/s', () => {
    expect(needMBps('unc-8-422', 'hd', 30)).toBeCloseTo(124.416, 9);
  });
  it('estimates are marked as estimates: every BRAW and HEVC figure, and DNxHR HD', () => {
    for (const f of formats.filter((x) => x.family === 'braw' || x.id === 'hevc-camera')) {
      for (const r of resolutions) {
        const n = neededMbps(f, r, 29.97, resolutions);
        if (n) expect(n.estimated, `${f.id} ${r.id}`).toBe(true);
      }
    }
    expect(neededMbps(fmt('dnxhr-sq'), res('hd'), 29.97, resolutions)!.estimated).toBe(true);
  });
});

describe('rates agree with frame rate and pixel count', () => {
  it('within a format and resolution, every published figure gives the same size per frame (±1 %: the tables round)', () => {
    for (const f of formats) {
      if (f.kind !== 'rate') continue;
      for (const r of resolutions) {
        const perFrame = f.figures.filter((g) => g.res === r.id && g.upTo === undefined).map((g) => g.mbps / g.fps);
        if (perFrame.length < 2) continue;
        const mean = perFrame.reduce((a, b) => a + b, 0) / perFrame.length;
        for (const p of perFrame) expect(Math.abs(p / mean - 1), `${f.id} ${r.id}`).toBeLessThan(0.01);
      }
    }
  });
  it('the need scales with frame rate: doubling the rate doubles it, for every format with per-frame rates', () => {
    for (const f of formats) {
      for (const r of resolutions) {
        for (const fps of [23.976, 25, 29.97, 50, 59.94]) {
          const a = neededMbps(f, r, fps, resolutions);
          if (!a) continue;
          const b = neededMbps(f, r, fps * 2, resolutions)!;
          const modes = figures(f).some((g) => 'upTo' in g && g.upTo !== undefined);
          // Camera modes keep a rate across their frame rates; the rest double, within the tables'
          // rounding to whole Mb/s (Apple's smallest figure, 36 Mb/s, is ±1.4 %).
          if (modes) expect(b.mbps, `${f.id} ${r.id} ${fps}`).toBeGreaterThanOrEqual(a.mbps);
          else expect(Math.abs(b.mbps / a.mbps / 2 - 1), `${f.id} ${r.id} ${fps}`).toBeLessThan(0.015);
        }
      }
    }
  });
  it('for every family with per-pixel rates, UHD ≈ 4 × HD within 5 % at the same frame rate', () => {
    for (const fam of families) {
      for (const f of formats.filter((x) => x.family === fam.id)) {
        for (const fps of frameRates) {
          const hd = neededMbps(f, res('hd'), fps, resolutions)!;
          const uhd = neededMbps(f, res('uhd'), fps, resolutions)!;
          if (fam.perMode) {
            // Camera modes set a rate per mode, not per pixel (the family says so); UHD still needs more.
            expect(uhd.mbps, `${f.id} ${fps}`).toBeGreaterThan(hd.mbps);
            continue;
          }
          expect(Math.abs(uhd.mbps / hd.mbps / 4 - 1), `${f.id} ${fps}`).toBeLessThan(0.05);
        }
      }
    }
  });
  it('only the camera-mode family is exempt from the per-pixel rule, and it says why', () => {
    expect(families.filter((f) => f.perMode).map((f) => f.id)).toEqual(['h26x']);
    expect(families.find((f) => f.id === 'h26x')!.perMode).toMatch(/per recording mode/);
  });
  it('each step up in resolution needs more, at every frame rate', () => {
    for (const f of formats) {
      for (const fps of frameRates) {
        const needs = resolutions.map((r) => neededMbps(f, r, fps, resolutions)?.mbps).filter((n): n is number => n !== undefined);
        for (let i = 1; i < needs.length; i++) expect(needs[i]!, `${f.id} ${fps}`).toBeGreaterThan(needs[i - 1]!);
      }
    }
  });
});
