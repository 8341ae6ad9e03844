// The encryption verdict on a format report's encrypted rows: each row whose results carry a
// cipher ceiling (the wizard measures it once per plan) gets the verdict, against the baseline
// row when that is unencrypted, else the first unencrypted row.
import type { ResultDocument } from '../result.js';
import type { FormatReport } from '../report/report-types.js';
import { encryptionVerdict, type RowRates } from './encryption-verdict.js';

const encrypted = (docs: readonly ResultDocument[] | undefined): boolean => (docs ?? []).some((d) => d.target?.encrypted === true);

/** The row's best mean read and write MB/s across its columns (every stress size). */
function rowRates(r: FormatReport, row: number): RowRates {
  const out: RowRates = {};
  r.columns.forEach((c, j) => {
    const mean = r.cells[row]?.[j]?.spread.mean;
    if (c.unit !== 'MB/s' || mean === undefined || !Number.isFinite(mean)) return;
    const key = /\bwrite\b/i.test(c.figure) ? 'writeMBps' : /\bread\b/i.test(c.figure) ? 'readMBps' : undefined;
    if (key) out[key] = Math.max(out[key] ?? 0, mean);
  });
  return out;
}

/** Sets `encryption` on each encrypted row with a cipher ceiling and adds the verdict to the findings. */
export function addEncryptionVerdicts(r: FormatReport, rows: ReadonlyArray<{ docs: readonly ResultDocument[] }>): void {
  const plain = !encrypted(rows[r.baseline]?.docs) ? r.baseline : rows.findIndex((g) => !encrypted(g.docs));
  rows.forEach((g, i) => {
    const cipher = g.docs.find((d) => d.target?.encrypted === true && d.cipher)?.cipher;
    const v = r.variants[i];
    if (!cipher || !v) return;
    const verdict = encryptionVerdict(rowRates(r, i), plain >= 0 && plain !== i ? rowRates(r, plain) : undefined, cipher);
    v.encryption = verdict.text;
    r.findings.push(`${v.label}: ${verdict.text}`);
  });
}
