// The human-readable report printed at the end of a CLI run: one row per test (and a best-of
// table when runs repeat, as CrystalDiskMark reports), then what the numbers depend on: cache
// mode, data pattern, flags (⚠ warning with its fix, ℹ information).
import type { LinkInfo } from '../core/link-types.js';
import type { ResultDocument, ResultFlag, ResultTest } from '../core/result.js';
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

/** "USB 3.2 Gen 2 (10 Gb/s) · ceiling ≈ 1212 MB/s · typical 900–1050 MB/s": what the link allows. */
export function formatLink(l: LinkInfo): string {
  const parts = [l.label];
  if (l.ceilingMBps) parts.push(`ceiling ≈ ${Math.round(l.ceilingMBps)} MB/s`);
  if (l.typicalMBps) parts.push(`typical ${Math.round(l.typicalMBps[0])}–${Math.round(l.typicalMBps[1])} MB/s`);
  if (l.driver) parts.push(l.driver);
  return parts.join(' · ');
}

/** One line per flag: warnings with their fix, information on its own (a flag without a
 *  severity comes from an older document and counts as a warning). */
export function formatFlag(f: ResultFlag): string {
  return f.severity === 'info' ? `ℹ ${f.message}` : `⚠ ${f.message} — ${f.fix}`;
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
    `  ${t.fs} on ${t.device.node ?? t.volume} (${t.device.model}${t.device.firmware ? ` fw ${t.device.firmware}` : ''}, ${t.device.bus}${t.device.link && !t.device.linkInfo ? `, ${t.device.link}` : ''}), test file ${formatBytes(doc.settings.size)} (${formatBytesBinary(doc.settings.size)})`,
  );
  if (t.device.linkInfo) out.push(`  ${formatLink(t.device.linkInfo)}`);
  const temp = doc.context?.temperatureC;
  if (temp && (temp.before !== undefined || temp.after !== undefined)) {
    const at = [temp.before !== undefined ? `${temp.before} °C before` : '', temp.after !== undefined ? `${temp.after} °C after` : ''];
    out.push(`  Drive temperature ${at.filter(Boolean).join(', ')}`);
  }
  out.push(
    '',
    renderTable(header, doc.tests.map((x) => testRow(x, multi)), right),
  );
  if (multi) {
    const bHeader = ['Best of ' + runs, 'MB/s', 'IOPS', 'Mean lat', 'p99 lat', 'Cache'];
    out.push('', renderTable(bHeader, bestRuns(doc.tests).map((x) => testRow(x, false)), [false, true, true, true, true, false]));
  }
  out.push('', `Cache mode: ${doc.cacheMode}   Data: ${doc.dataPattern}   MB/s = 10^6 bytes/s`);
  if (doc.flags.length > 0) out.push('', ...doc.flags.map(formatFlag));
  return `${out.join('\n')}\n`;
}
