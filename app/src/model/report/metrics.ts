// What a result document says, as figures a person compares: one Metric per figure with its
// value in every run, and the plain-words lines every view prints (the result's name, the
// drive, the method). History rows, the compare table, text exports and the share card all
// read documents through this module, so a figure is named and rounded the same everywhere.
//
// Browser-safe: no node:* imports (the renderer bundles it); types from result.ts, the trust rule.
import type { ResultDocument, ResultTest } from '../result.js';
import { mean, spread, type Spread } from '../stats.js';
import { shownOverhead } from '../trust.js';

export type MetricUnit = 'MB/s' | 'IOPS' | 'µs' | 'ms' | 'GB' | '%';

export interface Metric {
  /** Stable across documents of the same kind: "SEQ1M Q8T1 Read/mbps". Compare joins on it. */
  key: string;
  /** The row a person reads: "SEQ1M Q8T1 Read", "Write", "Files Read · per-file overhead". */
  label: string;
  /** The test or section it belongs to ("SEQ1M Q8T1 Read", "Sustained", "Hash"). */
  group: string;
  /** Which figure of the group: mbps, iops, meanUs, p99Us, cacheGB, afterMBps… */
  measure: string;
  unit: MetricUnit;
  /** Rates: true; latencies and overheads: false. Decides "better"/"worse" and a card's best run. */
  higherIsBetter: boolean;
  /** One value per run, in run order (a single-run result has one). */
  values: number[];
  /** The headline figures (MB/s rows); the rest are detail a table can show on demand. */
  primary: boolean;
}

/** A metric's values as a spread (n, mean, median, min, max, stdev, cv). */
export function metricSpread(m: Metric): Spread {
  return spread(m.values);
}

const KIND_NAMES: Record<string, string> = {
  quick: 'Quick Test',
  cdm: 'CrystalDiskMark grid',
  sustained: 'Sustained write',
  files: 'Many-file test',
  hash: 'Hash test',
  'seq-write': 'Sequential write',
  'seq-read': 'Sequential read',
  'rand-read': 'Random read',
  'rand-write': 'Random write',
  mix: 'Mixed read/write',
};

/** "Quick Test", "CrystalDiskMark grid"… for any kind (an unknown one is shown as it is). */
export function kindName(kind: string): string {
  return KIND_NAMES[kind] ?? kind;
}

/** The test as a title: "Quick Test · 1 GiB", "CrystalDiskMark grid · Default · 1 GiB", "Hash test · SHA-256". */
export function resultTitle(doc: ResultDocument): string {
  const parts = [kindName(doc.kind)];
  const s = doc.settings;
  if (doc.kind === 'hash' && doc.hash) {
    parts.push(doc.hash.algo === 'sha512' ? 'SHA-512' : 'SHA-256', sizeText(doc.hash.file.bytes));
  } else if (doc.kind === 'files' && doc.files) {
    parts.push(`${capital(doc.files.preset)} · ${doc.files.count} files`);
  } else if (doc.kind === 'sustained' && doc.sustained) {
    parts.push(`up to ${sizeText(doc.sustained.plannedBytes)}`);
  } else {
    if (doc.kind === 'cdm' && s.preset) parts.push(cdmPresetName(s.preset));
    if (s.size) parts.push(sizeText(s.size));
  }
  if (s.runs > 1) parts.push(`${s.runs} runs`);
  return parts.join(' · ');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

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
  const at = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2})/.exec(String(doc.startedAt ?? ''));
  const when = at ? `${MONTHS[Number(at[2]) - 1] ?? at[2]} ${Number(at[3])} ${at[4]}` : String(doc.startedAt ?? '').slice(0, 10);
  const out = [folder, when];
  const size = doc.settings?.size;
  if (typeof size === 'number' && Number.isFinite(size) && size > 0) out.push(sizeText(size));
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

/** How it was measured, in one line: "uncached (direct I/O) · random data · flushed · 3 runs". */
export function methodLine(doc: ResultDocument): string {
  const parts = [CACHE_WORDS[doc.cacheMode] ?? doc.cacheMode];
  parts.push(doc.dataPattern === 'zeros' ? 'zeros (compressible)' : `${doc.dataPattern} data`);
  if (doc.kind !== 'hash') parts.push('writes flushed');
  if (doc.settings.runs > 1) parts.push(`${doc.settings.runs} runs`);
  return parts.join(' · ');
}

/** The machine and software: "Linux 6.12 x64 · Intel Xeon … · DiskDial 0.1.0 (engine 0.3.0)". */
export function hostLine(doc: ResultDocument): string {
  const h = doc.host;
  return `${h.osName ?? `${h.os} ${h.osRelease}`} ${h.arch} · ${h.cpu} · DiskDial ${doc.app.version} (engine ${doc.app.engine})`;
}

