// "Will it work?" in every export that fits: a Quick Test's verdicts as Markdown and HTML tables,
// CSV rows and a JSON object, at the chosen frame rate, each saying how it was decided. The
// figures are checked against Apple's published ProRes 422 HQ UHD rates (884 Mb/s at 29.97 fps,
// 737 at 25 fps) with the 20 % margin worked by hand.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { renderExport } from '../../../../app/src/model/report/export.js';
import { willItWorkFps, willItWork } from '../../../../app/src/model/kinds/video/will-it-work.js';
import { parseCsv } from '../../../helpers/csv.js';

const FIXTURES = path.join(import.meta.dirname, '../../..', 'fixtures', 'results');
const load = (kind: string): ResultDocument => JSON.parse(readFileSync(path.join(FIXTURES, `${kind}.json`), 'utf8')) as ResultDocument;

/** The fixture's Quick Test with every write at `write` MB/s and every read at `read`. */
function quickAt(write: number, read: number, id = 'slow-1'): ResultDocument {
  const doc = load('quick');
  doc.id = id;
  doc.label = `Slow ${id}`;
  for (const t of doc.tests) t.mbps = t.rw === 'write' ? write : read;
  return doc;
}

/** The Markdown row of one format × resolution, cells trimmed. */
function mdRow(md: string, format: string, res: string): string[] | undefined {
  return md
    .split('\n')
    .filter((l) => l.startsWith(`| ${format} | ${res} |`))
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    )[0];
}

const METHOD = /measured speed \(the mean of the runs\).*with a 20 % margin.*a paced test checks frame by frame/;

