// The claims audit: every verdict a result or a comparison states (model/verdict/claims.ts),
// checked against the document's own figures by arithmetic written here, apart from the verdict
// modules — an oracle that shares their mistakes would find none. It also renders the result in
// every export format and the share card, which must not throw and must say each stated verdict
// the way its one renderer words it. Used on every fixture (claims-audit.test.ts) and on every
// result any app or e2e test writes (claims-audit-hook.ts).
import { renderExport } from '../../app/src/model/report/export.js';
import type { Comparison } from '../../app/src/model/report/compare.js';
import type { ResultDocument } from '../../app/src/model/result.js';
import type { Claim } from '../../app/src/model/verdict/claim.js';
import { comparisonClaims, resultClaims, type StatedClaim } from '../../app/src/model/verdict/claims.js';
import type { CompareClaim } from '../../app/src/model/verdict/compare.js';
import type { WorkSide } from '../../app/src/model/kinds/video/will-it-work.js';
import { EXPORT_FORMATS } from '../../app/src/model/settings.js';

/** Flags that make figures a cache's or self-contradictory, as docs/trust.md lists
 *  them: any of these, or any flag not marked info, must make the trust verdict warn. */
const UNTRUSTED = new Set([
  'above-interface-ceiling',
  'cache-not-direct',
  'ram-backed',
  'loop-cached',
  'fuse',
  'reads-implausibly-fast',
  'writes-implausibly-fast',
  'mix-above-pure',
  'empty-test',
]);

const near = (a: number, b: number, rel = 1e-9): boolean => Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b), 1e-12);
const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

/** What is wrong with each stated claim of `doc`, in words; [] when every claim holds. */
export function auditResult(doc: ResultDocument, paced: readonly ResultDocument[] = []): string[] {
  const stated = resultClaims(doc, paced);
  const bad: string[] = [];
  const say = (s: StatedClaim, why: string): void => {
    bad.push(`${doc.id} (${doc.kind}) ${s.where}: ${s.claim.outcome} — ${why}`);
  };
  const warn = (doc.flags ?? []).some((f) => f.severity !== 'info' || UNTRUSTED.has(f.code));
  for (const s of stated) {
    const c = s.claim;
    if (typeof c.rule !== 'string' || c.rule.length === 0) say(s, 'states no rule');
    for (const [k, v] of Object.entries(c.figures)) if (typeof v !== 'number') say(s, `figure ${k} is not a number`);
    switch (c.family) {
      case 'trust':
        if (s.where === 'trust' && (c.outcome === 'warn') !== warn) say(s, `the flags say ${warn ? 'warn' : 'ok'}`);
        break;
      case 'will-it-work':
        checkWork(doc, s, c as WorkSide, warn, say);
        break;
      case 'paced': {
        const f = c.figures;
        const failed = (f.dropped ?? 0) > 0 || (f.missing ?? 0) > 0;
        if ((c.outcome === 'fail') !== failed) say(s, `${f.dropped} dropped, ${f.missing} not completed`);
        break;
      }
      case 'bottleneck':
        checkBottleneck(s, c, say);
        break;
      case 'integrity': {
        const k = doc.check?.counts;
        if (!k) break;
        const problems = k.changed + k.missing + k.unreadable + (doc.check?.mode === 'create' ? 0 : k.added);
        if ((c.outcome === 'failed') !== problems > 0) say(s, `counts: ${JSON.stringify(k)}`);
        if (c.outcome === 'intact' && k.unchanged === 0 && problems === 0 && doc.check?.files) say(s, 'nothing was compared');
        break;
      }
      case 'capacity':
        for (const why of capacityContradictions(c)) say(s, why);
        break;
      case 'share':
        for (const why of shareContradictions(c)) say(s, why);
        break;
      default:
        break;
    }
  }
  // If a heavier format works, every lighter one does (per direction, average-decided or paced).
  const rows = stated.filter((s) => s.claim.family === 'will-it-work').map((s) => ({ s, side: s.claim as WorkSide }));
  for (const d of ['write', 'read']) {
    const mine = rows.filter((r) => r.s.where.endsWith(` ${d}`));
    for (const a of mine) {
      if (a.side.outcome !== 'ok') continue;
      for (const b of mine) {
        if (b.side.figures.dataRateMBps! <= a.side.figures.dataRateMBps! && b.side.outcome !== 'ok')
          say(b.s, `lighter than ${a.s.where}, which is ✓`);
      }
    }
  }
  return bad;
}

