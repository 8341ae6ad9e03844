// Text in CrystalDiskMark 8's "Copy" layout, line for line: its header, sections, figure lines and
// profile block (test/fixtures/crystaldiskmark-8.0.4-copy.txt is the real thing, and the test).
import type { SectionBlock, Table } from '../section.js';
import type { ResultDocument, ResultTest } from '../../result.js';
import { bestRunNote } from '../../verdict/aggregate.js';
import { kindOf } from '../../kinds/registry.js';
import { hashVerdictText, OVERHEAD_BELOW_ZERO, shownOverhead } from '../../trust.js';
import { fx, settleText } from '../figure-text.js';
import { markLegend } from '../../verdict/compare-words.js';
import type { ComparisonModel } from '../comparison.js';
import { formatFigure, kindName, methodLine, resultTitle, sizeText, targetLine } from '../metrics.js';
import { aboutLines, compareTables, driveLines, legendText, reportTable } from '../report-rows.js';
import { algoName, flagMark, metricMap, versionLine } from '../tables.js';
import { hashFileBytes } from '../../trust.js';

// ---- CrystalDiskMark-style text --------------------------------------------------------------

export const DASHES = '-'.repeat(78);

/** CrystalDiskMark's second header line is its site, right-aligned; ours says whose layout it is. */
const LAYOUT_LINE = 'Layout: CrystalDiskMark 8 "Copy" text'.padStart(DASHES.length);

/** As CrystalDiskMark, each figure line is the best of the runs (the Test line's "x5"), and a line
 *  under the profile says so; the mean (the one aggregate everything else shows) and the spread
 *  are in the Markdown, HTML and CSV exports. */
export function txtHeader(docs: readonly ResultDocument[]): string {
  const lines = [DASHES, versionLine(docs).replace('Measured with ', ''), LAYOUT_LINE, DASHES];
  lines.push('* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]');
  lines.push('* KB = 1000 bytes, KiB = 1024 bytes');
  return lines.join('\n') + '\n';
}

export const KiB = 1024;
export const MiB = 1024 * 1024;

export function bsText(bs: number): string {
  if (bs >= MiB && bs % MiB === 0) return `${bs / MiB}MiB`;
  if (bs >= KiB && bs % KiB === 0) return `${bs / KiB}KiB`;
  return `${bs}B`;
}

/** "  SEQ    1MiB (Q=  8, T= 1):  1234.567 MB/s [   1177.4 IOPS] <  6789.01 us>", then the run's
 *  95 % interval and, under the stop rule, how it ended ("  settled in 1.4 s: ± 2.1 %"). */
export function cdmLine(
  t: Pick<ResultTest, 'rw' | 'bs' | 'qd' | 'threads' | 'mbps' | 'iops'> &
    Partial<Pick<ResultTest, 'seconds' | 'interval' | 'settle'>> & { latencyUs: { mean: number } },
): string {
  const seq = t.rw === 'read' || t.rw === 'write' || t.rw === 'rw';
  const precision = settleText({
    seconds: t.seconds ?? NaN,
    ...(t.settle ? { settle: t.settle } : {}),
    ...(t.interval ? { interval: t.interval } : {}),
  });
  return (
    `  ${seq ? 'SEQ' : 'RND'} ${bsText(t.bs).padStart(7)} (Q=${String(t.qd).padStart(3)}, T=${String(t.threads).padStart(2)}):` +
    ` ${fx(t.mbps, 3, 9)} MB/s [${fx(t.iops, 1, 9)} IOPS] <${fx(t.latencyUs.mean, 2, 9)} us>` +
    (precision ? `  ${precision}` : '')
  );
}

export function section(rw: string): string {
  if (rw === 'read' || rw === 'randread') return 'Read';
  if (rw === 'write' || rw === 'randwrite') return 'Write';
  return 'Mix';
}

/** The best run of each test name (highest MB/s), in first-seen order. */
export function bestRuns(tests: readonly ResultTest[]): ResultTest[] {
  const best = new Map<string, ResultTest>();
  for (const t of tests) {
    const b = best.get(t.name);
    if (!b || t.mbps > b.mbps) best.set(t.name, t);
  }
  return [...best.values()];
}

export function txtFigures(rows: Array<[string, string]>): string[] {
  const w = Math.max(...rows.map(([l]) => l.length));
  return rows.map(([l, v]) => `  ${l.padEnd(w)}: ${v}`);
}

