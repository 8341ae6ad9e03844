// What the format report says in words: its title, the link's ceiling, the findings (faster,
// slower, inconclusive and why, a setup's overall verdict) and the warnings about results that are
// not like for like. The verdicts and their words are model/verdict/'s.
import type { ResultDocument } from '../result.js';
import { judgeComparison, overallVerdict, weighsInVerdict, type CompareClaim } from '../verdict/compare.js';
import {
  changeText,
  deltaText,
  flagNote,
  inconclusiveText,
  noDifferenceOn,
  noDifferenceText,
  overallText,
  SINGLE_RUN_NOTE,
} from '../verdict/compare-words.js';
import { safe } from './comparison.js';
import type { ComparisonCell, ComparisonFigure, ComparisonModel, ComparisonSubject } from './comparison.js';
import { kindName, methodLine, resultTitle, sizeText, targetLine } from './metrics.js';
import { CACHE_CLASS_WORDS } from './like-for-like.js';

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

export function reportTitle(docs: readonly ResultDocument[], variants: readonly ComparisonSubject[]): string {
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
export function figureWord(col: ComparisonFigure): string {
  return col.figure === 'Read' || col.figure === 'Write' ? col.figure.toLowerCase() : col.figure;
}

/** Where in a figure a column sits: its stress size, when it has one. */
export function whereText(col: ComparisonFigure): string | undefined {
  return col.sizeBytes !== undefined ? sizeText(col.sizeBytes) : undefined;
}

/** A report of one row compares nothing: it says so rather than "no difference" from itself. */
export function nothingComparedText(r: ComparisonModel, noun: string): string {
  const label = r.variants[0]?.label ?? '';
  return `One ${noun} only (${label}): nothing is compared — these are ${label}'s figures alone.`;
}

/** One figure's cells (its stress sizes) as a phrase: "write −9 %, CI −12 to −6 % at 1 GB and
 *  −7 %, CI −9 to −5 % at 5 GB". `say` words each cell's claim; `note` adds what follows a cell
 *  (its flags, in parentheses). */
function figurePhrase(
  xs: ReadonlyArray<{ col: ComparisonFigure; claim: CompareClaim }>,
  say: (c: CompareClaim) => string,
  note: (c: CompareClaim) => string = () => '',
): string {
  const word = figureWord(xs[0]!.col);
  const places = xs.map((x) => whereText(x.col));
  const said = xs.map((x) => say(x.claim));
  const notes = xs.map((x) => note(x.claim));
  if (places.some((p) => p === undefined)) return `${word} ${said[0]}${notes[0]}`;
  if (new Set(said).size === 1 && new Set(notes).size === 1) return `${word} ${said[0]} at ${listText(places as string[])}${notes[0]}`;
  return `${word} ${listText(xs.map((_, k) => `${said[k]} at ${places[k]}${notes[k]}`))}`;
}

/** The cells of row i judged against its reference, grouped by figure (stress sizes together). */
function judgedByFigure(r: ComparisonModel, i: number): Map<string, Array<{ col: ComparisonFigure; claim: CompareClaim }>> {
  const figures = new Map<string, Array<{ col: ComparisonFigure; claim: CompareClaim }>>();
  r.columns.forEach((col, j) => {
    const claim = r.cells[i]?.[j]?.claim;
    if (claim) figures.set(col.figure, [...(figures.get(col.figure) ?? []), { col, claim }]);
  });
  return figures;
}

export function reportFindings(r: ComparisonModel, noun: string): string[] {
  if (r.variants.length === 1) return [nothingComparedText(r, noun)];
  // Each row's line with the size of its largest real change: the largest come first.
  const lines: Array<{ text: string; size: number }> = [];
  const push = (text: string, size = 0): number => lines.push({ text, size });
  r.variants.forEach((v, i) => {
    if (v.notCompared !== undefined) {
      push(v.notCompared);
      return;
    }
    const ref = v.reference ?? r.baseline;
    if (ref === i) return;
    const base = r.variants[ref]?.label ?? '';
    const names = { candidate: v.label, baseline: base };
    const figures = judgedByFigure(r, i);
    if (figures.size === 0) {
      push(`${v.label}: no figure in common with ${base}.`);
      return;
    }
    const changed: string[] = [];
    const quiet: string[] = [];
    let open = false;
    let size = 0;
    for (const members of figures.values()) {
      const real = members.filter((x) => x.claim.outcome === 'change');
      if (members.every((x) => x.claim.outcome === 'same')) quiet.push(figureWord(members[0]!.col));
      if (members.some((x) => x.claim.outcome === 'inconclusive')) open = true;
      for (const x of real) if (Number.isFinite(x.claim.change)) size = Math.max(size, Math.abs(x.claim.change));
      if (real.length > 0) changed.push(figurePhrase(real, changeText, (c) => flagNote(c, names)));
    }
    if (changed.length === 0 && !open) {
      push(`${v.label}: ${noDifferenceText(base, 'figure')}.`);
      return;
    }
    // The inconclusive figures get their own sentence (inconclusiveFindings).
    const parts = [...changed];
    if (quiet.length > 0 && quiet.length <= 2) parts.push(noDifferenceOn(listText(quiet)));
    else if (quiet.length > 2) parts.push(noDifferenceOn(`${changed.length > 0 ? 'the other ' : ''}${quiet.length} figures`));
    if (parts.length > 0) push(`${v.label}: ${parts.join('; ')} — vs ${base}.`, size);
  });
  const out = lines.sort((a, b) => b.size - a.size).map((l) => l.text);
  out.push(...likeRowsFindings(r));
  out.push(...inconclusiveFindings(r));
  out.push(...fastestFindings(r, noun));
  if (noun === 'setup') out.push(...setupVerdicts(r));
  return out;
}

/** A campaign's question is "which setup is worse?": each setup's overall verdict against the
 *  baseline in one sentence, weighing only the throughput figures of the tests asked for. */
export function setupVerdicts(r: ComparisonModel): string[] {
  const out: string[] = [];
  r.variants.forEach((v, i) => {
    const ref = v.reference;
    if (ref === undefined || ref === i) return;
    const weighed = r.columns
      .map((col, j) => ({ col, claim: r.cells[i]?.[j]?.claim }))
      .filter((x): x is { col: ComparisonFigure; claim: CompareClaim } => x.claim !== undefined && weighsInVerdict(x.col));
    const overall = overallVerdict(weighed.map((x) => x.claim));
    if (!overall) return;
    out.push(
      overallText(
        v.label,
        r.variants[ref]?.label ?? '',
        overall,
        weighed.map((x) => x.col.label),
      ),
    );
  });
  return out;
}

/** When some rows were judged against the baseline format's common-mode row, says which were
 *  set against which, so no one reads a flushed row's Δ as against the uncached baseline. */
export function likeRowsFindings(r: ComparisonModel): string[] {
  if (!r.likeRows) return [];
  const byRef = new Map<number, string[]>();
  r.variants.forEach((v, i) => {
    if (v.reference === undefined || v.reference === i) return;
    byRef.set(v.reference, [...(byRef.get(v.reference) ?? []), v.label]);
  });
  const parts = [...byRef].map(([ref, who]) => {
    const base = r.variants[ref]!;
    return `${listText(who)} against ${base.label} (both ${CACHE_CLASS_WORDS[base.cacheClass]})`;
  });
  return [`Compared like for like: ${parts.join('; ')}. Rows measured in different modes are not set against each other.`];
}

/** Every figure the rule could not decide, with why: "Btrfs: inconclusive on write −54 % at 32 MiB
 *  — 2 runs each; more runs would tell." An inconclusive figure is never folded into "no
 *  difference". */
export function inconclusiveFindings(r: ComparisonModel): string[] {
  const out: string[] = [];
  r.variants.forEach((v, i) => {
    const ref = v.reference;
    if (ref === undefined || ref === i) return;
    const open = [...judgedByFigure(r, i).values()]
      .map((xs) => xs.filter((x) => x.claim.outcome === 'inconclusive'))
      .filter((xs) => xs.length > 0);
    if (open.length === 0) return;
    const names = { candidate: v.label, baseline: r.variants[ref]?.label ?? '' };
    const parts = open.map((xs) => ({ text: figurePhrase(xs, (c) => deltaText(c.change)), claims: xs.map((x) => x.claim) }));
    out.push(inconclusiveText(v.label, parts, names));
  });
  return out;
}

/** "Fastest write: XFS — ahead of every other format by a real change." With two
 *  rows the sentence above already says it, so only from three rows on. */
export function fastestFindings(r: ComparisonModel, noun: string): string[] {
  // Only rows measured as the baseline was and compared with it race each other.
  const like = new Set(r.variants.map((v, i) => (v.reference === r.baseline ? i : -1)).filter((i) => i >= 0));
  if (like.size < 3) return [];
  const out: string[] = [];
  for (const dir of ['read', 'write'] as const) {
    const cols = r.columns.map((col, j) => ({ col, j })).filter(({ col }) => col.unit === 'MB/s' && direction(col) === dir);
    const wins = new Map<number, ComparisonFigure[]>();
    for (const { col, j } of cols) {
      const present = r.variants
        .map((_, i) => ({ i, cell: r.cells[i]?.[j] }))
        .filter((x): x is { i: number; cell: ComparisonCell } => x.cell !== undefined && like.has(x.i));
      if (present.length < 2) continue;
      const top = present.reduce((a, b) => (b.cell.spread.mean > a.cell.spread.mean ? b : a));
      const ahead = present.every((x) => {
        if (x === top) return true;
        const c = judgeComparison(top.cell.values, x.cell.values, col.direction);
        return c.outcome === 'change' && c.sense === 'better';
      });
      if (ahead) wins.set(top.i, [...(wins.get(top.i) ?? []), col]);
    }
    if (wins.size === 0) continue;
    const whole = wins.size === 1 && [...wins.values()][0]?.length === cols.length;
    const who = [...wins].map(([i, won]) => {
      const label = r.variants[i]?.label ?? '';
      return whole ? label : `${label} at ${listText(won.map((c) => whereText(c) ?? c.figure))}`;
    });
    const alike = like.size < r.variants.length ? ` measured ${CACHE_CLASS_WORDS[r.variants[r.baseline]!.cacheClass]}` : '';
    out.push(`Fastest ${dir}: ${who.join('; ')} — ahead of every other ${noun}${alike} by a real change.`);
  }
  return out;
}

export function direction(col: ComparisonFigure): 'read' | 'write' | undefined {
  if (/\bwrite\b/i.test(col.figure)) return 'write';
  if (/\bread\b/i.test(col.figure) && !/\+/.test(col.figure)) return 'read';
  return undefined;
}

/** What each row lacks of the tests the rows ran between them: "Hub: no Transfer-size sweep".
 *  Tests that differ because the plan had several (a campaign's quick + sweep, on every setup)
 *  are the person's own choice, not a warning; a row that ran fewer (a setup stopped) is. */
export function missingTests(docs: readonly ResultDocument[], groups: readonly VariantGroup[]): string[] {
  const all = [...new Set(docs.map((d) => String(d.kind)))];
  if (all.length < 2) return [];
  const out: string[] = [];
  for (const g of groups) {
    const own = new Set(g.docs.map((d) => String(d.kind)));
    const lacks = all.filter((k) => !own.has(k));
    if (lacks.length > 0) out.push(`${g.label}: no ${lacks.map(kindName).join(', no ')}`);
  }
  return out;
}

export function reportWarnings(docs: readonly ResultDocument[], groups: readonly VariantGroup[]): string[] {
  const out: string[] = [];
  const kinds = [...new Set(docs.map((d) => String(d.kind)))];
  const missing = missingTests(docs, groups);
  if (missing.length > 0) {
    out.push(`Not every row ran the same tests (${missing.join('; ')}): each column compares only the rows that have it.`);
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
  // A many-file set scaled to the disk (Stibium Standard on a small one) says to what, per row.
  for (const g of groups) {
    for (const note of new Set(g.docs.map((d) => d.files?.scaled).filter((n): n is string => typeof n === 'string')))
      out.push(`${g.label}: ${note}`);
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
    const single = runs.has(1) ? ` ${SINGLE_RUN_NOTE}` : '';
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
