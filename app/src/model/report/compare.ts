// Results side by side, one subject per result: the History screen's compare view and the
// several-result exports. The model (comparison.ts) holds a subject per result and a figure per
// metric, each cell judged against the subject's reference by the rule verdict/compare.ts
// applies; the view by metric (a column per result, a row per figure) is what the History table
// and the JSON export show.
//
// Browser-safe: no node:* imports (the renderer bundles it).
import { kindOf } from '../kinds/registry.js';
import type { ResultDocument } from '../result.js';
import { changePhrase, deltaText, inconclusiveText, noDifferenceText, runsText } from '../verdict/compare-words.js';
import { dateTimeText, kindName, methodLine, resultName, resultTitle, sizeText, targetLine, type Metric } from './metrics.js';
import { cacheClassOf, cacheFlagText, pairRows } from './like-for-like.js';
import {
  baselineOf,
  markPairing,
  newModel,
  metricsByKey,
  safe,
  type ComparisonCell,
  type ComparisonFigure,
  type ComparisonModel,
  type ComparisonSubject,
} from './comparison.js';

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
  /** Why this result is not compared with the baseline (measured another way), in words. */
  notCompared?: string;
}

export type CompareCell = ComparisonCell;

/** A metric joined across results: its name and sense from the Metric, a cell per result. */
export interface CompareRow extends Omit<Metric, 'values'> {
  /** One per column, in column order; undefined where that result has no such figure. */
  cells: Array<CompareCell | undefined>;
}

/** The comparison model seen by metric (comparison.ts holds the model): a column per result, a
 *  row per figure. The History screen's table and the JSON export are this view. */
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

/** Compares two or more results (one is allowed: a table without deltas), as the metric view. */
export function compareResults(docs: readonly ResultDocument[], opts: CompareOptions = {}): Comparison {
  return byMetric(compareModel(docs, opts));
}

/** The comparison model of two or more results: a subject per result, a figure per metric any of
 *  them has (headline figures first). Never throws on odd documents: figures a result lacks are
 *  empty cells. */
export function compareModel(docs: readonly ResultDocument[], opts: CompareOptions = {}): ComparisonModel {
  const metrics = docs.map(metricsByKey);
  const baseline = baselineOf(docs.length, opts.baseline, (id) => docs.findIndex((d) => d?.id === id));
  const labels = uniqueLabels(
    docs.map((d, i) => ({
      name: safe(() => resultName(d), `Result ${i + 1}`),
      startedAt: typeof d?.startedAt === 'string' ? d.startedAt : '',
      drive: safe(() => targetLine(d), ''),
    })),
  );
  // Like for like (like-for-like.ts): a subject is judged only against one measured the same way.
  const pairing = pairRows(
    docs.map((d, i) => ({
      label: labels[i] ?? '',
      cls: safe(() => cacheClassOf([d]), 'cached' as const),
      flagged: safe(() => cacheFlagText([d]), ''),
      ...(typeof d?.campaign?.format === 'string' ? { format: d.campaign.format } : {}),
    })),
    baseline,
  );
  const variants = docs.map((d, i) => toSubject(d, i, labels[i] ?? ''));
  markPairing(variants, pairing);
  const columns = toFigures(metrics);
  const values = metrics.map((byKey) => columns.map((f) => byKey.get(f.metricKey)?.values.filter(Number.isFinite) ?? []));
  const model = newModel(`Comparison of ${docs.length} results`, variants, baseline, columns, values, pairing);
  model.findings = findings(model);
  model.warnings = warnings(docs, labels);
  return model;
}

/** The model by metric: a column per subject (result), a row per figure. */
export function byMetric(m: ComparisonModel): Comparison {
  const columns = m.variants.map((v, i): CompareColumn => {
    const r = v.result;
    const col: CompareColumn = {
      id: v.resultIds[0] ?? `result-${i + 1}`,
      kind: r?.kind ?? 'unknown',
      name: r?.name ?? v.label,
      title: r?.title ?? '',
      drive: v.drive,
      method: v.method,
      startedAt: r?.startedAt ?? '',
    };
    if (r?.ceilingMBps !== undefined) col.ceilingMBps = r.ceilingMBps;
    if (v.notCompared !== undefined) col.notCompared = v.notCompared;
    return col;
  });
  const rows = m.columns.map((f, j): CompareRow => ({
    key: f.metricKey,
    label: f.label,
    group: f.metric?.group ?? '',
    measure: f.metric?.measure ?? f.figure,
    unit: f.unit,
    direction: f.direction,
    primary: f.metric?.primary ?? true,
    cells: m.variants.map((_, i) => m.cells[i]?.[j]),
  }));
  return { columns, baseline: m.baseline, rows, rule: m.rule, findings: m.findings, warnings: m.warnings };
}

