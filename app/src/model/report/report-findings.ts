// What the format report says in words: its title, the link's ceiling, the findings (faster,
// slower, within noise) and the warnings about results that are not like for like.
import type { ResultDocument } from '../result.js';
import { deltaText, judgeChange, NOISE_RULE, pText } from './compare.js';
import type { FormatReport, ReportCell, ReportColumn, ReportVariant } from './report-types.js';
import { kindName, methodLine, resultTitle, sizeText, targetLine } from './metrics.js';

// ---- title, ceiling, findings, warnings ------------------------------------------------------

export interface VariantGroup {
  key: string;
  label: string;
  docs: ResultDocument[];
}

/** Wizard results (every one from one plan) are grouped by format, the rest by the user's label
 *  (unlabelled results stay apart); the order
 *  is first appearance. When results of several plans share a format, each plan's format is its
 *  own row (ext4 on one disk is not ext4 on another). */
export function campaignOf(d: ResultDocument): { planId: string; format: string; formatLabel: string } | undefined {
  const c = d.campaign;
  return c && typeof c.planId === 'string' && typeof c.format === 'string' && c.format !== '' ? c : undefined;
}

/** Every result made by one wizard plan. */
export function isCampaign(docs: readonly ResultDocument[]): boolean {
  const plans = new Set(docs.map((d) => campaignOf(d)?.planId));
  return docs.length > 0 && !plans.has(undefined) && plans.size === 1;
}

/** What a report's rows are: the formats of one wizard plan, the setups of one campaign, or
 *  saved results side by side. */
export function rowNoun(docs: readonly ResultDocument[]): 'format' | 'setup' | 'result' {
  if (!isCampaign(docs)) return 'result';
  return docs[0]?.campaign?.of === 'setups' ? 'setup' : 'format';
}

/** The rows' column header: "Format", "Setup" or "Result". */
export function rowHeader(docs: readonly ResultDocument[]): string {
  const noun = rowNoun(docs);
  return `${noun[0]!.toUpperCase()}${noun.slice(1)}`;
}

export function reportTitle(docs: readonly ResultDocument[], variants: readonly ReportVariant[]): string {
  const first = docs[0];
  // One result is a report of its figures, not a comparison (nothing is set against it).
  if (first && docs.length === 1 && !isCampaign(docs)) return `Report of 1 result: ${first.label || deviceName(first)}`;
  if (!first || !isCampaign(docs)) return `Comparison of ${docs.length} results`;
  return `${variants.map((v) => v.label).join(' vs ')} on ${deviceName(first)}`;
}

/** The disk without its file system: "Samsung T7 (USB 3.2 Gen 2)", "/dev/vda · virtio (virtual disk)". */
export function deviceName(d: ResultDocument): string {
  const dev = d.target?.device;
  const name = dev?.model && dev.model !== 'unknown' ? dev.model : (dev?.node ?? d.target?.volume ?? 'unknown drive');
  const link = dev?.link ?? (dev?.bus && dev.bus !== 'unknown' ? dev.bus : undefined);
  if (!link) return name;
  return link.includes('(') ? `${name} · ${link}` : `${name} (${link})`;
}

/** The identity of the drive and its connection, the file system left out (the wizard changes it). */
export function deviceKey(d: ResultDocument): string {
  const dev = d.target?.device;
  return [dev?.model, dev?.serial, dev?.link ?? dev?.bus].map((x) => x ?? '').join('|');
}

export function commonCeiling(docs: readonly ResultDocument[]): number | undefined {
  const all = docs.map((d) => d.target?.device?.linkInfo?.ceilingMBps);
  const first = all[0];
  if (typeof first !== 'number' || !(first > 0) || !Number.isFinite(first)) return undefined;
  return all.every((c) => c === first) ? first : undefined;
}

/** "a", "a and b", "a, b and c". */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** How a column is named inside a sentence: "write" for the Quick Test, the figure otherwise. */
export function figureWord(col: ReportColumn): string {
  return col.figure === 'Read' || col.figure === 'Write' ? col.figure.toLowerCase() : col.figure;
}

