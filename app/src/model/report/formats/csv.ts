// CSV (RFC 4180) for a spreadsheet: one row per test and run, every field quoted as needed.
import type { ResultDocument } from '../../result.js';
import { withoutControls } from '../../text.js';
import type { ComparisonModel } from '../comparison.js';
import { flagTexts, reasonTexts } from '../../verdict/compare-words.js';
import { targetLine } from '../metrics.js';
import { REPORT_SECTIONS } from '../../kinds/registry.js';
import type { SectionOptions } from '../section.js';

// ---- CSV (RFC 4180) ----------------------------------------------------------------------------

const OWN_HEAD = [
  'result_id',
  'label',
  'kind',
  'started_at',
  'drive',
  'volume',
  'fs',
  'cache_mode',
  'data_pattern',
  'test',
  'run',
  'rw',
  'block_bytes',
  'queue_depth',
  'threads',
  'bytes',
  'seconds',
  'mbps',
  'iops',
  'lat_mean_us',
  'lat_p50_us',
  'lat_p90_us',
  'lat_p99_us',
  'lat_p999_us',
  'lat_max_us',
  // The 95 % interval of mbps (half-width, MB/s) and, under the stop rule, whether the step settled.
  'mbps_ci95',
  'settled',
] as const;

/** Every column: the per-test ones, then those the report sections' rows fill (a Quick Test's
 *  "Will it work?" rows, test "will it work"); other rows leave them empty. */
export const CSV_HEAD: readonly string[] = [...OWN_HEAD, ...new Set(REPORT_SECTIONS.flatMap((s) => s.csvHead))];

export type CsvRow = Partial<Record<(typeof OWN_HEAD)[number], string | number>> & Partial<Record<string, string | number>>;

/** A text cell, guarded against spreadsheet formulas: one starting with = + - @ (or a tab or
 *  carriage return) gets a leading apostrophe, so a label cannot run as a formula. Control
 *  characters go; line breaks stay (csvQuote quotes them). */
