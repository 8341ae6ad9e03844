// Plain-text tables and figures as the CLI prints them: every kind's table lines draw with these.
export function renderTable(header: string[], rows: string[][], alignRight: boolean[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmt = (cells: string[]): string =>
    cells
      .map((c, i) => (alignRight[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

/** MB/s in a text report: whole above 100, one decimal below, a dash for none. */
export const mbText = (x: number): string => (Number.isFinite(x) ? x.toFixed(x >= 100 ? 0 : 1) : '—');
