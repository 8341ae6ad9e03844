// Every verdict one result (or one comparison) states, as data, each with where it is said: what
// the claims audit (test/helpers/claims-audit.ts) checks against the document's own figures, for
// every fixture and every document the tests produce. Nothing here decides anything: it asks each
// verdict's one module. Browser-safe: no node:* imports.
import { checkVerdict } from '../check.js';
import type { Comparison } from '../report/compare.js';
import type { ResultDocument } from '../result.js';
import { busyVerdict } from './busy.js';
import type { Claim } from './claim.js';
import { trustOf } from './trust.js';
import { willItWork } from '../kinds/video/will-it-work.js';
import { RESULT_KINDS } from '../kinds/registry.js';

export interface StatedClaim {
  /** Where it is said: "trust", "will-it-work prores-hq/uhd write", "compare SEQ1M Q8T1 Read · B". */
  where: string;
  claim: Claim;
  /** A comparison cell's row key and column index. */
  cell?: { row: string; column: number };
}

/** The verdicts a result states on every surface: trust, a busy machine, Will it work? (for a
 *  Quick Test, with the paced results given), each paced phase, the hash and check bottlenecks
 *  and the check's integrity. */
export function resultClaims(doc: ResultDocument, paced: readonly ResultDocument[] = []): StatedClaim[] {
  const out: StatedClaim[] = [{ where: 'trust', claim: trustOf(doc.flags) }];
  const busy = busyVerdict(doc.context?.machine);
  if (busy) out.push({ where: 'busy machine', claim: busy });
  const work = willItWork(doc, {}, paced);
  for (const r of work?.rows ?? []) {
    for (const d of ['write', 'read'] as const) out.push({ where: `will-it-work ${r.formatId}/${r.resolutionId} ${d}`, claim: r[d] });
  }
  for (const k of RESULT_KINDS) out.push(...(k.report?.claims?.(doc) ?? []));
  const hashClaim = doc.hash?.verdict?.claim;
  if (hashClaim) out.push({ where: 'hash bottleneck', claim: hashClaim });
  const check = doc.check;
  if (check) {
    out.push({ where: 'check integrity', claim: checkVerdict(check) });
    if (check.bound?.claim) out.push({ where: 'check bottleneck', claim: check.bound.claim });
  }
  return out;
}

/** Every judged cell of a comparison: its claim against the reference's cell. */
export function comparisonClaims(c: Comparison): StatedClaim[] {
  const out: StatedClaim[] = [];
  for (const row of c.rows) {
    row.cells.forEach((cell, i) => {
      if (cell?.claim)
        out.push({ where: `compare ${row.label} · ${c.columns[i]?.name ?? i}`, claim: cell.claim, cell: { row: row.key, column: i } });
    });
  }
  return out;
}
