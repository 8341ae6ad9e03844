// The cipher ceiling as the CLI prints it: one line per algorithm, one core and all cores, then
// the kernel's driver and what it means.
import { formatMBpsFigure } from '../units.js';
import type { CipherPair, CipherSection } from './types.js';

const mb = (x: number): string => `${formatMBpsFigure(x)} MB/s`;

export function cipherText(c: CipherSection): string {
  const lines = [`Cipher ceiling — ${c.provider}, ${c.blockBytes / 1024} KiB blocks, XTS tweak every ${c.dataUnit} B (as fscrypt)`, ''];
  const row = (name: string, p: CipherPair | undefined, note: string | undefined): void => {
    if (p)
      lines.push(
        `  ${name.padEnd(13)} ${mb(p.oneCore.mbps).padStart(12)} on 1 core   ${mb(p.allCores.mbps).padStart(12)} on ${p.allCores.threads} cores`,
      );
    else lines.push(`  ${name.padEnd(13)} not measured: ${note ?? 'unsupported here'}`);
  };
  row('AES-256-XTS', c.xts, c.xtsNote);
  row('AES-256-GCM', c.gcm, c.gcmNote);
  const k = c.kernel;
  if (k) {
    lines.push('', `  Kernel ${k.name}: ${k.driver} (priority ${k.priority}) — ${k.aes}: ${k.meaning}`);
    if (k.rate)
      lines.push(
        `  Kernel rate:  ${mb(k.rate.mbps)} on 1 core (${k.rate.source === 'af_alg' ? 'AF_ALG, 4096-byte units' : 'cryptsetup benchmark'})`,
      );
    else if (k.rateNote) lines.push(`  Kernel rate:  not measured: ${k.rateNote}`);
  }
  return lines.join('\n') + '\n';
}