/** The columns' names made unique for headers and sentences (uniqueLabels). */
export function columnLabels(c: Pick<Comparison, 'columns'>): string[] {
  return uniqueLabels(c.columns);
}

/** Names made unique by what tells their results apart: a name several results share gets when
 *  each started ("Boot disk · 22 Nov 2026 02:39 UTC"), to the second if the minute is shared,
 *  else its drive; " (2)", " (3)"… only when nothing does. */
export function uniqueLabels(cols: ReadonlyArray<{ name: string; startedAt: string; drive: string }>): string[] {
  const byName = new Map<string, number[]>();
  cols.forEach((c, i) => byName.set(c.name, [...(byName.get(c.name) ?? []), i]));
  const second = (iso: string): string => (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso) ? `${iso.slice(0, 19).replace('T', ' ')} UTC` : iso);
  const ways: Array<(c: { startedAt: string; drive: string }) => string> = [
    (c) => dateTimeText(c.startedAt),
    (c) => second(c.startedAt),
    (c) => c.drive,
  ];
  const out = cols.map((c) => c.name);
  for (const [name, group] of byName) {
    if (group.length < 2) continue;
    const way = ways.find((w) => {
      const parts = group.map((i) => w(cols[i]!));
      return parts.every((p) => p !== '') && new Set(parts).size === group.length;
    });
    group.forEach((i, k) => (out[i] = way ? `${name} · ${way(cols[i]!)}` : k === 0 ? name : `${name} (${k + 1})`));
  }
  return out;
}

function toSubject(doc: ResultDocument, i: number, label: string): ComparisonSubject {
  const id = typeof doc?.id === 'string' ? doc.id : `result-${i + 1}`;
  const result: NonNullable<ComparisonSubject['result']> = {
    kind: typeof doc?.kind === 'string' ? doc.kind : 'unknown',
    name: safe(() => resultName(doc), `Result ${i + 1}`),
    title: safe(
      () => resultTitle(doc),
      safe(() => kindName(doc.kind), 'Unknown test'),
    ),
    startedAt: typeof doc?.startedAt === 'string' ? doc.startedAt : '',
  };
  const ceiling = doc?.target?.device?.linkInfo?.ceilingMBps;
  if (typeof ceiling === 'number' && ceiling > 0 && Number.isFinite(ceiling)) result.ceilingMBps = ceiling;
  return {
    key: id,
    label,
    resultIds: [id],
    drive: safe(() => targetLine(doc), 'unknown drive'),
    method: safe(() => methodLine(doc), 'unknown method'),
    cacheClass: safe(() => cacheClassOf([doc]), 'cached' as const),
    result,
  };
}

/** Every metric key in first-seen order, headline figures first. */
function toFigures(metrics: ReadonlyArray<Map<string, Metric>>): ComparisonFigure[] {
  const first = new Map<string, Metric>();
  for (const byKey of metrics) for (const [key, m] of byKey) if (!first.has(key)) first.set(key, m);
  const ordered = [...first.values()].filter((m) => m.primary).concat([...first.values()].filter((m) => !m.primary));
  return ordered.map((m) => ({
    key: m.key,
    figure: m.measure,
    label: m.label,
    metricKey: m.key,
    unit: m.unit,
    direction: m.direction,
    metric: { group: m.group, measure: m.measure, primary: m.primary },
  }));
}

function findings(m: ComparisonModel): string[] {
  const labels = m.variants.map((v) => v.label);
  const out: string[] = [];
  const primary = m.columns.map((f, j) => ({ f, j })).filter(({ f }) => f.metric?.primary !== false);
  m.variants.forEach((v, i) => {
    if (v.notCompared !== undefined) {
      out.push(v.notCompared);
      return;
    }
    const ref = v.reference ?? m.baseline;
    if (ref === i) return;
    const names = { candidate: labels[i] ?? '', baseline: labels[ref] ?? '' };
    const judged = primary.flatMap(({ f, j }) => {
      const claim = m.cells[i]?.[j]?.claim;
      return claim ? [{ label: f.label, claim }] : [];
    });
    if (judged.length === 0) {
      out.push(`${names.candidate}: no headline figure in common with ${names.baseline}.`);
      return;
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
  });
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

/** Why a cell of the table reads "n/a", in words to print beside it; undefined when it has a
 *  figure and a change. */
export function naReason(c: Pick<Comparison, 'columns' | 'baseline'>, row: Pick<CompareRow, 'cells'>, i: number): string | undefined {
  const cell = row.cells[i];
  if (!cell || cell.spread.n === 0) return 'this test has no such figure';
  if (cell.verdict !== 'n/a') return undefined;
  const why = c.columns[i]?.notCompared;
  if (why !== undefined) return why;
  const base = c.baseline;
  return !row.cells[base] || row.cells[base]!.spread.n === 0 ? 'the baseline has no such figure' : 'nothing to compare it with';
}