/** Every comparable figure of a result, headline ones first. */
export function resultMetrics(doc: ResultDocument): Metric[] {
  if (doc.kind === 'hash' && doc.hash) return hashMetrics(doc);
  const out: Metric[] = [];
  if (doc.kind === 'sustained' && doc.sustained) out.push(...sustainedMetrics(doc));
  if (doc.kind === 'files' && doc.files) out.push(...filesMetrics(doc));
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
    const primary = doc.kind !== 'files' && doc.kind !== 'sustained';
    const metric = (measure: string, unit: MetricUnit, higherIsBetter: boolean, pick: (t: ResultTest) => number, label = name): Metric => ({
      key: `${name}/${measure}`,
      label,
      group: name,
      measure,
      unit,
      higherIsBetter,
      values: runs.map(pick),
      primary: false,
    });
    primaries.push({ ...metric('mbps', 'MB/s', true, (t) => t.mbps), primary });
    details.push(
      metric('iops', 'IOPS', true, (t) => t.iops, `${name} · IOPS`),
      metric('meanUs', 'µs', false, (t) => t.latencyUs.mean, `${name} · mean latency`),
      metric('p99Us', 'µs', false, (t) => t.latencyUs.p99, `${name} · 99th percentile latency`),
    );
  }
  // A section may already name a test's figure (the many-file test's aggregate is its
  // "Files Write/mbps"): keys are unique, the section's figure wins.
  const seen = new Set(out.map((m) => m.key));
  return [...out, ...[...primaries, ...details].filter((m) => !seen.has(m.key) && seen.add(m.key))];
}

function sustainedMetrics(doc: ResultDocument): Metric[] {
  const runs = doc.sustained!.runs;
  const tests = doc.tests;
  const avg = runs.map((r) => tests.find((t) => t.run === r.run)?.mbps ?? NaN);
  const out: Metric[] = [
    {
      key: 'Sustained/mbps',
      label: 'Sustained write · average',
      group: 'Sustained',
      measure: 'mbps',
      unit: 'MB/s',
      higherIsBetter: true,
      values: avg,
      primary: true,
    },
  ];
  // The knee's figures only when every run found one: a mean over "cache" and "no cache" means nothing.
  const knees = runs.map((r) => (r.verdict.kind === 'knee' ? r.verdict : undefined));
  if (knees.every((k) => k !== undefined)) {
    out.push(
      {
        key: 'Sustained/cacheGB',
        label: 'Fast cache size',
        group: 'Sustained',
        measure: 'cacheGB',
        unit: 'GB',
        higherIsBetter: true,
        values: knees.map((k) => k.kneeBytes / 1e9),
        primary: true,
      },
      {
        key: 'Sustained/beforeMBps',
        label: 'Write speed before the knee',
        group: 'Sustained',
        measure: 'beforeMBps',
        unit: 'MB/s',
        higherIsBetter: true,
        values: knees.map((k) => k.beforeMBps),
        primary: true,
      },
      {
        key: 'Sustained/afterMBps',
        label: 'Write speed after the knee',
        group: 'Sustained',
        measure: 'afterMBps',
        unit: 'MB/s',
        higherIsBetter: true,
        values: knees.map((k) => k.afterMBps),
        primary: true,
      },
    );
  }
  const mins = runs.map((r) => Math.min(...r.curve.map((p) => p.mbps)));
  if (mins.every(Number.isFinite)) {
    out.push({
      key: 'Sustained/minMBps',
      label: 'Slowest slice',
      group: 'Sustained',
      measure: 'minMBps',
      unit: 'MB/s',
      higherIsBetter: true,
      values: mins,
      primary: false,
    });
  }
  return out;
}

function filesMetrics(doc: ResultDocument): Metric[] {
  const runs = doc.files!.runs;
  const out: Metric[] = [];
  for (const pass of ['write', 'read'] as const) {
    const P = pass === 'write' ? 'Write' : 'Read';
    const group = `Files ${P}`;
    const m = (measure: string, label: string, unit: MetricUnit, higherIsBetter: boolean, values: number[], primary: boolean): Metric => ({
      key: `${group}/${measure}`,
      label: `${group} · ${label}`,
      group,
      measure,
      unit,
      higherIsBetter,
      values,
      primary,
    });
    out.push(
      m(
        'mbps',
        'aggregate',
        'MB/s',
        true,
        runs.map((r) => r[pass].mbps),
        true,
      ),
      m(
        'medianMBps',
        'median file',
        'MB/s',
        true,
        runs.map((r) => r[pass].medianMBps),
        false,
      ),
      m(
        'trimmedMeanMBps',
        '20 % trimmed mean',
        'MB/s',
        true,
        runs.map((r) => r[pass].trimmedMeanMBps),
        false,
      ),
    );
    const ts = runs.map((r) => r[pass].theilSen);
    if (ts.every((f) => f !== undefined)) {
      out.push(
        m(
          'rateMBps',
          'rate (Theil–Sen)',
          'MB/s',
          true,
          ts.map((f) => f.rateMBps),
          false,
        ),
        m(
          'overheadMs',
          'per-file overhead',
          'ms',
          false,
          // Clamped as every view prints it (trust.ts): a negative intercept is not a time.
          ts.map((f) => shownOverhead(f.overheadMs).ms),
          false,
        ),
      );
    }
  }
  return out;
}

