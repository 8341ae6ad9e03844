// Results side by side: the same figures of two or more result documents in one table, each a
// mean with its spread across runs, its change against a baseline, and whether that change is
// real, no difference or inconclusive by the rule verdict/compare.ts applies. The History screen's compare view, the text
// exports and the format-and-compare wizard's report are all views of a Comparison.
//
// Browser-safe: no node:* imports (the renderer bundles it).
import { kindOf } from '../kinds/registry.js';
import type { ResultDocument } from '../result.js';
import { spread, type Spread } from '../stats.js';
import { judgeComparison, type CompareClaim, type Direction } from '../verdict/compare.js';
import {
  cellVerdictOf,
  changePhrase,
  COMPARE_RULE,
  deltaText,
  inconclusiveText,
  noDifferenceText,
  runsText,
  type CellVerdict,
} from '../verdict/compare-words.js';
import { kindName, methodLine, resultMetrics, resultName, resultTitle, sizeText, targetLine, type Metric } from './metrics.js';
import { cacheClassOf, cacheFlagText, pairRows, type Pairing } from './like-for-like.js';

export interface CompareColumn {
  id: string;
  kind: string;
  /** resultName(): the label, else volume and day. */
  name: string;
  /** resultTitle(). */
  title: string;
  /** targetLine(). */
  drive: string;
  /** methodLine(). */
  method: string;
  startedAt: string;
  /** The interface's payload ceiling, MB/s, when known (drawn on charts). */
  ceilingMBps?: number;
}

export interface CompareCell {
  values: number[];
  spread: Spread;
  /** The reference, no figure to compare with, or the claim's outcome (a real change by its sense). */
  verdict: CellVerdict;
  /** The comparison against the reference's cell (verdict/compare.ts); absent for the reference and n/a. */
  claim?: CompareClaim;
}

/** A metric joined across results: its name and sense from the Metric, a cell per result. */
export interface CompareRow extends Omit<Metric, 'values'> {
  /** One per column, in column order; undefined where that result has no such figure. */
  cells: Array<CompareCell | undefined>;
}

export interface Comparison {
  columns: CompareColumn[];
  /** Index into columns. */
  baseline: number;
  rows: CompareRow[];
  /** The statistical rule, in plain words, printed under every table. */
  rule: string;
  /** Plain-words findings, one sentence each: "Encrypted: −9 % write (SEQ1M Q8T1 Write)." */
  findings: string[];
  /** Things a reader must know: mixed kinds, a result measured through the cache, different settings. */
  warnings: string[];
}

export interface CompareOptions {
  /** The reference column: its index or result id (default 0). */
  baseline?: number | string;
}

/** Compares two or more results (one is allowed: a table without deltas). Never throws on odd
 *  documents: rows a result lacks are empty cells. */
export function compareResults(docs: readonly ResultDocument[], opts: CompareOptions = {}): Comparison {
  const columns = docs.map(toColumn);
  const baseline = baselineIndex(docs, opts.baseline);
  const metrics = docs.map(metricsByKey);
  const labels = columnLabels({ columns });
  // Like for like (like-for-like.ts): a column is judged only against one measured the same way.
  const pairing = pairRows(
    docs.map((d, i) => ({
      label: labels[i] ?? '',
      cls: safe(() => cacheClassOf([d]), 'cached' as const),
      flagged: safe(() => cacheFlagText([d]), ''),
      ...(typeof d?.campaign?.format === 'string' ? { format: d.campaign.format } : {}),
    })),
    baseline,
  );
  const rows = toRows(metrics, pairing.reference);
  const comparison: Comparison = { columns, baseline, rows, rule: COMPARE_RULE, findings: [], warnings: [] };
  comparison.findings = findings(comparison, pairing);
  comparison.warnings = warnings(docs, columnLabels(comparison));
  return comparison;
}