/** What a verify test's capacity verdict says that its own block counts contradict, in words. */
export function capacityContradictions(c: Claim): string[] {
  const f = c.figures as Record<string, number>;
  const lost = f.zerosBlocks! + f.onesBlocks! + f.staleBlocks!;
  const wrong = f.aliasedBlocks! + lost + f.corruptedBlocks!;
  const out: string[] = [];
  if (f.intactBlocks! + wrong !== f.checkedBlocks)
    out.push(`${f.intactBlocks} intact and ${wrong} wrong are not the ${f.checkedBlocks} read`);
  if ((c.outcome === 'genuine') !== (wrong === 0 && f.checkedBlocks! >= f.plannedBlocks!))
    out.push(`${wrong} blocks wrong, ${f.checkedBlocks} of ${f.plannedBlocks} read`);
  if (c.outcome === 'stopped' && !(wrong === 0 && f.checkedBlocks! < f.plannedBlocks!))
    out.push('stopped, yet every block was read or one was wrong');
  if (wrong > 0 && !(f.firstBadBlock! >= 0 && f.prefixBlocks! <= f.firstBadBlock!))
    out.push(`intact from the start past the first bad block ${f.firstBadBlock}`);
  const at = (block: number): number => f.startBytes! + block * f.blockBytes!;
  if (c.outcome === 'wraps') {
    const partial = f.checkedBlocks! < f.plannedBlocks! && f.wrapBlocks! > 0;
    const size = (partial ? f.wrapBlocks! : f.intactBlocks!) * f.blockBytes!;
    if (!(f.aliasedBlocks! > 0 && lost === 0 && f.corruptedBlocks === 0 && f.capacityBytes === size))
      out.push(
        `wraps with ${f.aliasedBlocks} aliased, ${lost} lost, ${f.corruptedBlocks} corrupted blocks and capacity ${f.capacityBytes} B`,
      );
  }
  if (c.outcome === 'lost' && !(lost > 0 && f.aliasedBlocks === 0 && f.corruptedBlocks === 0 && f.capacityBytes === at(f.firstBadBlock!)))
    out.push(
      `lost beyond ${f.capacityBytes} B with first bad block ${f.firstBadBlock}, ${f.aliasedBlocks} aliased, ${f.corruptedBlocks} corrupted`,
    );
  if (c.outcome === 'errors' && wrong === 0) out.push('errors, yet no block was wrong');
  // Intact from the start: the capacity proven is never more than what read back intact from there.
  if (['genuine', 'stopped', 'errors'].includes(c.outcome) && f.capacityBytes !== at(f.prefixBlocks!))
    out.push(`capacity ${f.capacityBytes} B, yet intact from the start to ${at(f.prefixBlocks!)} B`);
  return out;
}

/** What a share verdict (large transfers or small files) says that its own figures contradict. */
export function shareContradictions(c: Claim): string[] {
  const f = c.figures;
  const out: string[] = [];
  if (f.fileMs !== undefined) {
    // Small files: the round trips (one an operation at least) against the file's time.
    const rt = f.ops! * f.rttMs!;
    if (c.outcome === 'protocol-bound' && !(f.rttMeasured === 1 && rt >= 0.25 * f.fileMs * (1 - 1e-9)))
      out.push(`${f.ops} round trips of ${f.rttMs} ms are under a quarter of ${f.fileMs} ms`);
    if (c.outcome === 'processing-bound' && !(f.rttMeasured === 1 && rt < 0.25 * f.fileMs))
      out.push(`${f.ops} round trips of ${f.rttMs} ms are a quarter of ${f.fileMs} ms or more`);
    if (f.rttMs! > 0 && f.roundTrips! > 0 && !near(f.roundTrips!, f.fileMs / f.rttMs!))
      out.push(`round trips ${f.roundTrips} ≠ ${f.fileMs} / ${f.rttMs}`);
    return out;
  }
  // Large transfers: the ceiling is the first read of the cached file, or both reads' mean; the
  // disk against it.
  const ceiling = f.ceilingMBps!;
  if (ceiling !== f.cacheFirstMBps && !near(ceiling, (f.cacheFirstMBps! + f.cacheMBps!) / 2))
    out.push(`ceiling ${ceiling} is neither the first read of the cached file nor the two reads' mean`);
  if (c.outcome === 'server-bound' && !(f.diskReadMBps! < 0.85 * ceiling)) out.push(`disk ${f.diskReadMBps} is within 15 % of ${ceiling}`);
  if ((c.outcome === 'link-bound' || c.outcome === 'protocol-bound') && !(f.diskReadMBps! >= 0.85 * ceiling * (1 - 1e-9)))
    out.push(`disk ${f.diskReadMBps} is more than 15 % under ${ceiling}`);
  if (c.outcome === 'protocol-bound' && !(f.linkCeilingMBps! > 0 && ceiling < 0.7 * f.linkCeilingMBps!))
    out.push(`ceiling ${ceiling} against a link of ${f.linkCeilingMBps}`);
  if (c.outcome === 'link-bound' && f.linkCeilingMBps! > 0 && !(ceiling >= 0.7 * f.linkCeilingMBps! * (1 - 1e-9)))
    out.push(`ceiling ${ceiling} is under 70 % of the link's ${f.linkCeilingMBps}`);
  return out;
}

