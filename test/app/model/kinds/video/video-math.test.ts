// The video tables' arithmetic against hand-computed figures.
import { describe, expect, it } from 'vitest';
import { videoData } from '../../../../../app/src/model/kinds/video/data.js';
import {
  cellVerdict,
  fits,
  formatFps,
  maxFps,
  mbpsToMBps,
  neededMbps,
  usableMBps,
  withMarginMBps,
  type VideoFormat,
} from '../../../../../app/src/model/kinds/video/math.js';

const { formats, resolutions } = videoData;
const fmt = (id: string): VideoFormat => formats.find((f) => f.id === id)!;
const res = (id: string) => resolutions.find((r) => r.id === id)!;

describe('neededMbps', () => {
  it("uses the maker's figure for the frame rate it is given for: ProRes 422 HQ UHD is 707 Mb/s at 23.976 and 884 Mb/s at 29.97", () => {
    const at24 = neededMbps(fmt('prores-hq'), res('uhd'), 23.976, resolutions)!;
    expect(at24).toEqual({ mbps: 707, estimated: false });
    const at30 = neededMbps(fmt('prores-hq'), res('uhd'), 29.97, resolutions)!;
    expect(at30).toEqual({ mbps: 884, estimated: false });
    expect(mbpsToMBps(at30.mbps)).toBe(110.5);
  });
  it('treats 24/30/60 as the rows of 23.976/29.97/59.94, scaled up a hair (the safe side), not as estimates', () => {
    const n = neededMbps(fmt('prores-hq'), res('uhd'), 30, resolutions)!;
    expect(n.mbps).toBeCloseTo((884 * 30) / 29.97, 9);
    expect(n.estimated).toBe(false);
  });
  it('scales linearly beyond the table and marks it: ProRes 422 HQ HD at 119.88 = 2 × 440 Mb/s (estimate)', () => {
    const n = neededMbps(fmt('prores-hq'), res('hd'), 119.88, resolutions)!;
    expect(n.mbps).toBeCloseTo(880, 9);
    expect(n.estimated).toBe(true);
  });
  it('uncompressed 10-bit 4:2:2 1080p30 = 1920×1080×20×30/8 = 155.52 MB/s', () => {
    const n = neededMbps(fmt('unc-10-422'), res('hd'), 30, resolutions)!;
    expect(mbpsToMBps(n.mbps)).toBeCloseTo(155.52, 9);
  });
  it('DNxHR HQ UHD 29.97 from Avid bytes per frame: 3,641,344 × 29.97 B/s, the maker’s own figure', () => {
    const n = neededMbps(fmt('dnxhr-hq'), res('uhd'), 29.97, resolutions)!;
    expect(mbpsToMBps(n.mbps)).toBeCloseTo((3641344 * 29.97) / 1e6, 9);
    expect(n.estimated).toBe(false);
  });
  it('DNxHR HD is scaled by pixel count from Avid’s 2048×1080 figure, and marked as an estimate', () => {
    const n = neededMbps(fmt('dnxhr-hq'), res('hd'), 25, resolutions)!;
    expect(mbpsToMBps(n.mbps)).toBeCloseTo((((970752 * 1920) / 2048) * 25) / 1e6, 9);
    expect(n.estimated).toBe(true);
  });
  it('BRAW 3:1 6K 24 = 6144×3240×12/3×24/8 MB/s, flagged as an estimate', () => {
    const n = neededMbps(fmt('braw-3'), res('6k'), 24, resolutions)!;
    expect(mbpsToMBps(n.mbps)).toBeCloseTo((6144 * 3240 * 4 * 24) / 8 / 1e6, 9);
    expect(n.estimated).toBe(true);
  });
  it('a camera mode keeps its rate across its frame rates and scales beyond them: H.264 UHD 100 Mb/s at 24–30, 200 at 59.94', () => {
    for (const fps of [23.976, 25, 29.97, 30])
      expect(neededMbps(fmt('h264-camera'), res('uhd'), fps, resolutions)).toEqual({ mbps: 100, estimated: false });
    const n = neededMbps(fmt('h264-camera'), res('uhd'), 59.94, resolutions)!;
    expect(n.mbps).toBeCloseTo(200, 9);
    expect(n.estimated).toBe(true);
  });
  it('answers null where a format is not offered (H.264 camera 8K)', () => {
    expect(neededMbps(fmt('h264-camera'), res('8k'), 30, resolutions)).toBeNull();
  });
});

describe('margin and verdicts', () => {
  it('keeps a 20 % margin by default', () => {
    expect(usableMBps(100)).toBe(80);
    expect(withMarginMBps(80)).toBe(100);
    expect(fits(100, 80)).toBe(true);
    expect(fits(100, 80.01)).toBe(false);
    expect(fits(100, 90, 0)).toBe(true);
  });
  it('a drive sustaining 120 MB/s cannot record ProRes 422 HQ UHD 29.97 (needs 110.5 MB/s; 138.1 with the margin)', () => {
    // With Apple's 24p figure stored as 29.97 (88.4 MB/s), 120 × 0.8 = 96 said ✓.
    const v = cellVerdict(fmt('prores-hq'), res('uhd'), 29.97, { write: 120, read: 138.2 }, resolutions)!;
    expect(v.neededMBps).toBe(110.5);
    expect(withMarginMBps(v.neededMBps)).toBeCloseTo(138.125, 9);
    expect(v.write.ok).toBe(false);
    expect(v.read.ok).toBe(true);
  });
  it('"How fast?" is the highest whole frame rate that fits', () => {
    // 10-bit 4:2:2 HD: 5.184 MB per frame; 500 MB/s × 0.8 = 400 → 77.16 → 77
    expect(maxFps(fmt('unc-10-422'), res('hd'), 500, resolutions)).toBe(77);
    expect(maxFps(fmt('unc-12-444'), res('8k'), 100, resolutions)).toBe(0);
    // ProRes 422 HQ UHD at 95 MB/s: 76 MB/s usable; Apple's 25p row needs 92.1 MB/s, its 24p row 88.4 → below 24 fps
    const fast = maxFps(fmt('prores-hq'), res('uhd'), 95, resolutions)!;
    expect(fast).toBe(Math.floor(76 / (707 / 8 / 23.976)));
    // A camera mode: H.264 UHD needs 12.5 MB/s at every rate up to 30, so 20 MB/s (16 usable) gives 30 × 16 / 12.5 = 38
    expect(maxFps(fmt('h264-camera'), res('uhd'), 20, resolutions)).toBe(38);
    expect(maxFps(fmt('h264-camera'), res('8k'), 20, resolutions)).toBeNull();
  });
  it('a cell’s verdict agrees with its frame rates: ✓ exactly when How fast? reaches the chosen rate', () => {
    for (const f of formats) {
      for (const r of resolutions) {
        for (const speed of [20, 95, 110.47, 400, 1500]) {
          const v = cellVerdict(f, r, 29.97, { write: speed, read: speed }, resolutions);
          if (!v) continue;
          if (v.write.ok) expect(v.write.maxFps, `${f.id} ${r.id} ${speed}`).toBeGreaterThanOrEqual(29);
          else expect(v.write.maxFps, `${f.id} ${r.id} ${speed}`).toBeLessThan(30);
        }
      }
    }
  });
  it('writes frame rates as people do', () => {
    expect(formatFps(23.976)).toBe('23.98');
    expect(formatFps(119.88)).toBe('119.88');
    expect(formatFps(30)).toBe('30');
  });
});