/** Where in a figure a column sits: its stress size, when it has one. */
export function whereText(col: ReportColumn): string | undefined {
  return col.sizeBytes !== undefined ? sizeText(col.sizeBytes) : undefined;
}

export function isReal(cell: ReportCell | undefined): cell is ReportCell {
  return cell?.verdict === 'better' || cell?.verdict === 'worse';
}

/** A report of one row compares nothing: it says so rather than "no difference" from itself. */
export function nothingComparedText(r: FormatReport, noun: string): string {
  const label = r.variants[0]?.label ?? '';
  return `One ${noun} only (${label}): nothing is compared — these are ${label}'s figures alone.`;
}

export function reportFindings(r: FormatReport, noun: string): string[] {
  if (r.variants.length === 1) return [nothingComparedText(r, noun)];
  const base = r.variants[r.baseline]?.label ?? '';
  const out: string[] = [];
  r.variants.forEach((v, i) => {
    if (i === r.baseline) return;
    const row = r.cells[i] ?? [];
    const shared = r.columns.map((col, j) => ({ col, cell: row[j] })).filter((x) => x.cell && x.cell.verdict !== 'n/a');
    if (shared.length === 0) {
      out.push(`${v.label}: no figure in common with ${base}.`);
      return;
    }
    // Per figure (read, write, SEQ1M Q8T1 Read…), its stress sizes in column order.
    const figures = new Map<string, Array<{ col: ReportColumn; cell: ReportCell }>>();
    for (const x of shared) figures.set(x.col.figure, [...(figures.get(x.col.figure) ?? []), x as { col: ReportColumn; cell: ReportCell }]);
    const changed: string[] = [];
    const quiet: string[] = [];
    for (const members of figures.values()) {
      const word = figureWord(members[0]!.col);
      const real = members.filter((x) => isReal(x.cell));
      if (real.length === 0) {
        quiet.push(word);
        continue;
      }
      const deltas = real.map((x) => deltaText(x.cell.delta ?? NaN));
      const places = real.map((x) => whereText(x.col));
      let text: string;
      if (places.some((p) => p === undefined)) text = `${word} ${deltas[0]}`;
      else if (new Set(deltas).size === 1) text = `${word} ${deltas[0]} at ${listText(places as string[])}`;
      else text = `${word} ${listText(real.map((_, k) => `${deltas[k]} at ${places[k]}`))}`;
      const calm = members.filter((x) => !isReal(x.cell)).map((x) => whereText(x.col));
      if (calm.length > 0 && calm.every((p) => p !== undefined)) text += ` (no measurable difference at ${listText(calm as string[])})`;
      changed.push(text);
    }
    if (changed.length === 0) {
      out.push(`${v.label}: no measurable difference from ${base} on any figure.`);
      return;
    }
    const parts = [...changed];
    if (quiet.length > 0 && quiet.length <= 2) parts.push(`${listText(quiet)} no measurable difference`);
    else if (quiet.length > 2) parts.push(`no measurable difference on the other ${quiet.length} figures`);
    out.push(`${v.label}: ${parts.join(', ')} — vs ${base}.`);
  });
  out.push(...inconclusiveFindings(r));
  out.push(...fastestFindings(r, noun));
  if (noun === 'setup') out.push(...setupVerdicts(r));
  return out;
}

/** A campaign's question is "which setup is worse?": each setup's verdict against the baseline
 *  in one sentence, with the rule's evidence — "Over Wi-Fi is worse than GigE: worse on all 4
 *  figures, each beyond run-to-run noise (Welch's t-test, p < 0.05: the largest p = 0.003)." */
