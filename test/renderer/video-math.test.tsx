// The video table's arithmetic against hand-computed figures, and the data file's shape.
import { describe, expect, it } from 'vitest';
import { videoData } from '../../renderer/src/features/quick-test/video-data';
import { cellVerdict, exactMaxFps, fits, formatFps, maxListedFps, mbpsToMBps, neededMbps, usableMBps, type VideoFormat } from '../../renderer/src/features/quick-test/video-math';

const { formats, resolutions, frameRates, sources } = videoData;
const fmt = (id: string): VideoFormat => formats.find((f) => f.id === id)!;
const res = (id: string) => resolutions.find((r) => r.id === id)!;

describe('neededMbps', () => {
  it('ProRes 422 HQ UHD 29.97 = 707 Mb/s = 88.375 MB/s (Apple)', () => {
    const n = neededMbps(fmt('prores-hq'), res('uhd'), 29.97, resolutions)!;
    expect(n.mbps).toBe(707);
    expect(n.estimated).toBe(false);
    expect(mbpsToMBps(n.mbps)).toBe(88.375);
  });
  it('scales linearly with frame rate: ProRes 422 HQ HD at 59.94 = 440 Mb/s', () => {
    expect(neededMbps(fmt('prores-hq'), res('hd'), 59.94, resolutions)!.mbps).toBeCloseTo(440, 9);
  });
  it('uncompressed 10-bit 4:2:2 1080p30 = 1920×1080×20×30/8 = 155.52 MB/s', () => {
    const n = neededMbps(fmt('unc-10-422'), res('hd'), 30, resolutions)!;
    expect(mbpsToMBps(n.mbps)).toBeCloseTo(155.52, 9);
  });
  it('DNxHR HQ UHD 29.97 from Avid bytes per frame: 3,641,344 × 29.97 B/s', () => {
    const n = neededMbps(fmt('dnxhr-hq'), res('uhd'), 29.97, resolutions)!;
    expect(mbpsToMBps(n.mbps)).toBeCloseTo((3641344 * 29.97) / 1e6, 9);
  });
  it('BRAW 3:1 6K 24 = 6144×3456×12/3×24/8 MB/s, flagged as an estimate', () => {
    const n = neededMbps(fmt('braw-3'), res('6k'), 24, resolutions)!;
    expect(mbpsToMBps(n.mbps)).toBeCloseTo((6144 * 3456 * 4 * 24) / 8 / 1e6, 9);
    expect(n.estimated).toBe(true);
  });
  it('scales missing resolutions by pixel count and marks them estimated', () => {
    const n = neededMbps(fmt('prores-hq'), res('8k'), 29.97, resolutions)!;
    expect(n.mbps).toBeCloseTo(707 * 4, 9);
    expect(n.estimated).toBe(true);
  });
  it('answers null where a format is not offered (H.264 camera 8K)', () => {
    expect(neededMbps(fmt('h264-camera'), res('8k'), 30, resolutions)).toBeNull();
  });
});

describe('margin and verdicts', () => {
  it('keeps a 20 % margin by default', () => {
    expect(usableMBps(100)).toBe(80);
    expect(fits(100, 80)).toBe(true);
    expect(fits(100, 80.01)).toBe(false);
    expect(fits(100, 90, 0)).toBe(true);
  });
  it('ProRes 422 HQ UHD 29.97 needs 88.375 MB/s: 110.47 MB/s sustained is just enough', () => {
    const f = fmt('prores-hq');
    // 88.375 / 0.8 = 110.46875
    expect(fits(110.47, 88.375)).toBe(true);
    expect(fits(110.4, 88.375)).toBe(false);
    const v = cellVerdict(f, res('uhd'), 29.97, { write: 110.47, read: 100 }, frameRates, resolutions)!;
    expect(v.write.ok).toBe(true);
    expect(v.read.ok).toBe(false);
    expect(v.read.maxListed).toBe(25); // 25 fps needs 73.7 MB/s ≤ 80
  });
  it('exact fps = floor(usable / MB per frame)', () => {
    // 10-bit 4:2:2 HD: 5.184 MB per frame; 500 MB/s × 0.8 = 400 → 77.16 → 77
    expect(exactMaxFps(fmt('unc-10-422'), res('hd'), 500, resolutions)).toBe(77);
    expect(maxListedFps(fmt('unc-10-422'), res('hd'), 500, frameRates, resolutions)).toBe(60);
    expect(maxListedFps(fmt('unc-12-444'), res('8k'), 100, frameRates, resolutions)).toBeNull();
  });
});

describe('the data file', () => {
  it('names a known source for every format, and every source has title, publisher, URL and date', () => {
    const ids = new Set(sources.map((s) => s.id));
    for (const f of formats) expect(ids.has(f.source), f.id).toBe(true);
    for (const s of sources) {
      expect(s.title && s.publisher && s.date).toBeTruthy();
      expect(s.url).toMatch(/^https:\/\//);
    }
  });
  it('covers every family asked for and the five resolutions, and every format has a figure at HD or UHD', () => {
    expect(videoData.families.map((f) => f.id)).toEqual(['prores', 'dnxhr', 'braw', 'h26x', 'uncompressed']);
    expect(resolutions.map((r) => r.id)).toEqual(['hd', 'uhd', 'dci4k', '6k', '8k']);
    expect(frameRates[0]).toBe(23.976);
    expect(frameRates.at(-1)).toBe(120);
    for (const f of formats) expect(neededMbps(f, res('uhd'), 30, resolutions), f.id).not.toBeNull();
  });
  it('writes frame rates as people do', () => {
    expect(formatFps(23.976)).toBe('23.98');
    expect(formatFps(119.88)).toBe('119.88');
    expect(formatFps(30)).toBe('30');
  });
});
