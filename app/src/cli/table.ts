// The human-readable report printed at the end of a CLI run: one row per test (and a best-of
// table when runs repeat, as CrystalDiskMark reports), then what the numbers depend on: cache
// mode, data pattern, flags (⚠ warning with its fix, ℹ information). Sizes use one unit system,
// the one the test was asked in (model/size-units.ts).
import type { LinkInfo } from '../model/link-types.js';
import type { FilesPassStats, ResultDocument, ResultFlag, ResultTest, StepSummary } from '../model/result.js';
import { kindOf, RESULT_KINDS } from '../model/kinds/registry.js';
import { formatLatencyUs } from '../model/units.js';
import { hashVerdictText, OVERHEAD_BELOW_ZERO, shownOverhead } from '../model/trust.js';
import { askedSizes, askedSizeText, sizeInUnits, unitsOf, type SizeUnits } from '../model/size-units.js';
import { bestRuns } from '../model/report/formats/cdm-text.js';
import { mbText as mb, renderTable } from '../model/report/text-table.js';
import { intervalText, settleText } from '../model/report/figure-text.js';
import { MIN_INTERVAL_RUNS } from '../model/precision.js';
import { hashFileBytes } from '../model/trust.js';

/** The sizes the test was asked for: the kind's own word on them, else the document's. */
function asked(doc: ResultDocument): number[] {
  return kindOf(doc.kind)?.cli?.askedSizes?.(doc) ?? askedSizes(doc);
}

/** Results made before intervals were kept print no interval column. */
const hasIntervals = (doc: ResultDocument): boolean => doc.tests.some((t) => t.interval || t.settle);

function testRow(t: ResultTest, withRun: boolean, withInterval = false): string[] {
  const row = [t.name];
  if (withRun) row.push(String(t.run));
  row.push(
    t.mbps.toFixed(t.mbps >= 100 ? 1 : 2),
    Math.round(t.iops).toLocaleString('en-US'),
    formatLatencyUs(t.latencyUs.mean),
    formatLatencyUs(t.latencyUs.p99),
    t.cacheMode,
  );
  // Last, so the columns before it stay where scripts read them.
  if (withInterval) row.push(settleText(t) || '—');
  return row;
}

export { bestRuns };

/** "USB 3.2 Gen 2 (10 Gb/s) · ceiling ≈ 1212 MB/s · typical 900–1050 MB/s": what the link allows. */
export function formatLink(l: LinkInfo): string {
  const parts = [l.label];
  if (l.ceilingMBps) parts.push(`ceiling ≈ ${Math.round(l.ceilingMBps)} MB/s`);
  if (l.typicalMBps) parts.push(`typical ${Math.round(l.typicalMBps[0])}–${Math.round(l.typicalMBps[1])} MB/s`);
  if (l.driver) parts.push(l.driver);
  return parts.join(' · ');
}

/** Where the test ran: "ext4 on /dev/sda1 (Samsung T7, usb)", or for a share its path in one
 *  line, "fuse.sshfs · sshfs (SFTP) · 127.0.0.1:/srv/share · via lo". `detail` adds the firmware
 *  and a link label that has no classified link. */
function whereText(t: ResultDocument['target'], detail = false): string {
  if (t.network && t.device.link) return `${t.fs} · ${t.device.link}`;
  const d = t.device;
  const fw = detail && d.firmware ? ` fw ${d.firmware}` : '';
  const link = detail && d.link && !d.linkInfo ? `, ${d.link}` : '';
  return `${t.fs} on ${d.node ?? t.volume} (${d.model}${fw}, ${d.bus}${link})`;
}

/** One line per flag: warnings with their fix, information on its own (a flag without a
 *  severity comes from an older document and counts as a warning). */
export function formatFlag(f: ResultFlag): string {
  return f.severity === 'info' ? `ℹ ${f.message}` : `⚠ ${f.message} — ${f.fix}`;
}

