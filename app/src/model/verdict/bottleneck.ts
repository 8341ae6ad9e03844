// The bottleneck verdict: which known ceiling — the disk (its measured read), the interface or
// network link, the cipher, hashing on the CPU — held a measured rate back. Data first (the
// outcome, the ceilings it was decided from, the rule), words second, from bottleneckText only:
// the Hash test, the folder check and the encryption verdicts of run, report and wizard ask here.
// Browser-safe: imports only the model.
import type { CipherSection } from '../cipher/types.js';
import type { LinkInfo } from '../link-types.js';
import { formatMBpsFigure } from '../units.js';
import { z } from 'zod';
import type { Claim } from './claim.js';

/** What can hold a rate back. */
export type Limit = 'disk' | 'link' | 'cipher' | 'hash-cpu';
export type BottleneckOutcome = Limit | 'none';

/** One known ceiling: a rate the measured one cannot exceed for this reason. */
export interface Ceiling {
  limit: Limit;
  mbps: number;
  /** What the figure is, in words: "reading alone", "SHA-256 in memory on one core". */
  what: string;
  /** Limits this figure already contains: reading an encrypted file is the disk, its link and the
   *  cipher together, so when the cipher's own ceiling explains the rate the cipher is named. */
  includes?: readonly Limit[];
  /** It contains a limit that has no ceiling of its own here (an encrypted read whose cipher could
   *  not be measured): shown, never named. */
  opaque?: boolean;
}

export interface Bottleneck extends Claim<'bottleneck', BottleneckOutcome> {
  measured: { mbps: number; what: string };
  /** Every usable ceiling, lowest first. */
  ceilings: Ceiling[];
  /** The ceiling named (outcome ≠ none). */
  limit?: Ceiling;
  /** The ceilings within the tolerance of the measured rate that no other one explains. */
  near: Ceiling[];
  /** Figures within the tolerance that gave way: to the limits they contain whose ceilings are
   *  near them (`to`), or to one with no ceiling here (opaque: `to` is empty). */
  gaveWay: Array<{ ceiling: Ceiling; to: Ceiling[] }>;
}

/** A named ceiling lies within this share of the measured rate. */
export const BOTTLENECK_TOLERANCE = 0.15;

export const BOTTLENECK_RULE =
  'The limit named is the one known ceiling (disk read, interface or network link, cipher, hashing on the CPU) within 15 % of the measured rate; a figure that contains another limit (reading an encrypted file contains the cipher) is named only when the ceiling of that limit is not within 30 % of it. Two such ceilings, or none: no single limit. A limit has room to spare when its ceiling is more than 15 % above the measured rate and no figure within 15 % of the rate gave way to it.';

const usable = (c: Ceiling): boolean => Number.isFinite(c.mbps) && c.mbps > 0;

/** The one edge: a ceiling is near a rate when they differ by at most 15 % of the rate. Naming a
 *  limit and calling one "room to spare" (roomToSpare) both ask here. */
export const isNear = (ceiling: number, of: number, tolerance = BOTTLENECK_TOLERANCE): boolean => Math.abs(ceiling - of) <= tolerance * of;

/** The verdict from every known ceiling. A ceiling is near when |ceiling − measured| ≤ 15 % of
 *  the measured rate; one near ceiling (after composites give way) is the limit. */