export function setupVerdicts(r: FormatReport): string[] {
  const base = r.variants[r.baseline]?.label ?? '';
  const out: string[] = [];
  r.variants.forEach((v, i) => {
    if (i === r.baseline) return;
    const cells = (r.cells[i] ?? []).filter((c): c is ReportCell => c !== undefined && c.verdict !== 'n/a');
    const worse = cells.filter((c) => c.verdict === 'worse');
    const better = cells.filter((c) => c.verdict === 'better');
    if (worse.length + better.length === 0 || cells.length === 0) return;
    const ps = [...worse, ...better].map((c) => c.p).filter((p): p is number => p !== undefined);
    const evidence =
      ps.length === worse.length + better.length
        ? `each beyond run-to-run noise (Welch's t-test, p < ${NOISE_RULE.alpha}: ${Math.max(...ps) < 0.001 ? 'every p < 0.001' : `the largest p = ${Math.max(...ps).toFixed(3)}`})`
        : `each by at least ${Math.round(NOISE_RULE.singleRunChange * 100)} % (single runs: no p-value)`;
    const of = (n: number): string =>
      n < cells.length ? `${n} of ${cells.length} figures` : n === 1 ? 'its one figure' : `all ${n} figures`;
    if (better.length === 0) out.push(`${v.label} is worse than ${base}: worse on ${of(worse.length)}, ${evidence}.`);
    else if (worse.length === 0) out.push(`${v.label} is better than ${base}: better on ${of(better.length)}, ${evidence}.`);
    else out.push(`${v.label} is mixed against ${base}: worse on ${of(worse.length)}, better on ${better.length}, ${evidence}.`);
  });
  return out;
}

/** A large change the rule still calls noise (too few runs, too much spread) is said as such,
 *  so "no measurable difference" is never read as "the same": "Btrfs: write −54 % at 32 MiB is
 *  within run-to-run noise with 2 runs each (p = 0.09); more runs would tell." */
export function inconclusiveFindings(r: FormatReport): string[] {
  const out: string[] = [];
  r.variants.forEach((v, i) => {
    if (i === r.baseline) return;
    const big = r.columns
      .map((col, j) => ({ col, cell: r.cells[i]?.[j], base: r.cells[r.baseline]?.[j] }))
      .filter((x) => x.cell?.verdict === 'noise' && Math.abs(x.cell.delta ?? 0) >= NOISE_RULE.singleRunChange);
    if (big.length === 0) return;
    // One phrase per figure: "read −10 % at 1 GB and 5 GB", or each size's own change.
    const byFigure = new Map<string, typeof big>();
    for (const x of big) byFigure.set(x.col.figure, [...(byFigure.get(x.col.figure) ?? []), x]);
    const parts = [...byFigure.values()].map((xs) => {
      const word = figureWord(xs[0]!.col);
      const deltas = xs.map((x) => deltaText(x.cell!.delta!));
      const places = xs.map((x) => whereText(x.col));
      if (places.some((p) => p === undefined)) return `${word} ${deltas[0]}`;
      if (new Set(deltas).size === 1) return `${word} ${deltas[0]} at ${listText(places as string[])}`;
      return `${word} ${listText(xs.map((_, k) => `${deltas[k]} at ${places[k]}`))}`;
    });
    const n = big[0]!.cell!.values.length;
    const nb = big[0]!.base?.values.length ?? 0;
    const runs = n === nb ? `${n} run${n === 1 ? '' : 's'} each` : `${n} vs ${nb} runs`;
    const p = big[0]!.cell!.p;
    out.push(
      `${v.label}: ${listText(parts)} ${big.length === 1 ? 'is' : 'are'} still within run-to-run noise with ${runs}${p !== undefined ? ` (${pText(p)})` : ''}; more runs would tell.`,
    );
  });
  return out;
}

/** "Fastest write: XFS — ahead of every other format by more than run-to-run noise." With two
 *  rows the sentence above already says it, so only from three rows on. */
