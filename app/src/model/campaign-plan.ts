// A campaign's plan before and while it runs: the `--plan` text with each test's own options
// ("quick:size=1GB,cdm:preset=nvme,files"), every test's plan built up front so all
// problems are listed at once before the first setup, and how long it takes (the sum of its
// tests' estimates, eta.ts's rates) and has left. The CLI and the app's service share it.
// Browser-safe: no node:* imports.
import { planRunSeconds, PLAN_RATES, type PlanRates } from './eta.js';
import { isTestKind, runKind, type TestKind } from './kinds/registry.js';
import type { PlanOptions, PlanTarget } from './kinds/plan.js';
import { buildPlan, isSized } from './presets.js';

/** One test of a plan as typed: its kind and its own `diskdial run` options (["--size", "1GB"]). */
export interface PlannedTest {
  kind: string;
  args: string[];
}

/** Does the kind run at a chosen size? Not those that size themselves to the free space, nor
 *  those that refuse --size: a campaign's size goes to the others. */
export function kindTakesSize(kind: TestKind): boolean {
  return !runKind(kind).sized && !runKind(kind).cli?.refuse?.size;
}

/** How the plan's text is written, for `--help` and errors. */
export const PLAN_SYNTAX =
  'tests separated by commas, each with its own options after colons (quick:size=1GB:runs=5); ' +
  'a backslash keeps a comma, colon, equals sign or backslash in a value (label=a\\,b)';

/** Splits on `sep` where it is not escaped by a backslash; escapes stay for the next split. */
function splitEscaped(text: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      cur += ch + text[++i]!;
      continue;
    }
    if (ch === sep) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

const unescape = (s: string): string => s.replace(/\\(.)/g, '$1');

/** "quick:size=1GB,cdm:preset=nvme,files" → each test with its options as run arguments.
 *  Problems are thrown in words (the caller wraps them as usage errors). */
export function parsePlanText(text: string): PlannedTest[] {
  const tests: PlannedTest[] = [];
  for (const part of splitEscaped(text, ',')) {
    if (part.trim() === '') continue;
    const [head, ...opts] = splitEscaped(part, ':');
    const kind = unescape(head!).trim();
    if (kind === '') throw new Error(`"${part.trim()}" names options but no test; write the test first (quick:size=1GB)`);
    const args: string[] = [];
    for (const opt of opts) {
      const [name, ...value] = splitEscaped(opt, '=');
      const flag = unescape(name!).trim().replace(/^-+/, '');
      if (flag === '') throw new Error(`${kind}'s option "${unescape(opt)}" has no name; write it as name=value (size=1GB)`);
      args.push(`--${flag}`);
      // A value may hold '=' itself (joined back); an escaped one reads as the character.
      if (value.length > 0) args.push(unescape(value.join('=')));
    }
    tests.push({ kind, args });
  }
  if (tests.length === 0) throw new Error('--plan names the tests each setup runs, e.g. --plan quick,sweep');
  const kinds = tests.map((t) => t.kind);
  const twice = kinds.find((k, i) => kinds.indexOf(k) !== i);
  if (twice) throw new Error(`--plan names ${twice} twice; name each test once and give it all its options`);
  return tests;
}

/** The plan as `--plan` takes it back: "quick:size=1GB,cdm" (values escaped as parsePlanText reads them). */
export function planText(kinds: readonly string[], testArgs: Readonly<Record<string, readonly string[]>> = {}): string {
  const esc = (v: string): string => v.replace(/[\\,:=]/g, (c) => `\\${c}`);
  return kinds
    .map((kind) => {
      const parts = [esc(kind)];
      const args = testArgs[kind] ?? [];
      for (let i = 0; i < args.length; i++) {
        const flag = esc(args[i]!.replace(/^-+/, ''));
        const value = args[i + 1];
        if (value !== undefined && !value.startsWith('--')) {
          parts.push(`${flag}=${esc(value)}`);
          i++;
        } else parts.push(flag);
      }
      return parts.join(':');
    })
    .join(',');
}

