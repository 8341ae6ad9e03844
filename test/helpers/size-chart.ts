// The transfer-size charts (model/report/size-chart.ts) of an exported HTML page, read back as a
// browser reads them (jsdom): each chart, and each line's dots with the size and MB/s they carry.
import { createRequire } from 'node:module';

// jsdom ships no types (the renderer's tests get it as vitest's environment); only its parser is used.
const { JSDOM } = createRequire(import.meta.url)('jsdom') as { JSDOM: new (html: string) => { window: { document: Document } } };

/** An HTML page as a browser's document. */
export function parseHtml(html: string): Document {
  return new JSDOM(html).window.document;
}

/** The transfer-size charts of an HTML page, read as a browser reads them. */
export function sizeCharts(html: string): Element[] {
  return [...parseHtml(html).querySelectorAll('svg[data-chart="transfer-size"]')];
}

/** One line of a chart: its dots as [bytes, MB/s, x, y]. */
export function dots(svg: Element, dir: 'write' | 'read', run = 1): Array<[number, number, number, number]> {
  const g = svg.querySelector(`g[data-series="${dir}"][data-run="${run}"]`);
  if (!g) return [];
  return [...g.querySelectorAll('circle')].map((c) => [
    Number(c.getAttribute('data-bs')),
    Number(c.getAttribute('data-mbps')),
    Number(c.getAttribute('cx')),
    Number(c.getAttribute('cy')),
  ]);
}
