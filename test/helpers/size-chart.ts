// The transfer-size charts (model/report/size-chart.ts) of an exported HTML page, read back as a
// browser reads them (jsdom): each chart, and each line's dots with the size and MB/s they carry.
import { JSDOM } from 'jsdom';

/** The transfer-size charts of an HTML page, read as a browser reads them. */
export function sizeCharts(html: string): Element[] {
  const { document } = new JSDOM(html).window;
  return [...document.querySelectorAll('svg[data-chart="transfer-size"]')];
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
