// The sweep's share card: MB/s against transfer size (report/size-chart.ts, the exports' drawing)
// beside the headline figures: QuickBench's 4 KB and 20–100 MB averages when the preset has them,
// else each direction's top speed and where it reaches 90 % of it.
import { type Box, COLOR, mbps, text } from '../../report/card-draw.js';
import { type Metric, metricValue } from '../../report/figure-text.js';
import { DARK_LOOK, drawSizeChart } from '../../report/size-chart.js';
import type { ResultDocument } from '../../result.js';
import { KiB } from '../plan.js';
import { transferSizeText } from './plan.js';
import { sweepChart } from './section.js';

const SIDE_W = 200;

export function sweepCard(doc: ResultDocument, box: Box, all: readonly Metric[]): string | undefined {
  const chart = sweepChart(doc, 'MB/s against transfer size');
  if (!chart) return undefined;
  const out = [drawSizeChart(chart, { x: box.x, y: box.y, w: box.w - SIDE_W - 16, h: box.h }, DARK_LOOK)];
  const find = (key: string): Metric | undefined => all.find((m) => m.key === key);
  // Each panel: a caption, then write and read in their colours.
  const panels: Array<{ caption: string; write: string; read: string; unit: string }> = [];
  const averages = doc.sweep?.runs[0]?.averages ?? [];
  for (const a of averages) {
    const w = find(`Sweep/write.${a.id}MBps`);
    const r = find(`Sweep/read.${a.id}MBps`);
    if (w && r) panels.push({ caption: `${a.name} AVERAGE`, write: mbps(metricValue(w)), read: mbps(metricValue(r)), unit: 'MB/s' });
  }
  if (panels.length === 0) {
    const w = find('Sweep/write.topMBps');
    const r = find('Sweep/read.topMBps');
    if (w && r) panels.push({ caption: 'TOP SPEED', write: mbps(metricValue(w)), read: mbps(metricValue(r)), unit: 'MB/s' });
    const wk = find('Sweep/write.fullSpeedKiB');
    const rk = find('Sweep/read.fullSpeedKiB');
    if (wk && rk)
      panels.push({
        caption: '90 % OF TOP FROM',
        write: transferSizeText(metricValue(wk) * KiB),
        read: transferSizeText(metricValue(rk) * KiB),
        unit: '',
      });
  }
  const sx = box.x + box.w - SIDE_W;
  let y = box.y + 4;
  for (const p of panels) {
    out.push(text(sx, y + 10, p.caption, { size: 11, weight: 700, fill: COLOR.muted, spacing: 1.4 }));
    for (const [tag, value, fill] of [
      ['W', p.write, COLOR.write],
      ['R', p.read, COLOR.read],
    ] as const) {
      y += 31;
      out.push(text(sx, y + 6, tag, { size: 13, weight: 700, fill: COLOR.faint }));
      out.push(
        text(sx + 20, y + 8, value, {
          size: 26,
          weight: 700,
          fill,
          spacing: -0.4,
          ...(p.unit ? { tail: { text: p.unit, size: 13, weight: 600, fill: COLOR.muted } } : {}),
        }),
      );
    }
    y += 34;
  }
  const runs = doc.sweep?.runs.length ?? 1;
  if (runs > 1) out.push(text(sx, box.y + box.h - 4, `mean of ${runs} runs`, { size: 12, weight: 600, fill: COLOR.faint }));
  return out.join('\n');
}