export function txtBlock(doc: ResultDocument): string {
  const lines: string[] = [];
  const metrics = metricMap(doc);
  // A kind's own block (the sustained write's verdicts), else the per-step sections.
  const block = kindOf(doc.kind)?.report?.textBlock?.(doc, metrics);
  if (doc.kind === 'hash' && doc.hash) {
    const h = doc.hash;
    lines.push('[Hash]');
    const rates = [...metrics.values()].map((m): [string, string] => [m.label, `${fx(m.values[0] ?? NaN, 3, 9)} MB/s`]);
    lines.push(
      ...txtFigures([
        ...rates,
        ['Verdict', hashVerdictText(doc) ?? h.verdict.text],
        [algoName(h.algo), h.digest],
        ...(h.verify ? [['Verify', h.verify.text] as [string, string]] : []),
      ]),
    );
    lines.push('');
  } else if (doc.kind === 'files' && doc.files) {
    lines.push('[Files]');
    const rows: Array<[string, string]> = [];
    for (const pass of ['write', 'read'] as const) {
      const runs = doc.files.runs;
      const best = runs.reduce<(typeof runs)[number] | undefined>((b, r) => (!b || r[pass].mbps > b[pass].mbps ? r : b), undefined);
      if (!best) continue;
      const s = best[pass];
      const P = pass === 'write' ? 'Write' : 'Read';
      rows.push([
        P,
        `${fx(s.mbps, 3, 9)} MB/s aggregate (${s.files} files, ${sizeText(s.bytes, true)}; median file ${formatFigure(s.medianMBps)} MB/s)`,
      ]);
      if (s.theilSen)
        rows.push([
          `${P} fit`,
          `${fx(s.theilSen.rateMBps, 3, 9)} MB/s + ${shownOverhead(s.theilSen.overheadMs).ms.toFixed(2)} ms per file (Theil–Sen${shownOverhead(s.theilSen.overheadMs).belowZero ? `; ${OVERHEAD_BELOW_ZERO}` : ''})`,
        ]);
    }
    lines.push(...txtFigures(rows), '');
  } else if (block) {
    lines.push(block.heading, ...txtFigures(block.rows));
    for (const t of bestRuns(doc.tests)) lines.push(cdmLine(t));
    lines.push('');
  } else {
    const best = bestRuns(doc.tests);
    const sections = [...new Set(best.map((t) => section(t.rw)))];
    const mix = doc.settings.rwmixread ?? 70;
    for (const s of sections) {
      lines.push(s === 'Mix' ? `[Mix] Read ${mix}%/Write ${100 - mix}%` : `[${s}]`);
      for (const t of best.filter((x) => section(x.rw) === s)) lines.push(cdmLine(t));
      lines.push('');
    }
  }
  lines.push(...txtProfile(doc));
  return lines.join('\n') + '\n';
}

/** CrystalDiskMark 8's profiles; its NVMe SSD test set is a setting under the Default profile
 *  (the real "Copy" of an NVMe run says "Profile: Default"; its test lines show the set). */
export const CDM_PROFILES: Record<string, string> = {
  default: 'Default',
  nvme: 'Default',
  peak: 'Peak Performance',
  realworld: 'Real World Performance',
};

