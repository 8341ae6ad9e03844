// The link between a target's disk and the computer, as the picker and the dials show it: its
// name, the payload ceiling after line encoding, and what such links typically deliver. The
// core describes it on TargetInfo.device.link (optional: older cores and folders on unknown
// devices have none); it is checked at run time so a malformed value shows nothing, not garbage.
import type { TargetInfo } from '@model/history';
import { formatMBpsFigure } from '@model/units';

export interface TargetLink {
  label: string;
  /** Payload ceiling after line encoding, MB/s. */
  ceilingMBps?: number;
  /** What such links typically deliver in practice, MB/s. */
  typicalMBps?: [number, number];
}

/** What the ceiling means, in plain words. */
export const CEILING_EXPLAIN = 'the most this connection can carry after line encoding; figures above it cannot be the disk’s.';

/** "Interface ceiling ≈ 1,212 MB/s: the most this connection can carry …". */
export function ceilingTitle(mbps: number): string {
  return `Interface ceiling ≈ ${formatMBpsFigure(mbps)} MB/s: ${CEILING_EXPLAIN}`;
}

const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/** The target's link, if the core described one; malformed parts are dropped. */
export function targetLink(t: TargetInfo | null | undefined): TargetLink | undefined {
  const raw: unknown = t?.device.link;
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as { label?: unknown; ceilingMBps?: unknown; typicalMBps?: unknown };
  if (typeof r.label !== 'string' || !r.label.trim()) return undefined;
  const link: TargetLink = { label: r.label.trim() };
  if (positive(r.ceilingMBps)) link.ceilingMBps = r.ceilingMBps;
  const typ = r.typicalMBps;
  if (Array.isArray(typ) && typ.length === 2 && positive(typ[0]) && positive(typ[1]) && typ[0] <= typ[1]) {
    link.typicalMBps = [typ[0], typ[1]];
  }
  return link;
}

/** "≤ 1,212 MB/s (typ. 900–1,050)", or '' when the link has neither figure. */
export function linkFigures(link: TargetLink): string {
  const parts: string[] = [];
  if (link.ceilingMBps) parts.push(`≤ ${formatMBpsFigure(link.ceilingMBps)} MB/s`);
  if (link.typicalMBps) {
    const typ = `typ. ${formatMBpsFigure(link.typicalMBps[0])}–${formatMBpsFigure(link.typicalMBps[1])}`;
    parts.push(link.ceilingMBps ? `(${typ})` : `${typ} MB/s`);
  }
  return parts.join(' ');
}

/** "USB 3.2 Gen 2 · ≤ 1,212 MB/s (typ. 900–1,050)". */
export function linkText(link: TargetLink): string {
  const figures = linkFigures(link);
  return figures ? `${link.label} · ${figures}` : link.label;
}

/** The hover text for a link: what the ceiling and the typical range mean. */
export function linkTitle(link: TargetLink): string {
  const parts = [`Connection: ${link.label}.`];
  if (link.ceilingMBps) parts.push(ceilingTitle(link.ceilingMBps));
  if (link.typicalMBps)
    parts.push(
      `Such links typically deliver ${formatMBpsFigure(link.typicalMBps[0])}–${formatMBpsFigure(link.typicalMBps[1])} MB/s in practice.`,
    );
  return parts.join(' ');
}

/** The target is on a network share: the core names its bus so (a share's path to its server is
 *  its link). */
export function onShare(t: TargetInfo | null | undefined): boolean {
  return t?.device.bus === 'network';
}
