// What limits a network share: the link, the server's disk or the protocol. Two verdicts, data
// first (outcome, figures, rule) and words second, from shareText and smallFileText only:
// - large transfers: a file the server holds in memory read twice (the link-and-protocol ceiling)
//   against a cold read of a file too large for the server's cache (its disk), and both against
//   the interface's own ceiling when the OS gave one;
// - small files: a file's open, stat, read and close against the round trip to the server.
// The share kind measures (its folder under kinds/); docs/network.md explains the method and its limits.
// Browser-safe: imports only the model.
import { formatMBpsFigure } from '../units.js';
import { REREAD_RATIO } from '../network.js';
import type { Claim } from './claim.js';

export type ShareOutcome = 'link-bound' | 'server-bound' | 'protocol-bound' | 'could-not-separate';
export type SmallFileOutcome = 'protocol-bound' | 'processing-bound' | 'could-not-separate';

/** What the large-transfer verdict is decided from, MB/s (0: not measured). */
export type ShareFigures = {
  /** The cached file's first and second read (the second is the ceiling, unless this computer's
   *  own cache answered it: then the first is). */
  cacheFirstMBps: number;
  cacheMBps: number;
  /** The ceiling judged by: the mean of the two reads, or the first when the second came from
   *  this computer's cache (more than REREAD_RATIO × the first). */
  ceilingMBps: number;
  /** The large file written (flushed to the server) and read back cold. */
  diskWriteMBps: number;
  diskReadMBps: number;
  /** The interface's payload ceiling (Wi-Fi: the top of its range); 0: none known. */
  linkCeilingMBps: number;
  /** The interface's rate as the OS gives it, Mb/s (Wi-Fi: the PHY rate); 0: none. */
  linkMbps: number;
};

export type ShareVerdict = Claim<'share', ShareOutcome> & {
  figures: ShareFigures;
  /** could-not-separate: why, in words. */
  reason?: string;
  /** The interface's kind, for the words ("1 Gbit/s link", "Wi-Fi"). */
  link?: { name: string; wireless: boolean };
};

export type SmallFileFigures = {
  /** One small file's open + stat + read (4 KiB) + close, the median of each, ms. */
  fileMs: number;
  /** How many operations that is (each needs one round trip at least). */
  ops: number;
  /** The round trip to the server (the fastest TCP connect, less a local connect's time), ms; 0: too
   *  short to time here. */
  rttMs: number;
  /** 1 when the round trip was measured, 0 when the server's port did not answer. */
  rttMeasured: number;
  /** fileMs / rttMs (0 without a round trip). */
  roundTrips: number;
};

export type SmallFileVerdict = Claim<'share', SmallFileOutcome> & { figures: SmallFileFigures; reason?: string };

/** A figure is "as fast as" another when within this share of it. */
export const SHARE_TOLERANCE = 0.15;
/** The cached read carries this share of a known link ceiling or more: the link is the limit. */
export const LINK_SHARE = 0.7;
/** One round trip an operation is at least this share of a small file's time: the round trip is
 *  the limit. A quarter, not a half: chatty clients take several a stat or an open (SMB through
 *  smbnetfs 4–6 at a 10 ms round trip), so the share known for certain is the least of it. */
export const ROUND_TRIP_SHARE = 0.25;

export const SHARE_RULE =
  "The ceiling is the mean of two reads of a file the server has just written and holds in its memory (the first alone, when the second ran more than 4 × faster: this computer's own cache answered it); the disk is a cold read of a file larger than the server can cache. Disk more than 15 % below the ceiling: server-bound. Otherwise the disk is not the limit: with a known link ceiling, link-bound when the ceiling is 70 % of it or more, protocol-bound below; without one (a virtual link, loopback) the link and protocol together are the limit, inferred. Could not separate: the two reads, each taken alone, give different outcomes; the disk read runs more than 15 % faster than the ceiling; or a figure is missing.";