export function txtProfile(doc: ResultDocument): string[] {
  const s = doc.settings;
  // The sections ([Read], [Write], [Mix]) say the mode, as in CrystalDiskMark.
  const profile = doc.kind === 'cdm' ? (CDM_PROFILES[s.preset ?? 'default'] ?? s.preset) : kindName(doc.kind);
  const size = (doc.hash ? hashFileBytes(doc) : undefined) ?? doc.files?.totalBytes ?? kindOf(doc.kind)?.report?.testBytes?.(doc) ?? s.size;
  const t = doc.target;
  const GiB = 1024 ** 3;
  const used =
    t.totalBytes > 0
      ? ` ${Math.round(((t.totalBytes - t.freeBytes) / t.totalBytes) * 100)}% (${Math.round((t.totalBytes - t.freeBytes) / GiB)}/${Math.round(t.totalBytes / GiB)}GiB)`
      : '';
  const iso = doc.startedAt;
  // CrystalDiskMark's "2024/01/06 5:41:48" (hour unpadded), in UTC and saying so.
  const date = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(iso)
    ? `${iso.slice(0, 10).replace(/-/g, '/')} ${Number(iso.slice(11, 13))}${iso.slice(13, 19)} UTC`
    : iso;
  const h = doc.host;
  const lines = [
    `Profile: ${profile}`,
    `   Test: ${size ? sizeText(size) : '—'} (x${s.runs ?? 1}) [${t.volume}${used}]`,
    `   Mode: ${methodLine(doc)}`,
    // Time-bound tests only (CrystalDiskMark's are; the trailing space is CrystalDiskMark's).
    ...(s.seconds !== undefined ? [`   Time: Measure ${s.seconds} sec / Interval ${s.intervalSeconds ?? 0} sec `] : []),
    `   Date: ${date}`,
    `     OS: ${h.osName ?? h.os} [${h.os} ${h.osRelease}] (${h.arch})`,
    // CrystalDiskMark's own comment line, where its users name the drive: the label, and the drive.
    `Comment: ${[doc.label, targetLine(doc)].filter(Boolean).join(' · ')}`,
  ];
  if ((s.runs ?? 1) > 1) lines.push(`   ℹ ${bestRunNote(s.runs)}`);
  for (const f of doc.flags) lines.push(`   ${flagMark(f)} ${f.message}`);
  for (const n of doc.notes ?? []) lines.push(`   ℹ ${n}`);
  return lines;
}

export function txtMany(docs: readonly ResultDocument[], cmp: ComparisonModel): string {
  const labels = cmp.variants.map((v) => v.label);
  const blocks = docs.map((d, i) =>
    [`=== ${labels[i]}${i === cmp.baseline ? ' (baseline)' : ''} — ${resultTitle(d)} ===`, '', txtBlock(d)].join('\n'),
  );
  const out = [txtHeader(docs), blocks.join('\n'), '[Comparison]'];
  for (const t of compareTables(cmp)) out.push(...(t.title ? [`  ${t.title}`] : []), ...fixedTable(t, '  '), '');
  out.push(`  ${markLegend('the baseline')}`, '');
  if (cmp.findings.length > 0) out.push('Findings:', ...cmp.findings.map((f) => `  * ${f}`), '');
  if (cmp.warnings.length > 0) out.push('Warnings:', ...cmp.warnings.map((w) => `  ⚠ ${w}`), '');
  out.push(`Rule: ${cmp.rule}`);
  return out.join('\n') + '\n';
}

// ---- plain text --------------------------------------------------------------------------------

/** A table in fixed-width columns (the first left-aligned, the rest right), under a dashed rule. */
function fixedTable(t: Pick<Table, 'head' | 'rows'>, indent = ''): string[] {
  const rows = [t.head, ...t.rows.map((r) => r.map((x) => x.text))];
  const widths = t.head.map((_, j) => Math.max(...rows.map((row) => [...(row[j] ?? '')].length)));
  const line = (row: readonly string[]): string =>
    indent +
    row
      .map((x, j) => (j === 0 ? x.padEnd(widths[j] ?? 0) : x.padStart(widths[j] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(t.head), indent + widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
}

/** A kind's section (Will it work?) in fixed-width columns: its heading, tables and notes. */
function txtSection(b: SectionBlock): string[] {
  const out = [`${b.heading}:`];
  for (const t of b.tables) out.push(...(t.title ? [`  ${t.title}`] : []), ...fixedTable(t, '  '));
  return [...out, ...b.notes.map((n) => `  ${n}`), ''];
}

/** The same table in fixed-width columns, for a terminal or a plain-text post. */
export function reportText(r: ComparisonModel, docs: readonly ResultDocument[]): string {
  const out = [r.title, '='.repeat(Math.min(78, [...r.title].length)), ''];
  for (const [k, v] of aboutLines(r, docs)) out.push(`${k}: ${v}`);
  for (const [k, v] of driveLines(r, docs)) out.push(`  ${k}: ${v}`);
  out.push('', ...fixedTable(reportTable(r, docs)), '', legendText(r), '');
  if (r.findings.length > 0) out.push('Findings:', ...r.findings.map((f) => `  * ${f}`), '');
  for (const b of r.sections ?? []) out.push(...txtSection(b));
  if (r.warnings.length > 0) out.push('Warnings:', ...r.warnings.map((w) => `  ! ${w}`), '');
  out.push(`Rule: ${r.rule}`, '', versionLine(docs));
  return out.join('\n') + '\n';
}