/** The columns' names made unique for headers and sentences: a repeated name gets " (2)", " (3)"… */
export function columnLabels(c: Pick<Comparison, 'columns'>): string[] {
  const count = new Map<string, number>();
  for (const col of c.columns) count.set(col.name, (count.get(col.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  return c.columns.map((col) => {
    if ((count.get(col.name) ?? 0) < 2) return col.name;
    const k = (seen.get(col.name) ?? 0) + 1;
    seen.set(col.name, k);
    return k === 1 ? col.name : `${col.name} (${k})`;
  });
}

function toColumn(doc: ResultDocument, i: number): CompareColumn {
  const col: CompareColumn = {
    id: typeof doc?.id === 'string' ? doc.id : `result-${i + 1}`,
    kind: typeof doc?.kind === 'string' ? doc.kind : 'unknown',
    name: safe(() => resultName(doc), `Result ${i + 1}`),
    title: safe(
      () => resultTitle(doc),
      safe(() => kindName(doc.kind), 'Unknown test'),
    ),
    drive: safe(() => targetLine(doc), 'unknown drive'),
    method: safe(() => methodLine(doc), 'unknown method'),
    startedAt: typeof doc?.startedAt === 'string' ? doc.startedAt : '',
  };
  const ceiling = doc?.target?.device?.linkInfo?.ceilingMBps;
  if (typeof ceiling === 'number' && ceiling > 0 && Number.isFinite(ceiling)) col.ceilingMBps = ceiling;
  return col;
}

/** A result's metrics by key; the first of a repeated key wins (a files result lists its passes'
 *  headline figures before the per-test rows of the same name). */
function metricsByKey(doc: ResultDocument): Map<string, Metric> {
  const byKey = new Map<string, Metric>();
  for (const m of safe(() => resultMetrics(doc), [] as Metric[])) if (!byKey.has(m.key)) byKey.set(m.key, m);
  return byKey;
}

function baselineIndex(docs: readonly ResultDocument[], want: number | string | undefined): number {
  if (typeof want === 'number') return Number.isInteger(want) && want >= 0 && want < docs.length ? want : 0;
  if (typeof want === 'string') {
    const i = docs.findIndex((d) => d?.id === want);
    return i >= 0 ? i : 0;
  }
  return 0;
}

function toRows(metrics: ReadonlyArray<Map<string, Metric>>, reference: ReadonlyArray<number | undefined>): CompareRow[] {
  // Every key in first-seen order, headline figures first.
  const first = new Map<string, Metric>();
  for (const byKey of metrics) for (const [key, m] of byKey) if (!first.has(key)) first.set(key, m);
  const ordered = [...first.values()].filter((m) => m.primary).concat([...first.values()].filter((m) => !m.primary));
  return ordered.map((m) => {
    const values = metrics.map((byKey) => byKey.get(m.key)?.values.filter(Number.isFinite) ?? []);
    const cells = values.map((v, i): CompareCell | undefined => {
      if (v.length === 0) return undefined;
      const ref = reference[i];
      if (ref === i) return { values: v, spread: spread(v), verdict: 'baseline' };
      return { values: v, spread: spread(v), ...judgeCell(v, ref === undefined ? [] : (values[ref] ?? []), m.direction) };
    });
    return {
      key: m.key,
      label: m.label,
      group: m.group,
      measure: m.measure,
      unit: m.unit,
      direction: m.direction,
      primary: m.primary,
      cells,
    };
  });
}

/** A cell's verdict against its reference's runs of the same figure (verdict/compare.ts decides);
 *  'n/a' when the reference has none. Every report's cells are judged through this. */
export function judgeCell(
  values: readonly number[],
  base: readonly number[],
  direction: Direction,
): Pick<CompareCell, 'verdict' | 'claim'> {
  if (base.filter(Number.isFinite).length === 0) return { verdict: 'n/a' };
  const claim = judgeComparison(values, base, direction);
  return { verdict: cellVerdictOf(claim), claim };
}

function findings(c: Comparison, pairing: Pairing): string[] {
  const labels = columnLabels(c);
  const out: string[] = [];
  const primary = c.rows.filter((r) => r.primary);
  for (let i = 0; i < c.columns.length; i++) {
    const why = pairing.notCompared[i];
    if (why !== undefined) {
      out.push(why);
      continue;
    }
    const ref = pairing.reference[i] ?? c.baseline;
    if (ref === i) continue;
    const names = { candidate: labels[i] ?? '', baseline: labels[ref] ?? '' };
    const judged = primary.flatMap((r) => {
      const claim = r.cells[i]?.claim;
      return claim ? [{ label: r.label, claim }] : [];
    });
    if (judged.length === 0) {
      out.push(`${names.candidate}: no headline figure in common with ${names.baseline}.`);
      continue;
    }
    const changed = judged.filter((x) => x.claim.outcome === 'change');
    const open = judged.filter((x) => x.claim.outcome === 'inconclusive');
    if (changed.length > 0) {
      const parts = changed.map((x) => `${x.label} ${changePhrase(x.claim, names)}`);
      out.push(`${names.candidate} (vs ${names.baseline}, ${runsText(changed[0]!.claim)}): ${parts.join('; ')}.`);
    } else if (open.length === 0) out.push(`${names.candidate}: ${noDifferenceText(names.baseline, 'headline figure')}.`);
    if (open.length > 0) {
      const parts = open.map((x) => ({ text: `${x.label} ${deltaText(x.claim.change)}`, claims: [x.claim] }));
      out.push(inconclusiveText(names.candidate, parts, names));
    }
  }
  return out;
}

function warnings(docs: readonly ResultDocument[], labels: readonly string[]): string[] {
  const out: string[] = [];
  const kinds = [...new Set(docs.map((d) => String(d?.kind)))];
  if (kinds.length > 1) {
    out.push(`These results are different tests (${kinds.map(kindName).join(', ')}): only figures they share are compared.`);
  }
  docs.forEach((d, i) => {
    if (d?.cacheMode === 'buffered') out.push(`${labels[i]} was measured through the page cache: its figures are not the disk's.`);
  });
  for (const kind of kinds) {
    const members = docs.map((d, i) => ({ d, i })).filter(({ d }) => String(d?.kind) === kind);
    if (members.length < 2) continue;
    const facets = members.map(({ d }) => safe(() => settingFacets(d), new Map<string, string>()));
    const names = [...new Set(facets.flatMap((f) => [...f.keys()]))];
    const differing: string[] = [];
    for (const facet of names) {
      const byValue = new Map<string, string[]>();
      members.forEach(({ i }, k) => {
        const v = facets[k]?.get(facet) ?? 'not recorded';
        byValue.set(v, [...(byValue.get(v) ?? []), labels[i] ?? '']);
      });
      if (byValue.size < 2) continue;
      differing.push(`${facet}: ${[...byValue].map(([v, who]) => `${v} (${who.join(', ')})`).join(', ')}`);
    }
    if (differing.length > 0) {
      out.push(`The ${kindName(kind)} results were run with different settings, so they are not like for like — ${differing.join('; ')}.`);
    }
  }
  return out;
}

/** The settings that make two results of one kind comparable, as words by name. */
function settingFacets(d: ResultDocument): Map<string, string> {
  const f = new Map<string, string>();
  const s = d.settings;
  f.set('data', d.dataPattern === 'zeros' ? 'zeros' : `${d.dataPattern} data`);
  if (!kindOf(d.kind)?.report?.comparable?.(d, f)) {
    if (s.size) f.set('test size', sizeText(s.size));
    if (s.preset) f.set('profile', s.preset);
    if (s.mode) f.set('mode', s.mode);
    if (s.seconds) f.set('seconds per test', String(s.seconds));
    if (s.bs) f.set('block size', sizeText(s.bs));
    if (s.qd) f.set('queue depth', String(s.qd));
    if (s.threads) f.set('threads', String(s.threads));
    if (s.rwmixread !== undefined) f.set('read share', `${s.rwmixread} %`);
  }
  return f;
}

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}