describe('Markdown', () => {
  it('prints a table per family at 29.97 fps: 120 MB/s cannot record UHD ProRes 422 HQ (needs 110.5 → 138 MB/s), 200 can play it', () => {
    const md = renderExport([quickAt(120, 200)], 'md').text;
    expect(md).toContain('### Will it work? At 29.97 fps');
    expect(md).toContain('**ProRes at 29.97 fps**');
    expect(md).toContain('**H.264 / HEVC at 29.97 fps**');
    // Needs 884 / 8 / 0.8 = 138 MB/s; 96 usable MB/s carries 737 Mb/s (25p) scaled to 26 fps, not 27.
    expect(mdRow(md, 'ProRes 422 HQ', 'UHD')).toEqual(['ProRes 422 HQ', 'UHD', '138', '✗', '✓', '26', '43']);
    expect(md).toMatch(METHOD);
    // One margin convention: the need with the margin (138) against the measured mean.
    expect(md).toContain('Measured, mean of 3 runs: write 120 MB/s (best 120), read 200 MB/s (best 200).');
  });

  it('follows the chosen frame rate', () => {
    const md = renderExport([quickAt(120, 200)], 'md', { willItWork: { fps: 25 } }).text;
    expect(md).toContain('### Will it work? At 25 fps');
    // 737 Mb/s at 25 fps = 92.1 MB/s, 115 with the margin: 96 usable MB/s records it.
    expect(mdRow(md, 'ProRes 422 HQ', 'UHD')?.slice(2, 5)).toEqual(['115', '✓', '✓']);
  });

  it('leaves it out of results other than a Quick Test', () => {
    for (const kind of ['cdm', 'sustained', 'files', 'hash']) expect(renderExport([load(kind)], 'md').text).not.toContain('Will it work?');
  });

  it('says when the speeds carry warnings, so a cache cannot pass for the disk', () => {
    const doc = quickAt(5000, 9000);
    doc.flags = [{ code: 'loop-cached', message: 'A loop device over the page cache.', fix: 'Test the disk under it.' }];
    const md = renderExport([doc], 'md').text;
    expect(md).toMatch(/speeds carry warnings \(loop device over the page cache\).*may be a cache's/);
    // No ✓ under it, and "How fast?" stops at the highest rate the table offers.
    expect(mdRow(md, 'ProRes 422 HQ', 'UHD')).toEqual(['ProRes 422 HQ', 'UHD', '138', '?', '?', '\\> 120', '\\> 120']);
  });

  it('compares the common formats per result, write / read', () => {
    const md = renderExport([quickAt(120, 200, 'a'), quickAt(1000, 1000, 'b')], 'md').text;
    expect(md).toContain('**Common formats at 29.97 fps: write / read**');
    const row = md.split('\n').find((l) => l.startsWith('| ProRes 422 HQ UHD |'))!;
    expect(
      row
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    ).toEqual(['ProRes 422 HQ UHD', '138', '✗ / ✓', '✓ / ✓']);
    expect(md).toMatch(METHOD);
  });
});

describe('HTML', () => {
  it('has the section, a captioned table per family, and the method', () => {
    const html = renderExport([quickAt(120, 200)], 'html').text;
    expect(html).toContain('<h2>Will it work? At 29.97 fps</h2>');
    expect(html).toContain('<caption>ProRes at 29.97 fps</caption>');
    expect(html).toMatch(
      /<tr><th scope="row">ProRes 422 HQ<\/th><td class="num">UHD<\/td><td class="num">138<\/td><td class="num">✗<\/td><td class="num">✓<\/td>/,
    );
    expect(html).toMatch(METHOD);
  });
});

describe('CSV', () => {
  it('adds a row per format × resolution with the verdict columns, read back by an independent parser', () => {
    const doc = quickAt(120, 200);
    const rows = parseCsv(renderExport([doc], 'csv').text);
    const head = rows[0]!;
    const col = (n: string): number => head.indexOf(n);
    expect(head.slice(col('format'), col('decided_by') + 1).join(',')).toBe(
      'format,resolution,fps,needs_mbps,write_ok,read_ok,write_fps,read_fps,decided_by',
    );
    const video = rows.slice(1).filter((r) => r[col('test')] === 'will it work');
    expect(video).toHaveLength(willItWork(doc)!.rows.length);
    expect(video.length).toBeGreaterThan(80); // 22 formats × up to 5 resolutions
    const hq = video.find((r) => r[col('format')] === 'ProRes 422 HQ' && r[col('resolution')] === 'UHD')!;
    expect(hq[col('result_id')]).toBe(doc.id);
    expect(hq[col('fps')]).toBe('29.97');
    expect(Number(hq[col('needs_mbps')])).toBeCloseTo(884 / 8 / 0.8, 2);
    expect([hq[col('write_ok')], hq[col('read_ok')], hq[col('write_fps')], hq[col('read_fps')]]).toEqual(['no', 'yes', '26', '43']);
    expect(hq[col('decided_by')]).toBe('mean speed vs need with 20 % margin');
    // The test rows leave the video columns empty.
    const write = rows.find((r) => r[col('test')] === 'Write')!;
    expect(write[col('format')]).toBe('');
  });
});

describe('JSON', () => {
  it('adds a willItWork object: method, frame rate, margin, the speeds judged and a row per format × resolution', () => {
    const parsed = JSON.parse(renderExport([quickAt(120, 200)], 'json', { willItWork: { fps: 59.94 } }).text);
    const w = parsed.willItWork;
    expect(w.decidedBy).toBe('average');
    expect(w.method).toMatch(METHOD);
    expect(w.fps).toBe(59.94);
    expect(w.margin).toBe(0.2);
    expect(w.sustainedMBps).toEqual({ write: 120, read: 200 });
    const hq = w.rows.find((r: { formatId: string; resolutionId: string }) => r.formatId === 'prores-hq' && r.resolutionId === 'uhd');
    // Apple's 60p row: 1768 Mb/s = 221 MB/s, 276 with the margin; 200 MB/s reads do not carry it.
    expect(hq.dataRateMBps).toBeCloseTo(1768 / 8, 6);
    expect(hq.needsMBps).toBeCloseTo(1768 / 8 / 0.8, 6);
    expect(hq.write.outcome).toBe('fail');
    expect(hq.read.outcome).toBe('fail');
    expect(JSON.parse(renderExport([load('cdm')], 'json').text).willItWork).toBeUndefined();
  });

  it('refuses a frame rate the table does not know, naming the ones it does', () => {
    expect(() => willItWorkFps(31)).toThrow(/31 fps is not one of the frame rates the table knows: 23\.98, 24, 25, 29\.97/);
  });
});
