// The CrystalDiskMark grid as data: which rows a profile has, which columns a mode has, where a
// step ("SEQ1M Q8T1 Read", "RND4K Q32T16 Mix 70/30") lands, and each cell's figures across runs
// — the best run big (CrystalDiskMark's rule: highest rate, lowest latency) and the median
// beside it. Live cells come from finished steps; a finished document's cells prefer its
// `summary`, which the core computed from every run.
import type { ResultTest, RunStat, StepSummary } from '@model/result';
import type { DetailedProgressEvent } from '@model/events';
import type { DetailedSettings } from '@model/settings';
import type { CdmUnit } from './figure-format';
import { isMeasuring, stepFraction } from './job-progress';

type CdmSettings = Extract<DetailedSettings, { kind: 'cdm' }>;
type CdmPreset = CdmSettings['preset'];
type CdmMode = CdmSettings['mode'];

export type CdmCol = 'read' | 'write' | 'mix';

/** Each profile's rows, as the core's presets name them (kept in step with
 *  app/src/model/kinds/cdm.ts CDM_PRESET_ROWS; a test checks they agree). */
export const PRESET_ROWS: Record<CdmPreset, readonly string[]> = {
  default: ['SEQ1M Q8T1', 'SEQ1M Q1T1', 'RND4K Q32T1', 'RND4K Q1T1'],
  nvme: ['SEQ1M Q8T1', 'SEQ128K Q32T1', 'RND4K Q32T16', 'RND4K Q1T1'],
  peak: ['SEQ1M Q8T1', 'RND4K Q32T1'],
  realworld: ['SEQ1M Q1T1', 'RND4K Q1T1'],
  fast: ['SEQ1M Q8T1', 'SEQ1M Q1T1', 'RND4K Q32T1', 'RND4K Q1T1'],
};

const MODE_COLUMNS: Record<CdmMode, readonly CdmCol[]> = {
  readwrite: ['read', 'write'],
  read: ['read'],
  write: ['write'],
  mix: ['mix'],
  all: ['read', 'write', 'mix'],
};

export function modeColumns(mode: CdmMode | string | undefined): readonly CdmCol[] {
  return MODE_COLUMNS[(mode ?? 'readwrite') as CdmMode] ?? MODE_COLUMNS.readwrite;
}

export const COL_LABEL: Record<CdmCol, string> = { read: 'Read', write: 'Write', mix: 'Mix' };

const STEP_RE = /^((?:SEQ|RND)\S+ Q\d+T\d+) (Read|Write|Mix\b.*)$/;

/** Where a step lands in the grid: "SEQ1M Q8T1 Read" → row "SEQ1M Q8T1", column read. */
export function parseStepName(name: string): { row: string; col: CdmCol } | null {
  const m = STEP_RE.exec(name.trim());
  if (!m) return null;
  const what = m[2]!;
  return { row: m[1]!, col: what === 'Read' ? 'read' : what === 'Write' ? 'write' : 'mix' };
}

/** "SEQ1M Q8T1" → "SEQ1M-Q8T1", for data-testids and element ids. */
export function rowKey(row: string): string {
  return row.replace(/\s+/g, '-');
}

/** Rows in the order steps name them (a plan's or a document's), else the profile's. */
export function gridRows(stepNames: readonly string[], preset: CdmPreset | string | undefined): string[] {
  const rows: string[] = [];
  for (const n of stepNames) {
    const p = parseStepName(n);
    if (p && !rows.includes(p.row)) rows.push(p.row);
  }
  if (rows.length > 0) return rows;
  return [...(PRESET_ROWS[(preset ?? 'default') as CdmPreset] ?? PRESET_ROWS.default)];
}

/** One figure across the runs so far: the best and, with two runs or more, the median. */
export interface Figure {
  best: number;
  median: number | null;
}

export interface CdmCell {
  runs: number;
  mbps: Figure;
  iops: Figure;
  /** Mean latency, µs (best = lowest). */
  meanUs: Figure;
  /** The run with the highest MB/s: its IOPS and latency percentiles go under the big figure. */
  bestRun: ResultTest;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function figure(xs: readonly number[], higherIsBetter: boolean): Figure {
  return { best: higherIsBetter ? Math.max(...xs) : Math.min(...xs), median: xs.length > 1 ? median(xs) : null };
}

function fromStat(s: RunStat): Figure {
  return { best: s.best, median: s.n > 1 ? s.median : null };
}

/** Cells keyed by cellKey(row, col), from test rows (a document's `tests`, or the steps
 *  finished so far) and, when given, a document's summary across runs. */
export function cdmCells(tests: readonly ResultTest[], summary?: readonly StepSummary[]): Map<string, CdmCell> {
  const byName = new Map<string, ResultTest[]>();
  for (const t of tests) {
    const list = byName.get(t.name);
    if (list) list.push(t);
    else byName.set(t.name, [t]);
  }
  const cells = new Map<string, CdmCell>();
  for (const [name, runs] of byName) {
    const at = parseStepName(name);
    if (!at) continue;
    const bestRun = runs.reduce((a, b) => (b.mbps > a.mbps ? b : a));
    const s = summary?.find((x) => x.name === name);
    cells.set(cellKey(at.row, at.col), {
      runs: s?.runs ?? runs.length,
      mbps: s
        ? fromStat(s.mbps)
        : figure(
            runs.map((t) => t.mbps),
            true,
          ),
      iops: s
        ? fromStat(s.iops)
        : figure(
            runs.map((t) => t.iops),
            true,
          ),
      meanUs: s
        ? fromStat(s.meanUs)
        : figure(
            runs.map((t) => t.latencyUs.mean),
            false,
          ),
      bestRun,
    });
  }
  return cells;
}

export function cellKey(row: string, col: CdmCol): string {
  return `${row}|${col}`;
}

/** The cell's figure in the grid's unit: MB/s, GB/s (÷ 1000), IOPS, or mean latency in µs. */
export function cellFigure(cell: CdmCell, unit: CdmUnit): Figure {
  switch (unit) {
    case 'MBps':
      return cell.mbps;
    case 'GBps':
      return { best: cell.mbps.best / 1000, median: cell.mbps.median === null ? null : cell.mbps.median / 1000 };
    case 'IOPS':
      return cell.iops;
    case 'us':
      return cell.meanUs;
  }
}

export interface ActiveCell {
  row: string;
  col: CdmCol;
  /** How far the step being measured is, 0–1. */
  fraction: number;
}

export interface CdmGridView {
  rows: string[];
  cols: readonly CdmCol[];
  cells: Map<string, CdmCell>;
  active: ActiveCell | null;
}

/** Everything the grid draws, from test rows (live steps or a document's tests), the plan's step
 *  names, the profile and mode, and the latest progress while a job runs. */
export function cdmGridView(src: {
  tests: readonly ResultTest[];
  summary?: readonly StepSummary[] | undefined;
  stepNames: readonly string[];
  preset: string | undefined;
  mode: string | undefined;
  progress?: DetailedProgressEvent | null;
}): CdmGridView {
  const names = src.stepNames.length > 0 ? src.stepNames : src.tests.map((t) => t.name);
  let active: ActiveCell | null = null;
  if (src.progress && isMeasuring(src.progress)) {
    const at = parseStepName(src.progress.testName);
    if (at) active = { ...at, fraction: stepFraction(src.progress) };
  }
  return { rows: gridRows(names, src.preset), cols: modeColumns(src.mode), cells: cdmCells(src.tests, src.summary), active };
}
