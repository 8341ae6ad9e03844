// The encryption verdict on a format report's encrypted rows: each row whose results carry a
// cipher ceiling (the wizard measures it once per plan) gets one, by one rule (docs/cipher.md):
// results that carry a verdict of their own are restated, never judged again. A kind's own
// bottleneck (the Hash test's, the folder check's) is its function on the row's mean figures; a
// run on an encrypted folder (its encrypted-target flag) is its best read or write against the
// cipher. Only results that carry none (the wizard's runs) are judged here, against the cipher and
// an unencrypted row measured the same way (never across cache modes).
import type { ResultDocument } from '../result.js';
import type { ComparisonModel } from '../report/comparison.js';
import { kindOf } from '../kinds/registry.js';
import type { CipherSection } from './types.js';
import { encryptionVerdict, encryptionView, runRates, type EncryptionVerdict, type RowRates } from './encryption-verdict.js';

const encrypted = (docs: readonly ResultDocument[] | undefined): boolean => (docs ?? []).some((d) => d.target?.encrypted === true);

/** The row's best mean read and write MB/s across its columns (every stress size). */
function rowRates(r: ComparisonModel, row: number): RowRates {
  const out: RowRates = {};
  r.columns.forEach((c, j) => {
    const mean = r.cells[row]?.[j]?.spread.mean;
    if (c.unit !== 'MB/s' || mean === undefined || !Number.isFinite(mean)) return;
    const key = /\bwrite\b/i.test(c.figure) ? 'writeMBps' : /\bread\b/i.test(c.figure) ? 'readMBps' : undefined;
    if (key) out[key] = Math.max(out[key] ?? 0, mean);
  });
  return out;
}

/** The unencrypted row an encrypted row may be set against: measured the same way (like for like:
 *  its reference row, else the baseline or the first unencrypted row of its cache class), or none. */
function plainRow(r: ComparisonModel, rows: ReadonlyArray<{ docs: readonly ResultDocument[] }>, i: number): number | undefined {
  const v = r.variants[i]!;
  const ok = (j: number | undefined): j is number =>
    j !== undefined && j >= 0 && j !== i && !encrypted(rows[j]?.docs) && r.variants[j]?.cacheClass === v.cacheClass;
  if (ok(v.reference)) return v.reference;
  if (ok(r.baseline)) return r.baseline;
  const any = rows.findIndex((_, j) => ok(j));
  return any >= 0 ? any : undefined;
}

/** The verdict the row's results carry, restated from its figures: their kind's own bottleneck,
 *  else a run's encrypted-target verdict; undefined when they carry none. */
function ownVerdict(docs: readonly ResultDocument[], cipher: CipherSection): EncryptionVerdict | undefined {
  const kinds = [...new Set(docs.map((d) => String(d.kind)))];
  const b = kinds.length === 1 ? kindOf(kinds[0]!)?.report?.bottleneck?.(docs) : undefined;
  if (b) return encryptionView(b, cipher);
  const flagged = docs.some((d) => d.flags?.some((f) => f.code === 'encrypted-target'));
  return flagged ? encryptionVerdict(runRates(docs), undefined, cipher) : undefined;
}

/** Sets `encryption` on each encrypted row with a cipher ceiling and adds the verdict to the findings. */
export function addEncryptionVerdicts(r: ComparisonModel, rows: ReadonlyArray<{ docs: readonly ResultDocument[] }>): void {
  rows.forEach((g, i) => {
    const cipher = g.docs.find((d) => d.target?.encrypted === true && d.cipher)?.cipher;
    const v = r.variants[i];
    if (!cipher || !v) return;
    const plain = plainRow(r, rows, i);
    const verdict =
      ownVerdict(g.docs, cipher) ?? encryptionVerdict(rowRates(r, i), plain !== undefined ? rowRates(r, plain) : undefined, cipher);
    v.encryption = verdict.text;
    r.findings.push(`${v.label}: ${verdict.text}`);
  });
}
