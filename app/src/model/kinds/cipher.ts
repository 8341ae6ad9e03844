// The cipher ceiling: how fast this machine encrypts from memory — AES-256-XTS (the disk mode of
// APFS, BitLocker, fscrypt, LUKS) and AES-256-GCM on one core and on all, and on Linux the
// kernel's own xts(aes) driver. Run by core/cipher-run.ts, not the benchmark runner; here for what
// reports show.
import type { Metric } from '../report/figure-text.js';
import type { ResultDocument } from '../result.js';
import type { KindModule } from './types.js';

export const cipher = {
  id: 'cipher',
  name: 'Cipher ceiling',
  // No screen makes it yet: `diskdial cipher`, and the wizard's encrypted formats carry it.
  cliOnly: true,
  report: {
    titleParts: (doc) =>
      doc.cipher ? [doc.cipher.kernel ? `kernel ${doc.cipher.kernel.aes}` : doc.cipher.provider.split(' (')[0]!] : undefined,
    metrics: (doc) => (doc.cipher ? { metrics: cipherMetrics(doc), only: true } : undefined),
    comparable: (doc, f) => {
      if (!doc.cipher) return false;
      f.set('crypto library', doc.cipher.provider);
      return true;
    },
    writes: false,
  },
} as const satisfies KindModule<'cipher'>;

/** The ceiling's figures: each algorithm on one core (headline) and on all cores, the kernel's. */
export function cipherMetrics(doc: ResultDocument): Metric[] {
  const c = doc.cipher!;
  const m = (measure: string, label: string, value: number, primary: boolean): Metric => ({
    key: `Cipher/${measure}`,
    label,
    group: 'Cipher',
    measure,
    unit: 'MB/s',
    direction: 'higher',
    values: [value],
    primary,
  });
  const out: Metric[] = [];
  if (c.xts) {
    out.push(m('xts', 'AES-256-XTS, 1 core', c.xts.oneCore.mbps, true));
    out.push(m('xtsParallel', `AES-256-XTS, ${c.xts.allCores.threads} cores`, c.xts.allCores.mbps, false));
  }
  if (c.gcm) {
    out.push(m('gcm', 'AES-256-GCM, 1 core', c.gcm.oneCore.mbps, true));
    out.push(m('gcmParallel', `AES-256-GCM, ${c.gcm.allCores.threads} cores`, c.gcm.allCores.mbps, false));
  }
  if (c.kernel?.rate) out.push(m('kernel', `Kernel ${c.kernel.driver}, 1 core`, c.kernel.rate.mbps, true));
  return out;
}
