// The human-readable report printed at the end of a CLI run: one row per test (and a best-of
// table when runs repeat, as CrystalDiskMark reports), then what the numbers depend on: cache
// mode, data pattern, flags.
import type { ResultDocument, ResultTest } from '../core/result.js';
import { formatBytes, formatBytesBinary, formatLatencyUs } from '../core/units.js';

function renderTable(header: string[], rows: string[][], alignRight: boolean[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmt = (cells: string[]): string =>
    cells
      .map((c, i) => (alignRight[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

function testRow(t: ResultTest, withRun: boolean): string[] {
  const row = [t.name];
  if (withRun) row.push(String(t.run));
  row.push(
    t.mbps.toFixed(t.mbps >= 100 ? 1 : 2),
    Math.round(t.iops).toLocaleString('en-US'),
    formatLatencyUs(t.latencyUs.mean),
    formatLatencyUs(t.latencyUs.p99),
    t.cacheMode,
  );
  return row;
}

/** Best run per test name (highest MB/s), in plan order. */
export function bestRuns(tests: readonly ResultTest[]): ResultTest[] {
  const best = new Map<string, ResultTest>();
  for (const t of tests) {
    const b = best.get(t.name);
    if (!b || t.mbps > b.mbps) best.set(t.name, t);
  }
  return [...best.values()];
}

export function formatReport(doc: ResultDocument): string {
  const runs = doc.settings.runs;
  const multi = runs > 1;
  const header = ['Test', ...(multi ? ['Run'] : []), 'MB/s', 'IOPS', 'Mean lat', 'p99 lat', 'Cache'];
  const right = [false, ...(multi ? [true] : []), true, true, true, true, false];
  const out: string[] = [];
  const t = doc.target;
  out.push(
    `DiskDial ${doc.kind} test of ${t.path}`,
    `  ${t.fs} on ${t.device.node ?? t.volume} (${t.device.model}, ${t.device.bus}${t.device.link ? `, ${t.device.link}` : ''}), test file ${formatBytes(doc.settings.size)} (${formatBytesBinary(doc.settings.size)})`,
    '',
    renderTable(header, doc.tests.map((x) => testRow(x, multi)), right),
  );
  if (multi) {
    const bHeader = ['Best of ' + runs, 'MB/s', 'IOPS', 'Mean lat', 'p99 lat', 'Cache'];
    out.push('', renderTable(bHeader, bestRuns(doc.tests).map((x) => testRow(x, false)), [false, true, true, true, true, false]));
  }
  out.push('', `Cache mode: ${doc.cacheMode}   Data: ${doc.dataPattern}   MB/s = 10^6 bytes/s`);
  for (const f of doc.flags) out.push(`! ${f.message}`, `  Fix: ${f.fix}`);
  return `${out.join('\n')}\n`;
}