export const SMALL_FILE_RULE =
  "A small file's open, stat, read (4 KiB) and close each need at least one round trip to the server (the fastest TCP connect to its port); when those four round trips make up a quarter of the file's time or more, the round trip is the limit (protocol-bound: chatty clients take several an operation), otherwise the processing at either end is.";

/** The large-transfer verdict from its figures. */
export function shareVerdict(m: Omit<ShareFigures, 'ceilingMBps'>, link?: ShareVerdict['link']): ShareVerdict {
  // A second read many times the first came from this computer's cache (a share client that
  // keeps what it read, whatever DiskDial asks): the first, just after the write, is the ceiling.
  const clientCached = m.cacheMBps > REREAD_RATIO * m.cacheFirstMBps;
  // Two reads of one file a second apart: their mean halves what a busy machine does to one.
  const f: ShareFigures = { ...m, ceilingMBps: clientCached ? m.cacheFirstMBps : (m.cacheFirstMBps + m.cacheMBps) / 2 };
  const base = { family: 'share' as const, figures: f, rule: SHARE_RULE, ...(link ? { link } : {}) };
  const none = (reason: string): ShareVerdict => ({ ...base, outcome: 'could-not-separate', reason });
  const ok = (x: number): boolean => Number.isFinite(x) && x > 0;
  if (!ok(f.cacheFirstMBps) || !ok(f.cacheMBps) || !ok(f.diskReadMBps)) return none('a read was not measured');
  // The outcome each read of the cached file would give alone: a busy machine moves one read by
  // 15–25 %, which matters only where the two then disagree.
  const decide = (c: number): ShareOutcome => {
    if (f.diskReadMBps > (1 + SHARE_TOLERANCE) * c) return 'could-not-separate';
    if (f.diskReadMBps < (1 - SHARE_TOLERANCE) * c) return 'server-bound';
    if (ok(f.linkCeilingMBps)) return c >= LINK_SHARE * f.linkCeilingMBps ? 'link-bound' : 'protocol-bound';
    return 'link-bound';
  };
  const outcome = decide(f.ceilingMBps);
  if (!clientCached && decide(f.cacheFirstMBps) !== decide(f.cacheMBps))
    return none(
      `the two reads from the server's memory (${mb(f.cacheFirstMBps)}, then ${mb(f.cacheMBps)}) disagree about what limits the share (the cold read gave ${mb(f.diskReadMBps)})`,
    );
  if (outcome === 'could-not-separate')
    return none(
      `the cold read (${mb(f.diskReadMBps)}) ran faster than the read from the server's memory (${mb(f.ceilingMBps)}): the figures are not steady enough to tell the parts apart`,
    );
  return { ...base, outcome };
}

/** The small-file verdict: a file's operations against the round trip. */
export function smallFileVerdict(f: Omit<SmallFileFigures, 'roundTrips'>): SmallFileVerdict {
  const ok = (x: number): boolean => Number.isFinite(x) && x > 0;
  const figures = { ...f, roundTrips: f.rttMeasured === 1 && ok(f.rttMs) && ok(f.fileMs) ? f.fileMs / f.rttMs : 0 };
  const base = { family: 'share' as const, figures, rule: SMALL_FILE_RULE };
  if (!ok(f.fileMs) || f.ops < 1) return { ...base, outcome: 'could-not-separate', reason: 'the small files were not timed' };
  if (f.rttMeasured !== 1)
    return { ...base, outcome: 'could-not-separate', reason: 'the round trip to the server could not be timed (its port did not answer)' };
  return { ...base, outcome: f.ops * f.rttMs >= ROUND_TRIP_SHARE * f.fileMs ? 'protocol-bound' : 'processing-bound' };
}

const mb = (x: number): string => `${formatMBpsFigure(x)} MB/s`;
const ms = (x: number): string => `${x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3)} ms`;
const pct = (a: number, b: number): string => `${Math.round((a / b) * 100)} %`;

/** Said when the second read came from this computer's cache and the first is the ceiling. */
const cachedNote = (f: ShareFigures): string =>
  f.cacheMBps > REREAD_RATIO * f.cacheFirstMBps
    ? ` (The second read, ${mb(f.cacheMBps)}, came from this computer's own cache: the first is the ceiling.)`
    : '';