/** A free-space figure large enough that no sized test shrinks: options are checked as the
 *  runner checks them before it reads the disk. */
const UNSIZED: PlanTarget = { freeBytes: Number.MAX_SAFE_INTEGER, totalBytes: 0 };

/** Every test's plan built with its options: one line per problem, named by its test as the plan
 *  names it, so a
 *  campaign refuses before its first setup and says everything that is wrong at once. */
export function planProblems(tests: ReadonlyArray<{ kind: string; options: PlanOptions }>): string[] {
  const out: string[] = [];
  for (const t of tests) {
    if (!isTestKind(t.kind)) {
      out.push(`${t.kind}: no such test`);
      continue;
    }
    try {
      buildPlan(t.kind, t.options, isSized(t.kind) ? UNSIZED : undefined);
    } catch (err) {
      out.push(`${t.kind}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return out;
}

export interface EstimatedTest {
  kind: TestKind;
  options: PlanOptions;
  runs: number;
  /** Seconds of rest between runs (--rest). */
  restSeconds?: number;
}

/** Seconds each test of a setup takes at `rates` (its runs and the rests between them), in plan
 *  order; undefined for a test that sizes itself when the free space is not known. */
export function testSeconds(
  tests: readonly EstimatedTest[],
  target: PlanTarget | undefined,
  rates: PlanRates = PLAN_RATES,
): Array<number | undefined> {
  return tests.map((t) => {
    if (isSized(t.kind) && !target) return undefined;
    try {
      const plan = buildPlan(t.kind, t.options, isSized(t.kind) ? target : undefined);
      return planRunSeconds(plan, rates) * t.runs + (t.restSeconds ?? 0) * Math.max(0, t.runs - 1);
    } catch {
      return undefined;
    }
  });
}

/** Seconds of testing from step `from` on (steps: setup by setup, the plan's tests in order; each
 *  step's estimate is its test's), scaled by how the finished steps of this session compared with
 *  their estimates (`measured`: [actual, estimated] seconds summed), and less the part of step
 *  `from` already done. Undefined when any test could not be estimated. */
export function campaignSecondsLeft(
  perTest: ReadonlyArray<number | undefined>,
  steps: number,
  from: number,
  o: { fractionOfFirst?: number; measured?: { actual: number; estimated: number } } = {},
): number | undefined {
  if (perTest.length === 0 || perTest.some((s) => s === undefined)) return undefined;
  const est = (i: number): number => perTest[i % perTest.length]!;
  let left = 0;
  for (let i = from; i < steps; i++) left += est(i) * (i === from ? 1 - Math.min(1, Math.max(0, o.fractionOfFirst ?? 0)) : 1);
  const m = o.measured;
  // Each finished step says how this disk compares with the stated rates; one at a time is noisy,
  // so the sums are used.
  const scale = m && m.estimated > 0 && m.actual > 0 ? m.actual / m.estimated : 1;
  return left * scale;
}

/** "about 12 min" (at least a minute; the rates are a guess, not a promise). */
export function durationText(seconds: number): string {
  const min = Math.max(1, Math.round(seconds / 60));
  return min < 60 ? `about ${min} min` : `about ${Math.floor(min / 60)} h ${min % 60} min`;
}

/** What a campaign says before it starts: "6 tests (3 on each of 2 setups): about 12 min of
 *  testing at 500 MB/s, plus the time you take to change setups." */
export function campaignEstimateText(seconds: number | undefined, steps: number, setups: number, rates: PlanRates = PLAN_RATES): string {
  const per = steps / Math.max(1, setups);
  const head = `${steps} test${steps === 1 ? '' : 's'} (${per} on each of ${setups} setups)`;
  if (seconds === undefined) return `${head}; its length is not known until the free space is read.`;
  return `${head}: ${durationText(seconds)} of testing at ${rates.writeMBps} MB/s, plus the time you take to change setups.`;
}