function checkWork(doc: ResultDocument, s: StatedClaim, c: WorkSide, warn: boolean, say: (s: StatedClaim, why: string) => void): void {
  const d = s.where.endsWith(' write') ? 'write' : 'read';
  const runs = doc.tests.filter((t) => t.rw === d && Number.isFinite(t.mbps) && t.mbps > 0).map((t) => t.mbps);
  const measured = c.figures.measuredMBps!;
  // One aggregate: the mean of the runs, never the last or the best.
  if (!near(measured, mean(runs))) say(s, `measured ${measured} is not the mean of the runs (${mean(runs)})`);
  if (warn && c.outcome === 'ok') say(s, 'a ✓ under warning flags');
  if (c.decidedBy === 'average' && !warn) {
    const fits = measured >= c.figures.needsMBps! * (1 - 1e-9);
    if ((c.outcome === 'ok') !== fits) say(s, `measured ${measured} against needs ${c.figures.needsMBps}`);
  }
}

function checkBottleneck(s: StatedClaim, c: Claim, say: (s: StatedClaim, why: string) => void): void {
  if (c.outcome === 'none') return;
  const m = c.figures.measuredMBps;
  const ceiling = c.figures[`${c.outcome}MBps`];
  if (m === undefined || ceiling === undefined) return say(s, 'names a limit without its figures');
  // A named bottleneck's ceiling is within 15 % of the measured rate.
  if (Math.abs(ceiling - m) > 0.15 * m * (1 + 1e-9)) say(s, `ceiling ${ceiling} is not within 15 % of ${m}`);
}

/** What is wrong with each judged cell of a comparison, recomputed from the cell's runs. */
export function auditComparison(c: Comparison): string[] {
  const bad: string[] = [];
  for (const s of comparisonClaims(c)) {
    const k = s.claim as CompareClaim;
    const row = c.rows.find((r) => r.key === s.cell?.row);
    const cell = row?.cells[s.cell?.column ?? -1];
    if (!row || !cell) continue;
    const ref = row.cells.find((x) => x?.verdict === 'baseline') ?? row.cells[c.baseline];
    const say = (why: string): void => {
      bad.push(`${s.where}: ${k.outcome} ${k.sense ?? ''} — ${why}`);
    };
    const x = cell.values.filter((v) => Number.isFinite(v) && v > 0);
    const y = (ref?.values ?? []).filter((v) => Number.isFinite(v) && v > 0);
    if (x.length === 0 || y.length === 0) continue;
    const ratio = Math.exp(mean(x.map(Math.log)) - mean(y.map(Math.log)));
    // The change is the ratio of geometric means.
    if (!near(k.change, ratio - 1, 1e-6)) say(`change ${k.change} but the runs' ratio is ${ratio}`);
    // A change of 2× or more is never "no difference".
    if (k.outcome === 'same' && (ratio >= 2 || ratio <= 0.5)) say(`the runs differ ${ratio.toFixed(2)}×`);
    if (k.outcome === 'same' && !(k.low! >= -0.05 - 1e-9 && k.high! <= 0.05 + 1e-9)) say(`interval ${k.low}..${k.high} is not within ±5 %`);
    if (k.outcome === 'change') {
      if (!(k.low! > 0 || k.high! < 0)) say(`interval ${k.low}..${k.high} includes no change`);
      const up = ratio > 1;
      const dir = row.direction;
      const expected = dir === 'none' ? (up ? 'higher' : 'lower') : up === (dir === 'higher') ? 'better' : 'worse';
      if (k.sense !== expected) say(`the runs say ${expected}`);
    }
  }
  return bad;
}

/** Renders `doc` in every export format; returns what failed or left a stated verdict unsaid. */
export function auditRenders(doc: ResultDocument): string[] {
  const bad: string[] = [];
  for (const format of EXPORT_FORMATS) {
    try {
      const text = renderExport([doc], format).text;
      if (text.length === 0) bad.push(`${doc.id} ${format}: empty`);
    } catch (err) {
      bad.push(`${doc.id} ${format}: ${(err as Error).message}`);
    }
  }
  return bad;
}
