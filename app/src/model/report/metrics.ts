// What a result document says, as figures a person compares: one Metric per figure with its
// value in every run, and the plain-words lines every view prints (the result's name, the
// drive, the method). History rows, the compare table, text exports and the share card all
// read documents through this module, so a figure is named and rounded the same everywhere.
//
// Browser-safe: no node:* imports (the renderer bundles it); types from result.ts, the trust rule.
import type { ResultDocument, ResultTest } from '../result.js';
import { spread, type Spread } from '../stats.js';
import { kindOf } from '../kinds/registry.js';
import type { Direction } from '../verdict/compare.js';
import { figureInterval } from '../precision.js';
import { figureWithInterval, formatFigure, intervalText, metricValue, sizeText, type Metric, type MetricUnit } from './figure-text.js';

export { figureWithInterval, formatFigure, intervalText, metricValue, sizeText, type Metric, type MetricUnit };

/** A metric's values as a spread (n, mean, median, min, max, stdev, cv). */
export function metricSpread(m: Metric): Spread {
  return spread(m.values);
}

/** "Quick Test", "CrystalDiskMark grid"… for any kind (an unknown one is shown as it is). */
export function kindName(kind: string): string {
  return kindOf(kind)?.name ?? kind;
}

/** The test as a title: "Quick Test · 1 GiB", "CrystalDiskMark grid · Default · 1 GiB", "Hash test · SHA-256". */
export function resultTitle(doc: ResultDocument): string {
  const parts = [kindName(doc.kind)];
  const s = doc.settings;
  const own = kindOf(doc.kind)?.report?.titleParts?.(doc);
  if (own) parts.push(...own);
  else if (s.size) parts.push(sizeText(s.size));
  if (s.runs > 1) parts.push(`${s.runs} runs`);
  return parts.join(' · ');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** When a result started, the one way every screen, card and export writes it: "22 Nov 2026 02:39
 *  UTC" (UTC, so a picture or a row reads the same in every time zone). */
export function dateTimeText(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())} UTC`;
}

/** The time part of an unlabelled result's name ("Nov 24 14:03", UTC). */
export function nameWhen(startedAt: string): string {
  const at = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2})/.exec(String(startedAt ?? ''));
  return at ? `${MONTHS[Number(at[2]) - 1] ?? at[2]} ${Number(at[3])} ${at[4]}` : String(startedAt ?? '').slice(0, 10);
}

/** A result's name where its date is shown beside it (History's row): an unlabelled name without
 *  its time part, so the row carries one date in one format. */
export function nameWithoutWhen(name: string, startedAt: string, labelled: boolean): string {
  return labelled ? name : name.replace(` · ${nameWhen(startedAt)}`, '');
}

/** What a person calls the result: its label, else "folder · time · size" — the folder tested
 *  (its last path part, never DiskDial's own hidden workspace; "/" only for the root), when it
 *  started ("Nov 24 14:03", UTC) and how much. Two results of one volume on one day still get
 *  names of their own. */
export function resultName(doc: ResultDocument): string {
  const label = doc.label?.trim();
  if (label) return label;
  const parts = String(doc.target.path ?? '')
    .split(/[\\/]+/)
    .filter((p) => p && !p.startsWith('.diskdial-'));
  const folder = parts.at(-1) ?? '/';
  const out = [folder, nameWhen(String(doc.startedAt ?? ''))];
  const own = kindOf(doc.kind)?.report?.nameSize?.(doc);
  const size = doc.settings?.size;
  if (own) out.push(own);
  else if (typeof size === 'number' && Number.isFinite(size) && size > 0) out.push(sizeText(size));
  return out.join(' · ');
}

/** The drive as one line: "Samsung T7 · USB 3.2 Gen 2 (10 Gb/s), UAS · exFAT · 1 TB". */
export function targetLine(doc: ResultDocument): string {
  const d = doc.target.device;
  const parts: string[] = [];
  if (d.model && d.model !== 'unknown') parts.push(d.model);
  parts.push(d.link ?? d.bus);
  parts.push(doc.target.fs + (doc.target.encrypted ? ' (encrypted)' : ''));
  if (doc.target.totalBytes > 0) parts.push(sizeText(doc.target.totalBytes, true));
  return parts.join(' · ');
}

const CACHE_WORDS: Record<string, string> = {
  direct: 'uncached (direct I/O)',
  nocache: 'uncached (F_NOCACHE)',
  'buffered-flushed': 'cache dropped, flushed',
  buffered: 'CACHED (page cache)',
};

/** How it was measured, in one line: "uncached (direct I/O) · random data · writes flushed". The
 *  run count is the title's (resultTitle): every view that prints both said "3 runs" twice. */
export function methodLine(doc: ResultDocument): string {
  const parts = [CACHE_WORDS[doc.cacheMode] ?? doc.cacheMode];
  parts.push(doc.dataPattern === 'zeros' ? 'zeros (compressible)' : `${doc.dataPattern} data`);
  if (kindOf(doc.kind)?.report?.writes !== false) parts.push('writes flushed');
  return parts.join(' · ');
}

/** The machine and software: "Linux 6.12 x64 · Intel Xeon … · DiskDial 0.1.0 (engine 0.3.0)". */
export function hostLine(doc: ResultDocument): string {
  const h = doc.host;
  return `${h.osName ?? `${h.os} ${h.osRelease}`} ${h.arch} · ${h.cpu} · DiskDial ${doc.app.version} (engine ${doc.app.engine})`;
}

/** Every comparable figure of a result, headline ones first. */
export function resultMetrics(doc: ResultDocument): Metric[] {
  const report = kindOf(doc.kind)?.report;
  const own = report?.metrics?.(doc);
  if (own?.only) return own.metrics;
  const out: Metric[] = [...(own?.metrics ?? [])];
  // Every test name, in first-seen order (CDM's grid order), each run's value in run order.
  const byName = new Map<string, ResultTest[]>();
  for (const t of doc.tests) {
    const list = byName.get(t.name) ?? [];
    list.push(t);
    byName.set(t.name, list);
  }
  const primaries: Metric[] = [];
  const details: Metric[] = [];
  for (const [name, tests] of byName) {
    const runs = [...tests].sort((a, b) => a.run - b.run);
    const primary = report?.stepsArePrimary !== false;
    const metric = (measure: string, unit: MetricUnit, direction: Direction, pick: (t: ResultTest) => number, label = name): Metric => ({
      key: `${name}/${measure}`,
      label,
      group: name,
      measure,
      unit,
      direction,
      values: runs.map(pick),
      primary: false,
    });
    const interval = figureInterval(runs);
    primaries.push({ ...metric('mbps', 'MB/s', 'higher', (t) => t.mbps), primary, ...(interval ? { interval } : {}) });
    details.push(
      metric('iops', 'IOPS', 'higher', (t) => t.iops, `${name} · IOPS`),
      metric('meanUs', 'µs', 'lower', (t) => t.latencyUs.mean, `${name} · mean latency`),
      metric('p99Us', 'µs', 'lower', (t) => t.latencyUs.p99, `${name} · 99th percentile latency`),
    );
  }
  // A section may already name a test's figure (the many-file test's aggregate is its
  // "Files Write/mbps"): keys are unique, the section's figure wins.
  const seen = new Set(out.map((m) => m.key));
  return [...out, ...[...primaries, ...details].filter((m) => !seen.has(m.key) && seen.add(m.key))];
}