/** The link in words: "the 1 Gbit/s link", "the Wi-Fi link (866.7 Mb/s PHY)". */
function linkWords(v: ShareVerdict): string {
  const r = v.figures.linkMbps;
  const rate = r >= 1000 ? `${r / 1000} Gbit/s` : `${r} Mbit/s`;
  if (v.link?.wireless) return `the Wi-Fi link (${rate} PHY, ${mb(v.figures.linkCeilingMBps)} at best)`;
  return `the ${rate} link (${mb(v.figures.linkCeilingMBps)} of payload)`;
}

export const SHARE_LABEL: Record<ShareOutcome, string> = {
  'link-bound': 'Link-bound',
  'server-bound': 'Server-bound',
  'protocol-bound': 'Protocol-bound',
  'could-not-separate': 'Could not separate',
};

/** The verdict in words, the same on every surface:
 *  "Server-bound: the server's disk gives 58 MB/s; the link carried 112 MB/s from the server's memory." */
export function shareText(v: ShareVerdict): string {
  const f = v.figures;
  const write = f.diskWriteMBps > 0 ? ` (written at ${mb(f.diskWriteMBps)}, flushed to the server)` : '';
  switch (v.outcome) {
    case 'server-bound':
      return `Server-bound: the server's disk gives ${mb(f.diskReadMBps)} read cold${write}; the link carried ${mb(f.ceilingMBps)} from the server's memory.${cachedNote(f)}`;
    case 'link-bound':
      return f.linkCeilingMBps > 0
        ? `Link-bound: ${mb(f.ceilingMBps)} from the server's memory = ${pct(f.ceilingMBps, f.linkCeilingMBps)} of ${linkWords(v)}; its disk keeps up (${mb(f.diskReadMBps)} read cold).`
        : `Link-bound: ${mb(f.ceilingMBps)} from the server's memory and ${mb(f.diskReadMBps)} from its disk: the disk keeps up, the link and protocol carry no more (the link's own rate is not known here, so the ceiling is inferred).${cachedNote(f)}`;
    case 'protocol-bound':
      return `Protocol-bound: ${mb(f.ceilingMBps)} from the server's memory is only ${pct(f.ceilingMBps, f.linkCeilingMBps)} of ${linkWords(v)}, and its disk keeps up (${mb(f.diskReadMBps)} read cold): the protocol or the CPU at either end holds it back.`;
    default:
      return `Could not separate: ${v.reason ?? 'a figure is missing'}.`;
  }
}

export const SMALL_FILE_LABEL: Record<SmallFileOutcome, string> = {
  'protocol-bound': 'Protocol-bound',
  'processing-bound': 'Processing-bound',
  'could-not-separate': 'Could not separate',
};

/** "Protocol-bound: small files take 3.1 round trips each (12.4 ms at a 4.0 ms round trip)." */
export function smallFileText(v: SmallFileVerdict): string {
  const f = v.figures;
  const trips = f.roundTrips >= 10 ? f.roundTrips.toFixed(0) : f.roundTrips.toFixed(1);
  switch (v.outcome) {
    case 'protocol-bound':
      return `Protocol-bound: small files take ${trips} round trips each (${ms(f.fileMs)} at a ${ms(f.rttMs)} round trip to the server): the round trip sets their speed.`;
    case 'processing-bound':
      return f.roundTrips > 0
        ? `Processing-bound: a small file takes ${ms(f.fileMs)}, ${trips} times the ${ms(f.rttMs)} round trip: the server's or this computer's work per operation, not the round trip, sets their speed.`
        : `Processing-bound: a small file takes ${ms(f.fileMs)}, and the round trip is too short to time here (no longer than a connect on this computer): the server's or this computer's work per operation sets their speed.`;
    default:
      return `Small files: could not separate: ${v.reason ?? 'a figure is missing'}.`;
  }
}