/** Mean ± sample stdev (and CV), median and best of each test across runs. */
function summaryTable(summary: readonly StepSummary[]): string {
  // Two runs' interval is too wide to use (MIN_INTERVAL_RUNS): their figures are in the row.
  const shown = (s: StepSummary) => (s.runs >= MIN_INTERVAL_RUNS ? s.mbpsInterval : undefined);
  const ci = summary.some((s) => shown(s) !== undefined);
  const header = ['Across runs', 'n', 'Mean MB/s', '± SD', 'CV', 'Median', 'Best', 'p99 lat (median)', ...(ci ? ['95 % interval'] : [])];
  const rows = summary.map((s) => [
    s.name,
    String(s.runs),
    mb(s.mbps.mean),
    mb(s.mbps.stdev),
    `${(s.mbps.cv * 100).toFixed(1)} %`,
    mb(s.mbps.median),
    mb(s.mbps.best),
    formatLatencyUs(s.p99Us.median),
    ...(ci ? [intervalText(shown(s)) || '—'] : []),
  ]);
  return renderTable(header, rows, [false, true, true, true, true, true, true, true, false]);
}

/** "1.80 ms per file (R² 0.975)"; a fit whose intercept is below zero prints 0.00 ms and says why. */
function fitNotes(f: { overheadMs: number; r2?: number | undefined }): string {
  const o = shownOverhead(f.overheadMs);
  const notes = [...(f.r2 !== undefined ? [`R² ${f.r2.toFixed(3)}`] : []), ...(o.belowZero ? [OVERHEAD_BELOW_ZERO] : [])];
  return `${o.ms.toFixed(2)} ms per file${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

function passLine(what: string, p: FilesPassStats, units: SizeUnits): string[] {
  const fitText = (name: string, f: FilesPassStats['theilSen']): string =>
    f ? `${name}: ${mb(f.rateMBps)} MB/s + ${fitNotes(f)}` : `${name}: —`;
  return [
    `${what}: ${p.files} files, ${sizeInUnits(p.bytes, units)} in ${p.seconds.toFixed(2)} s = ${mb(p.mbps)} MB/s aggregate; per file mean ${mb(p.meanMBps)}, median ${mb(p.medianMBps)}, 20 % trimmed mean ${mb(p.trimmedMeanMBps)} MB/s`,
    `  fits of time against size — ${fitText('Theil–Sen', p.theilSen)}; ${fitText('least squares', p.leastSquares)}`,
  ];
}

function filesLines(doc: ResultDocument, units: SizeUnits): string[] {
  const f = doc.files;
  if (!f) return [];
  const out = [
    '',
    `Many-file test (${f.preset}): ${f.count} files, ${sizeInUnits(f.minBytes, units)} – ${sizeInUnits(f.maxBytes, units)}, ${sizeInUnits(f.totalBytes, units)} in all, seed ${f.seed}; written in random order, then read in random order`,
  ];
  if (f.scaled) out.push(`  ${f.scaled}`);
  for (const r of f.runs) {
    if (doc.settings.runs > 1) out.push(`Run ${r.run}:`);
    out.push(...passLine('Write', r.write, units), ...passLine('Read', r.read, units));
  }
  return out;
}

/** The hash test's report: the four rates as bars on one scale, the verdict, the digest in
 *  sha256sum's format (so it can be pasted into a checksum file), and the verification. */
export function formatHashReport(doc: ResultDocument): string {
  const h = doc.hash!;
  const t = doc.target;
  const algo = h.algo === 'sha512' ? 'SHA-512' : 'SHA-256';
  const rows: Array<[string, number]> = [
    ['Read (storage, uncached)', h.read.mbps],
    ['Read + hash (pipelined)', h.readHash.mbps],
    ['Hash in memory, 1 core', h.memory.mbps],
    [`Hash in memory, ${h.memoryParallel.threads} ${h.memoryParallel.threads === 1 ? 'core' : 'cores'}`, h.memoryParallel.mbps],
  ];
  const peak = Math.max(...rows.map((r) => r[1]), 1);
  const width = 30;
  const units = unitsOf(asked(doc));
  const out = [
    `DiskDial hash test of ${h.file.generated ? `a ${askedSizeText(hashFileBytes(doc), units)} test file in ${t.path} (removed)` : `${h.file.path} (${sizeInUnits(h.file.bytes, units)})`}`,
    `  ${whereText(t)}; ${algo} with ${h.provider}`,
    '',
    ...rows.map(
      ([name, mbps]) => `${name.padEnd(26)} ${mb(mbps).padStart(6)} MB/s  ${'█'.repeat(Math.max(1, Math.round((mbps / peak) * width)))}`,
    ),
    '',
    hashVerdictText(doc) ?? h.verdict.text,
    `  the reader waited ${h.readHash.readerWaitSeconds.toFixed(2)} s for the hasher, the hasher ${h.readHash.hasherWaitSeconds.toFixed(2)} s for the reader; read + hash reached ${(h.verdict.efficiency * 100).toFixed(0)} % of the slower of the two`,
    '',
    `${h.digest}  ${h.file.generated ? 'hash-test.dat' : h.file.path}`,
  ];
  if (h.verify) out.push(`${h.verify.match ? '✓' : '✗'} ${h.verify.text}`);
  if (doc.notes?.length) out.push('', ...doc.notes);
  out.push('', `Cache mode: ${doc.cacheMode}${h.read.cacheNote ? ` (${h.read.cacheNote})` : ''}   MB/s = 10^6 bytes/s`);
  if (doc.flags.length > 0) out.push('', ...doc.flags.map(formatFlag));
  return `${out.join('\n')}\n`;
}

function fileText(doc: ResultDocument, units: SizeUnits): string {
  if (doc.files) return `${doc.files.count} files ${sizeInUnits(doc.settings.size, units)}`;
  for (const k of RESULT_KINDS) {
    const text = k.cli?.fileText?.(doc, units);
    if (text !== undefined) return text;
  }
  return `test file ${askedSizeText(doc.settings.size, units)}`;
}

export function formatReport(doc: ResultDocument): string {
  const runs = doc.settings.runs;
  const multi = runs > 1;
  const ci = hasIntervals(doc);
  const header = ['Test', ...(multi ? ['Run'] : []), 'MB/s', 'IOPS', 'Mean lat', 'p99 lat', 'Cache', ...(ci ? ['95 % interval'] : [])];
  const right = [false, ...(multi ? [true] : []), true, true, true, true, false, false];
  const out: string[] = [];
  const t = doc.target;
  const units = unitsOf(asked(doc));
  out.push(`DiskDial ${doc.kind} test of ${t.path}`, `  ${whereText(t, true)}, ${fileText(doc, units)}`);
  if (t.device.linkInfo) out.push(`  ${formatLink(t.device.linkInfo)}${t.network?.ceilingNote ? ` (${t.network.ceilingNote})` : ''}`);
  const temp = doc.context?.temperatureC;
  if (temp && (temp.before !== undefined || temp.after !== undefined)) {
    const at = [temp.before !== undefined ? `${temp.before} °C before` : '', temp.after !== undefined ? `${temp.after} °C after` : ''];
    out.push(`  Drive temperature ${at.filter(Boolean).join(', ')}`);
  }
  if (doc.notes?.length) out.push(...doc.notes.map((n) => `  ${n}`));
  out.push(
    '',
    renderTable(
      header,
      doc.tests.map((x) => testRow(x, multi, ci)),
      right,
    ),
  );
  if (multi) {
    const bHeader = ['Best of ' + runs, 'MB/s', 'IOPS', 'Mean lat', 'p99 lat', 'Cache', ...(ci ? ['95 % interval'] : [])];
    out.push(
      '',
      renderTable(
        bHeader,
        bestRuns(doc.tests).map((x) => testRow(x, false, ci)),
        [false, true, true, true, true, false, false],
      ),
    );
    if (doc.summary?.length) out.push('', summaryTable(doc.summary));
  }
  out.push(...filesLines(doc, units), ...RESULT_KINDS.flatMap((k) => k.cli?.tableLines?.(doc, units) ?? []));
  out.push('', `Cache mode: ${doc.cacheMode}   Data: ${doc.dataPattern}   MB/s = 10^6 bytes/s`);
  if (doc.flags.length > 0) out.push('', ...doc.flags.map(formatFlag));
  return `${out.join('\n')}\n`;
}