function hashMetrics(doc: ResultDocument): Metric[] {
  const h = doc.hash!;
  const algo = h.algo === 'sha512' ? 'SHA-512' : 'SHA-256';
  const m = (measure: string, label: string, value: number, primary: boolean): Metric => ({
    key: `Hash/${measure}`,
    label,
    group: 'Hash',
    measure,
    unit: 'MB/s',
    higherIsBetter: true,
    values: [value],
    primary,
  });
  return [
    m('read', 'Read (uncached)', h.read.mbps, true),
    m('readHash', `Read + ${algo}`, h.readHash.mbps, true),
    m('memory', `${algo} in memory, 1 core`, h.memory.mbps, true),
    m('memoryParallel', `${algo} in memory, ${h.memoryParallel.threads} cores`, h.memoryParallel.mbps, false),
  ];
}

/** The one figure of a metric a row shows: the mean across runs (a single run's value). */
export function metricValue(m: Metric): number {
  return mean(m.values);
}

/** A figure with the precision its size deserves: 1,234 · 123.4 · 12.34 · 0.123 (no unit). */
export function formatFigure(value: number, unit?: MetricUnit): string {
  if (!Number.isFinite(value)) return '—';
  const a = Math.abs(value);
  const digits = unit === 'GB' ? (a >= 100 ? 0 : a >= 10 ? 1 : 2) : a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function cdmPresetName(preset: string): string {
  return { default: 'Default', nvme: 'NVMe SSD', peak: 'Peak', realworld: 'Real World' }[preset] ?? preset;
}

/** Bytes as a person reads them on the settings they chose: powers of two as GiB/MiB, the rest as GB/MB. */
export function sizeText(bytes: number, decimalOnly = false): string {
  const GiB = 1024 ** 3;
  const MiB = 1024 ** 2;
  // A decimal size the engine aligned down to whole MiB (Blackmagic's "1 GB" runs 953 MiB) is
  // named as it was chosen.
  const wholeGB = Math.round(bytes / 1e9);
  if (wholeGB >= 1 && wholeGB < 1000 && bytes % (GiB / 4) !== 0 && Math.abs(bytes - wholeGB * 1e9) <= 0.001 * wholeGB * 1e9)
    return `${wholeGB} GB`;
  const asked = decimalAlignedFrom(bytes);
  if (asked !== undefined) return asked >= 1e9 ? `${asked / 1e9} GB` : `${asked / 1e6} MB`;
  if (!decimalOnly && bytes >= GiB && bytes % (GiB / 4) === 0) return `${bytes / GiB} GiB`;
  if (!decimalOnly && bytes >= MiB && bytes < GiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1e12) return `${round(bytes / 1e12)} TB`;
  if (bytes >= 1e9) return `${round(bytes / 1e9)} GB`;
  if (bytes >= 1e6) return `${round(bytes / 1e6)} MB`;
  if (bytes >= 1e3) return `${round(bytes / 1e3)} kB`;
  return `${bytes} B`;
}

/** The round decimal size (two significant figures of MB: 20 MB, 750 MB, 1.5 GB) a whole-MiB
 *  size was aligned down from, if it looks like one: "20 MB" runs 19 MiB, "750 MB" 715 MiB. A
 *  multiple of 16 MiB (16, 64, 256 MiB…) is taken as asked in binary. */
function decimalAlignedFrom(bytes: number): number | undefined {
  const MiB = 1024 ** 2;
  if (!(bytes >= MiB) || bytes >= 1e12 || bytes % MiB !== 0 || (bytes / MiB) % 16 === 0) return undefined;
  // The smallest two-figure number of MB above the size, within the one MiB it was aligned by.
  const step = 10 ** Math.max(0, Math.floor(Math.log10(bytes / 1e6)) - 1) * 1e6;
  const candidate = Math.ceil((bytes + 1) / step) * step;
  return candidate - bytes < MiB ? candidate : undefined;
}

function round(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1).replace(/\.0$/, '') : x.toFixed(2).replace(/\.?0+$/, '');
}