/** Which part of the path changed between two setups of one share (a campaign: GigE, then Wi-Fi). */
export type ShareChangeOutcome = 'link' | 'server-disk' | 'round-trip' | 'several' | 'none';
export type ShareChange = Claim<'share', ShareChangeOutcome> & { parts: Array<'link' | 'server-disk' | 'round-trip'> };

export const SHARE_CHANGE_RULE =
  "A part changed when its own figure moved by more than 15 %: the link (with the protocol) by the read from the server's memory; the server's disk by its cold read, when both setups were server-bound, or one was and the link did not change (elsewhere the cold read measured the link); the round trip by the round trip to the server, and by more than 0.25 ms (below that the connect timing cannot tell two round trips apart).";

/** The round trip is the fastest of 9 TCP connects less the loopback's: on a LAN both sit within
 *  this of 0 (CI saw 0.137 then 0.000 ms over the same veth, shaped only in bandwidth). */
const ROUND_TRIP_RESOLUTION_MS = 0.25;

const moved = (a: number, b: number): boolean =>
  Number.isFinite(a) && Number.isFinite(b) && a > 0 && b > 0 && Math.abs(Math.log(b / a)) > Math.log(1 + SHARE_TOLERANCE);

/** What changed from `base` to `other`: their large-transfer verdicts and small-file verdicts. */
export function shareChange(
  base: { bulk: ShareVerdict; files: SmallFileVerdict },
  other: { bulk: ShareVerdict; files: SmallFileVerdict },
): ShareChange {
  const a = base.bulk.figures;
  const b = other.bulk.figures;
  const parts: ShareChange['parts'] = [];
  if (moved(a.ceilingMBps, b.ceilingMBps)) parts.push('link');
  // The cold read is the disk's figure only where it fell below the ceiling (server-bound).
  const sa = base.bulk.outcome === 'server-bound';
  const sb = other.bulk.outcome === 'server-bound';
  if (moved(a.diskReadMBps, b.diskReadMBps) && ((sa && sb) || (sa !== sb && !parts.includes('link')))) parts.push('server-disk');
  const ra = base.files.figures;
  const rb = other.files.figures;
  if (
    ra.rttMeasured === 1 &&
    rb.rttMeasured === 1 &&
    moved(Math.max(ra.rttMs, 1e-3), Math.max(rb.rttMs, 1e-3)) &&
    Math.abs(ra.rttMs - rb.rttMs) > ROUND_TRIP_RESOLUTION_MS
  )
    parts.push('round-trip');
  return {
    family: 'share',
    outcome: parts.length === 0 ? 'none' : parts.length === 1 ? parts[0]! : 'several',
    figures: {
      baseCeilingMBps: a.ceilingMBps,
      ceilingMBps: b.ceilingMBps,
      baseDiskReadMBps: a.diskReadMBps,
      diskReadMBps: b.diskReadMBps,
      baseRttMs: ra.rttMs,
      rttMs: rb.rttMs,
    },
    rule: SHARE_CHANGE_RULE,
    parts,
  };
}

/** "From GigE to Wi-Fi the link changed: 112 → 38.0 MB/s from the server's memory; the server's disk 58.0 → 57.0 MB/s read cold." */
export function shareChangeText(c: ShareChange, baseLabel: string, label: string): string {
  const f = c.figures;
  const link = `${mb(f.baseCeilingMBps!)} → ${mb(f.ceilingMBps!)} from the server's memory`;
  const disk = `${mb(f.baseDiskReadMBps!)} → ${mb(f.diskReadMBps!)} read cold`;
  const rtt = `round trip ${ms(f.baseRttMs!)} → ${ms(f.rttMs!)}`;
  const names = { link: 'the link', 'server-disk': "the server's disk", 'round-trip': 'the round trip' } as const;
  if (c.outcome === 'none') return `From ${baseLabel} to ${label} no part of the path changed by more than 15 %: ${link}, ${disk}, ${rtt}.`;
  const what = c.parts.map((p) => names[p]).join(' and ');
  return `From ${baseLabel} to ${label} ${what} changed: ${link}; the server's disk ${disk}; ${rtt}.`;
}
