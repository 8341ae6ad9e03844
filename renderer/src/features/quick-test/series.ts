// Shapes the live series for the chart: at most `max` points, each bucket averaged per phase,
// so recharts only draws and never sees more than it can render smoothly.
import type { WriteReadPoint } from './store';

export const CHART_POINTS = 300;

export function downsample(points: readonly WriteReadPoint[], max = CHART_POINTS): WriteReadPoint[] {
  if (points.length <= max) return points.slice();
  const out: WriteReadPoint[] = [];
  const size = points.length / max;
  for (let b = 0; b < max; b++) {
    const from = Math.floor(b * size);
    const to = Math.min(points.length, Math.floor((b + 1) * size));
    let w = 0;
    let wn = 0;
    let r = 0;
    let rn = 0;
    for (let i = from; i < to; i++) {
      const p = points[i]!;
      if (p.write !== null) {
        w += p.write;
        wn++;
      }
      if (p.read !== null) {
        r += p.read;
        rn++;
      }
    }
    const last = points[to - 1] ?? points[from]!;
    out.push({ t: last.t, write: wn ? w / wn : null, read: rn ? r / rn : null });
  }
  return out;
}