export function fastestFindings(r: FormatReport, noun: string): string[] {
  if (r.variants.length < 3) return [];
  const out: string[] = [];
  for (const dir of ['read', 'write'] as const) {
    const cols = r.columns.map((col, j) => ({ col, j })).filter(({ col }) => col.unit === 'MB/s' && direction(col) === dir);
    const wins = new Map<number, ReportColumn[]>();
    for (const { col, j } of cols) {
      const present = r.variants
        .map((_, i) => ({ i, cell: r.cells[i]?.[j] }))
        .filter((x): x is { i: number; cell: ReportCell } => x.cell !== undefined);
      if (present.length < 2) continue;
      const top = present.reduce((a, b) => (b.cell.spread.mean > a.cell.spread.mean ? b : a));
      const ahead = present.every((x) => x === top || judgeChange(top.cell.values, x.cell.values, true).verdict === 'better');
      if (ahead) wins.set(top.i, [...(wins.get(top.i) ?? []), col]);
    }
    if (wins.size === 0) continue;
    const whole = wins.size === 1 && [...wins.values()][0]?.length === cols.length;
    const who = [...wins].map(([i, won]) => {
      const label = r.variants[i]?.label ?? '';
      return whole ? label : `${label} at ${listText(won.map((c) => whereText(c) ?? c.figure))}`;
    });
    out.push(`Fastest ${dir}: ${who.join('; ')} — ahead of every other ${noun} by more than run-to-run noise.`);
  }
  return out;
}

export function direction(col: ReportColumn): 'read' | 'write' | undefined {
  if (/\bwrite\b/i.test(col.figure)) return 'write';
  if (/\bread\b/i.test(col.figure) && !/\+/.test(col.figure)) return 'read';
  return undefined;
}

export function reportWarnings(docs: readonly ResultDocument[], groups: readonly VariantGroup[]): string[] {
  const out: string[] = [];
  const kinds = [...new Set(docs.map((d) => String(d.kind)))];
  if (kinds.length > 1) {
    out.push(`These results are different tests (${kinds.map(kindName).join(', ')}): each column compares only the rows that have it.`);
  }
  const drives = new Map<string, string[]>();
  for (const g of groups) {
    for (const d of g.docs) {
      const k = deviceKey(d);
      const who = drives.get(k) ?? [];
      if (!who.includes(g.label)) drives.set(k, [...who, g.label]);
    }
  }
  if (drives.size > 1) {
    const lines = groups.map((g) => `${g.label}: ${safe(() => targetLine(g.docs[0] as ResultDocument), 'unknown drive')}`);
    out.push(
      `The rows were measured on different drives or connections (${lines.join('; ')}). That is the point when comparing ports, hubs or cables; otherwise the rows are not the same disk.`,
    );
  }
  for (const g of groups) {
    if (g.docs.some((d) => d.cacheMode === 'buffered'))
      out.push(`${g.label} was measured through the page cache: its figures are not the disk's.`);
  }
  const runs = new Map<number, string[]>();
  for (const g of groups) {
    for (const d of g.docs) {
      const n = typeof d.settings?.runs === 'number' ? d.settings.runs : 1;
      const who = runs.get(n) ?? [];
      if (!who.includes(g.label)) runs.set(n, [...who, g.label]);
    }
  }
  if (runs.size > 1) {
    const parts = [...runs].sort((a, b) => b[0] - a[0]).map(([n, who]) => `${n} run${n === 1 ? '' : 's'}: ${who.join(', ')}`);
    const single = runs.has(1)
      ? ` A figure with a single run is judged by the ${NOISE_RULE.singleRunChange * 100} % threshold of the rule.`
      : '';
    out.push(`The rows have different numbers of runs (${parts.join('; ')}).${single}`);
  }
  const methods = new Map<string, string[]>();
  for (const g of groups) {
    for (const d of g.docs) {
      const m = methodWords(d);
      const who = methods.get(m) ?? [];
      if (!who.includes(g.label)) methods.set(m, [...who, g.label]);
    }
  }
  if (methods.size > 1) {
    out.push(
      `The rows were measured differently, so they are not like for like (${[...methods].map(([m, who]) => `${who.join(', ')}: ${m}`).join('; ')}).`,
    );
  }
  for (const kind of kinds.filter((k) => k !== 'quick')) {
    const titles = new Set(
      docs.filter((d) => String(d.kind) === kind).map((d) => safe(() => resultTitle(d), '').replace(/ · \d+ runs$/, '')),
    );
    if (titles.size > 1)
      out.push(`The ${kindName(kind)} results were run with different settings (${[...titles].join('; ')}): not like for like.`);
  }
  return out;
}

/** methodLine(), which has no run count (runs are stated, and warned about, on their own). */
export function methodWords(d: ResultDocument): string {
  return safe(() => methodLine(d), 'unknown method');
}

export function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}