export function bottleneck(measured: { mbps: number; what: string }, ceilings: readonly Ceiling[]): Bottleneck {
  const all = ceilings.filter(usable).sort((a, b) => a.mbps - b.mbps);
  const m = measured.mbps;
  const within = Number.isFinite(m) && m > 0 ? all.filter((c) => isNear(c.mbps, m)) : [];
  // A figure that contains another limit (reading an encrypted file: the disk and the cipher) is
  // that limit's when the limit's ceiling is near it too: it is named only when every part it
  // contains that has a ceiling is clearly faster (more than twice the tolerance above it).
  const explainedBy = (c: Ceiling): Ceiling[] =>
    all.filter(
      (o) =>
        o !== c &&
        o.limit !== c.limit &&
        c.includes?.includes(o.limit) === true &&
        (within.includes(o) || isNear(o.mbps, c.mbps, 2 * BOTTLENECK_TOLERANCE)),
    );
  const gaveWay: Bottleneck['gaveWay'] = [];
  const near = within.filter((c) => {
    const to = c.opaque === true ? [] : explainedBy(c);
    if (c.opaque !== true && to.length === 0) return true;
    gaveWay.push({ ceiling: c, to });
    return false;
  });
  const limit = near.length === 1 ? near[0] : undefined;
  const figures: Record<string, number> = { measuredMBps: m };
  for (const c of all) figures[`${c.limit}MBps`] = c.mbps;
  return {
    family: 'bottleneck',
    outcome: limit ? limit.limit : 'none',
    figures,
    rule: BOTTLENECK_RULE,
    measured: { ...measured },
    ceilings: all,
    near,
    gaveWay,
    ...(limit ? { limit } : {}),
  };
}

/** A limit's ceiling has room to spare: above the measured rate and not near it (the edge naming
 *  uses), and no figure near the measured rate gave way to it. Otherwise it is named, shares the
 *  verdict, or is below the rate: never both "room to spare" and a part of the verdict. */
export function roomToSpare(b: Bottleneck, limit: Limit): boolean {
  const c = b.ceilings.find((x) => x.limit === limit);
  const m = b.measured.mbps;
  return c !== undefined && c.mbps > m && !isNear(c.mbps, m) && !b.gaveWay.some((g) => g.to.includes(c));
}

/** The outcome with "none" split: balanced when two ceilings are near, none when no ceiling is. */
export function boundOf(b: Bottleneck): Limit | 'balanced' | 'none' {
  return b.outcome !== 'none' ? b.outcome : b.near.length > 1 ? 'balanced' : 'none';
}

export const LIMIT_LABEL: Record<BottleneckOutcome, string> = {
  disk: 'Storage-bound',
  link: 'Link-bound',
  cipher: 'Encryption-bound',
  'hash-cpu': 'CPU-bound',
  none: 'No single limit',
};

const mb = (x: number): string => `${formatMBpsFigure(x)} MB/s`;
const times = (x: number): string => (x >= 10 ? x.toFixed(0) : x.toFixed(1));

/** The verdict in words, the same on every surface:
 *  "Storage-bound: read + hash at 470 MB/s is within 2 % of reading alone (480 MB/s); SHA-512 in memory on one core 1,900 MB/s (4.0×)." */
export function bottleneckText(b: Bottleneck): string {
  const m = b.measured;
  const head = `${m.what} at ${mb(m.mbps)}`;
  const other = (c: Ceiling): string => `${c.what} ${mb(c.mbps)}${m.mbps > 0 ? ` (${times(c.mbps / m.mbps)}×)` : ''}`;
  if (b.limit) {
    const c = b.limit;
    const pct = Math.round((Math.abs(c.mbps - m.mbps) / m.mbps) * 100);
    const rest = b.ceilings.filter((x) => x !== c).map(other);
    return `${LIMIT_LABEL[c.limit]}: ${head} is within ${pct} % of ${c.what} (${mb(c.mbps)})${rest.length ? `; ${rest.join(', ')}` : ''}.`;
  }
  if (b.near.length > 1) {
    const names = b.near.map((c) => `${c.what} (${mb(c.mbps)})`);
    return `${LIMIT_LABEL.none}: ${head} is within 15 % of both ${names.slice(0, -1).join(', ')} and ${names.at(-1)!}.`;
  }
  if (b.ceilings.length === 0) return `${LIMIT_LABEL.none}: ${head}, and no ceiling was measured to compare it with.`;
  // Near a figure that contains another limit: say so, rather than "not within 15 % of any".
  const gave = b.gaveWay[0];
  if (gave && b.near.length === 0) {
    const c = gave.ceiling;
    const rest = b.ceilings.filter((x) => x !== c && !gave.to.includes(x)).map(other);
    const parts = gave.to.map((x) => `${x.what} (${mb(x.mbps)})`).join(' and ');
    const why =
      gave.to.length > 0
        ? `which contains ${parts}, within 30 % of it: ${gave.to.length > 1 ? 'any' : 'either'} may be what holds it back`
        : 'which contains a limit that has no ceiling of its own here';
    return `${LIMIT_LABEL.none}: ${head} is within 15 % of ${c.what} (${mb(c.mbps)}), ${why}${rest.length ? `; ${rest.join(', ')}` : ''}.`;
  }
  return `${LIMIT_LABEL.none}: ${head} is not within 15 % of any known ceiling — ${b.ceilings.map(other).join(', ')}.`;
}

