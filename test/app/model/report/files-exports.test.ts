// Stibium's post from the many-file test's exports (seeds 000/001): the HTML page draws each file's
// MB/s against its size on a log axis, write and read, with the rate the Theil–Sen fit predicts as
// a dashed curve; the Markdown says that prediction at the set's smallest and largest file. The
// document is a real run (test/fixtures/results/files.json: 24 files, 3.15–168 MB, on this
// machine's virtio disk). The HTML is read back by an independent parser (jsdom).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { renderCardSvg } from '../../../../app/src/model/report/card.js';
import { renderExport } from '../../../../app/src/model/report/export.js';
import { parseHtml } from '../../../helpers/size-chart.js';

const FIXTURES = path.join(import.meta.dirname, '../../..', 'fixtures', 'results');
const doc = JSON.parse(readFileSync(path.join(FIXTURES, 'files.json'), 'utf8')) as ResultDocument;
const run = doc.files!.runs[0]!;

/** A group's circles as [bytes, MB/s, x, y]. */
function circles(g: Element | null): Array<[number, number, number, number]> {
  return [...(g?.querySelectorAll('circle') ?? [])].map((c) => [
    Number(c.getAttribute('data-bs')),
    Number(c.getAttribute('data-mbps')),
    Number(c.getAttribute('cx')),
    Number(c.getAttribute('cy')),
  ]);
}

describe("the many-file test's HTML export: Stibium's scatter", () => {
  const html = renderExport([doc], 'html').text;
  const page = parseHtml(html);
  const svg = page.querySelector('svg[data-chart="file-size"]')!;

  it('draws a dot per file at its size and MB/s, on a log axis of file size, for each pass', () => {
    expect(page.querySelectorAll('svg[data-chart="file-size"]')).toHaveLength(1);
    for (const dir of ['write', 'read'] as const) {
      const d = circles(svg.querySelector(`g[data-series="${dir}"][data-style="dots"]`));
      const files = [...run.items].sort((a, b) => a.bytes - b.bytes);
      expect(d.map(([bs]) => bs)).toEqual(files.map((i) => i.bytes));
      // Each dot's MB/s is its file's size over its time (to the 0.1 MB/s the SVG keeps).
      d.forEach(([, mbps], k) => expect(Math.abs(mbps - files[k]!.bytes / files[k]![dir]!.seconds / 1e6)).toBeLessThanOrEqual(0.05));
      // x is the log of the size: the smallest and largest files pin the axis, the rest fall in
      // proportion to log(size) between them (within the 0.1 px the SVG keeps).
      const [first, last] = [d[0]!, d.at(-1)!];
      for (const [bs, , x] of d) {
        const at = first[2] + ((last[2] - first[2]) * Math.log(bs / first[0])) / Math.log(last[0] / first[0]);
        expect(Math.abs(x - at)).toBeLessThanOrEqual(0.15);
      }
    }
    const labels = [...svg.querySelectorAll('text')].map((t) => t.textContent);
    // Decimal ticks, as the set was asked (2 MB – 200 MB); no transfer-size labels.
    expect(labels).toEqual(expect.arrayContaining(['10 MB', '100 MB', 'file size', 'MB/s', 'Write', 'Read']));
    expect(labels).not.toContain('transfer size');
  });

  it('draws the Theil–Sen fit as the rate it predicts, size ÷ (overhead + size × slope), with no dots', () => {
    for (const dir of ['write', 'read'] as const) {
      const g = svg.querySelector(`g[data-series="${dir}"][data-style="model"]`)!;
      expect(g.querySelectorAll('circle')).toHaveLength(0);
      const path = g.querySelector('path')!;
      expect(path.getAttribute('stroke-dasharray')).toBeTruthy();
      // The curve rises with size (a fixed cost per file weighs less on a larger file).
      const ys = [...path.getAttribute('d')!.matchAll(/[ML] [\d.]+ ([\d.]+)/g)].map((m) => Number(m[1]));
      expect(ys.length).toBe(24);
      for (let i = 1; i < ys.length; i++) expect(ys[i]!).toBeLessThanOrEqual(ys[i - 1]!);
    }
  });

  it('is the page’s one chart, and the page names no address (inline SVG needs no namespace)', () => {
    expect(page.querySelectorAll('svg')).toHaveLength(1);
    expect(html).not.toMatch(/https?:/i);
  });
});

describe("the many-file test's Markdown: what the fit predicts", () => {
  it('says each pass’s predicted MB/s at the smallest and largest file, its limit and its cost per file', () => {
    const md = renderExport([doc], 'md').text;
    expect(md).toContain('### MB/s against file size');
    // Write: 3,145,728 B / (1.7959 ms + 3,145,728 × 5.3517e-10 s) = 904 MB/s; 167,772,160 B → 1,832 MB/s.
    const at = (dir: 'write' | 'read', b: number) => b / (run[dir].theilSen!.intercept + run[dir].theilSen!.slope * b) / 1e6;
    expect(Math.round(at('write', 3145728))).toBe(904);
    expect(Math.round(at('write', 167772160))).toBe(1832);
    expect(md).toContain(
      '_Write: the Theil–Sen fit predicts 904.1 MB/s for the smallest file (3.15 MB) and 1,832 MB/s for the largest file (168 MB), tending to 1,869 MB/s (its slope) as files grow; each file costs 1.80 ms more (its intercept)._',
    );
    expect(md).toMatch(
      /_Read: the Theil–Sen fit predicts 1,022 MB\/s for the smallest file \(3\.15 MB\) and 1,424 MB\/s for the largest file \(168 MB\), tending to 1,434 MB\/s/,
    );
  });
});

describe("the many-file test's card", () => {
  it('names the set by its files’ sizes as they are (3 MiB is 3.15 MB), as the CLI and the exports do', () => {
    const { svg } = renderCardSvg(doc);
    // Before, a whole-MiB size was read as an asked size aligned down: "24 files · 4 MB – 168 MB".
    expect(svg).toContain('24 files · 3.15 MB – 168 MB · 1.36 GB in all');
  });
});