export function csvText1(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${withoutControls(s)}` : withoutControls(s);
}

/** A number as plain digits at full precision; empty when not finite. */
export function csvNumber(x: number): string {
  if (!Number.isFinite(x)) return '';
  if (Number.isInteger(x)) return String(x);
  const s = String(x);
  return /e/i.test(s) ? x.toFixed(12).replace(/0+$/, '') : s;
}

export function csvQuote(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRows(doc: ResultDocument, opts: SectionOptions = {}): CsvRow[] {
  const base: CsvRow = {
    result_id: doc.id,
    label: doc.label ?? '',
    kind: doc.kind,
    started_at: doc.startedAt,
    drive: targetLine(doc),
    volume: doc.target.volume,
    fs: doc.target.fs,
    cache_mode: doc.cacheMode,
    data_pattern: doc.dataPattern,
  };
  const rows: CsvRow[] = doc.tests.map((t) => ({
    ...base,
    test: t.name,
    run: t.run,
    rw: t.rw,
    block_bytes: t.bs,
    queue_depth: t.qd,
    threads: t.threads,
    bytes: t.bytes,
    seconds: t.seconds,
    mbps: t.mbps,
    iops: t.iops,
    lat_mean_us: t.latencyUs.mean,
    lat_p50_us: t.latencyUs.p50,
    lat_p90_us: t.latencyUs.p90,
    lat_p99_us: t.latencyUs.p99,
    lat_p999_us: t.latencyUs.p999,
    lat_max_us: t.latencyUs.max,
    ...(t.interval ? { mbps_ci95: t.interval.halfWidth } : {}),
    ...(t.settle ? { settled: String(t.settle.settled) } : {}),
  }));
  if (doc.hash) {
    const h = doc.hash;
    rows.push(
      { ...base, test: 'read', run: 1, rw: 'read', threads: 1, bytes: h.read.bytes, seconds: h.read.seconds, mbps: h.read.mbps },
      {
        ...base,
        test: 'read+hash',
        run: 1,
        rw: 'read',
        block_bytes: h.readHash.chunkBytes,
        queue_depth: h.readHash.buffers,
        threads: 1,
        bytes: h.readHash.bytes,
        seconds: h.readHash.seconds,
        mbps: h.readHash.mbps,
      },
      { ...base, test: 'memory', run: 1, threads: 1, bytes: h.memory.bytes, seconds: h.memory.seconds, mbps: h.memory.mbps },
      {
        ...base,
        test: 'memory-parallel',
        run: 1,
        threads: h.memoryParallel.threads,
        bytes: h.memoryParallel.bytes,
        seconds: h.memoryParallel.seconds,
        mbps: h.memoryParallel.mbps,
      },
    );
  }
  for (const r of doc.files?.runs ?? []) {
    for (const item of r.items) {
      for (const pass of ['write', 'read'] as const) {
        const p = item[pass];
        if (p)
          rows.push({
            ...base,
            test: `file ${item.name} ${pass}`,
            run: r.run,
            rw: pass,
            bytes: item.bytes,
            seconds: p.seconds,
            mbps: p.mbps,
          });
      }
    }
  }
  for (const s of REPORT_SECTIONS) rows.push(...s.csvRows(doc, opts).map((v) => ({ ...base, ...v })));
  return rows;
}

export function csvText(docs: readonly ResultDocument[], opts: SectionOptions = {}): string {
  const lines = [CSV_HEAD.join(',')];
  for (const doc of docs) {
    for (const row of csvRows(doc, opts)) {
      lines.push(
        CSV_HEAD.map((k) => {
          const v = row[k];
          if (v === undefined) return '';
          return typeof v === 'number' ? csvNumber(v) : csvQuote(csvText1(v));
        }).join(','),
      );
    }
  }
  return lines.join('\r\n') + '\r\n';
}

// ---- CSV ---------------------------------------------------------------------------------------

export const REPORT_CSV_HEAD = [
  'variant',
  'label',
  'figure',
  'size_bytes',
  'unit',
  'n',
  'mean',
  'stdev',
  'min',
  'max',
  'delta',
  'ci_low',
  'ci_high',
  'verdict',
  'why',
] as const;

/** One row per row × column (RFC 4180, CRLF); an empty cell has n = 0 and no figures. `delta` is
 *  the change against the reference row (ratio of geometric means − 1), `ci_low`/`ci_high` its
 *  95 % interval, `why` the reasons of an inconclusive verdict and any noisy side. */
export function reportCsv(r: ComparisonModel): string {
  const text = (s: string): string => csvQuote(csvText1(s));
  const num = (x: number | undefined): string => (x === undefined ? '' : csvNumber(x));
  const lines = [REPORT_CSV_HEAD.join(',')];
  r.variants.forEach((v, i) => {
    r.columns.forEach((col, j) => {
      const cell = r.cells[i]?.[j];
      const s = cell?.spread;
      const claim = cell?.claim;
      const names = { candidate: v.label, baseline: r.variants[v.reference ?? r.baseline]?.label ?? '' };
      lines.push(
        [
          text(v.label),
          text(col.label),
          text(col.figure),
          num(col.sizeBytes),
          text(col.unit),
          String(cell?.values.length ?? 0),
          num(s?.mean),
          num(s && s.n > 1 ? s.stdev : undefined),
          num(s?.min),
          num(s?.max),
          num(claim?.change),
          num(claim?.low),
          num(claim?.high),
          // One row is compared with nothing: no "baseline" verdict beside its figures.
          cell && r.variants.length > 1 ? text(cell.verdict) : '',
          text(claim ? [...new Set([...reasonTexts(claim, names), ...flagTexts(claim, names)])].join('; ') : ''),
        ].join(','),
      );
    });
  });
  // The kinds' sections (Will it work?): a row per table row × row of the report, its mark as the verdict.
  for (const b of r.sections ?? [])
    for (const t of b.tables)
      for (const row of t.rows)
        t.head.slice(1).forEach((head, k) => {
          if (!r.variants.some((v) => v.label === head)) return;
          const line = REPORT_CSV_HEAD.map((c) =>
            c === 'variant'
              ? text(head)
              : c === 'label'
                ? text(`${t.title ?? b.heading}: ${row[0]?.text ?? ''}`)
                : c === 'figure'
                  ? text(b.heading)
                  : c === 'n'
                    ? '0'
                    : c === 'verdict'
                      ? text(row[k + 1]?.text ?? '')
                      : '',
          );
          lines.push(line.join(','));
        });
  return lines.join('\r\n') + '\r\n';
}