/** The cipher's ceiling from a cipher section: the kernel's own rate where it was measured (AF_ALG,
 *  cryptsetup) or observed while the test read; else the library's AES-XTS on one core — except
 *  for a kernel known to encrypt in software, which cannot reach the library's rate. */
export function cipherCeiling(cipher: CipherSection | undefined): Ceiling | undefined {
  if (!cipher) return undefined;
  const k = cipher.kernel;
  const how = k ? `${k.meaning} (${k.aes})` : '';
  if (k?.observed && k.observed.mbps > 0)
    return { limit: 'cipher', mbps: k.observed.mbps, what: `the kernel's decryption, ${how}, on the CPU it had while reading` };
  if (k?.rate && k.rate.mbps > 0) return { limit: 'cipher', mbps: k.rate.mbps, what: `the kernel's AES-XTS on one core, ${how}` };
  const lib = cipher.xts?.oneCore.mbps;
  if (k?.accelerated === false || lib === undefined || !(lib > 0)) return undefined;
  return { limit: 'cipher', mbps: lib, what: `${cipher.provider.split(' (')[0]} AES-256-XTS on one core${k ? `, ${how}` : ''}` };
}

/** What else is known of a target: its link's ceiling, and on an encrypted one the cipher's. */
export interface TargetAbout {
  link?: Pick<LinkInfo, 'label' | 'ceilingMBps'>;
  encrypted?: boolean;
  cipher?: CipherSection;
}

/** What a result's target says of its ceilings, with the cipher section measured for it. */
export function aboutTarget(
  target: { encrypted?: boolean; device: { linkInfo?: Pick<LinkInfo, 'label' | 'ceilingMBps'> } },
  cipher: CipherSection | undefined,
): TargetAbout {
  return {
    ...(target.device.linkInfo ? { link: target.device.linkInfo } : {}),
    encrypted: target.encrypted === true,
    ...(cipher ? { cipher } : {}),
  };
}

/** The ceilings a read from this target meets besides its own figures: the link, and the cipher
 *  when it is encrypted. */
export function targetCeilings(about: TargetAbout): Ceiling[] {
  const out: Ceiling[] = [];
  const link = about.link?.ceilingMBps;
  if (link !== undefined && link > 0) out.push({ limit: 'link', mbps: link, what: `the ${about.link!.label} link's ceiling` });
  const cipher = about.encrypted ? cipherCeiling(about.cipher) : undefined;
  if (cipher) out.push(cipher);
  return out;
}

/** The claim a result stores beside the words (its ceilings are in the figures, by limit). */
export type BottleneckClaim = Claim<'bottleneck', BottleneckOutcome>;

export const BottleneckClaimSchema = z.object({
  family: z.literal('bottleneck'),
  outcome: z.enum(['disk', 'link', 'cipher', 'hash-cpu', 'none']),
  figures: z.record(z.string(), z.number()),
  rule: z.string(),
});

/** The stored part of a verdict: its claim, without the words. */
export const claimOf = (b: Bottleneck): BottleneckClaim => ({ family: b.family, outcome: b.outcome, figures: b.figures, rule: b.rule });
