// Results as a format-and-compare plan leaves them, for the report's tests: the Quick Test
// fixture as one format at one stress size, scaled, and saved results with a user's label.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultDocument } from '../../app/src/model/result.js';
import { markdownTableLines } from './markdown.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'results');
export function load(kind: string): ResultDocument {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${kind}.json`), 'utf8')) as ResultDocument;
}

export const GB = 1e9;

export interface Variant {
  format: string;
  label: string;
  /** Every run's MB/s is multiplied by this (reads and writes alike unless `writeOnly`). */
  scale?: number;
  /** ± this share, alternating by test, so a copy is not an exact multiple of the baseline. */
  jitter?: number;
  writeOnly?: boolean;
  /** Only at this stress size. */
  onlyAt?: number;
}

/** A wizard result: the Quick Test fixture (3 runs) as one format at one stress size, on a
 *  Samsung T7 whose interface carries 2,000 MB/s. A 5 GB run is a little slower than 1 GB. */
export function wizardDoc(v: Variant, size: number, planId = 'p1'): ResultDocument {
  const d = load('quick');
  d.id = `${planId}-${v.format}-${size / GB}gb`;
  delete d.label;
  d.startedAt = `2026-12-0${size === GB ? 3 : 4}T10:00:00.000Z`;
  d.settings.size = size;
  d.settings.restSeconds = 300;
  d.campaign = { planId, format: v.format, formatLabel: v.label };
  d.target.fs = v.format;
  d.target.device.model = 'Samsung T7';
  d.target.device.link = 'USB 3.2 Gen 2';
  d.target.device.linkInfo = { ...d.target.device.linkInfo!, ceilingMBps: 2000 };
  const applies = v.onlyAt === undefined || v.onlyAt === size;
  d.tests.forEach((t, i) => {
    const scale = applies && (!v.writeOnly || t.rw === 'write') ? (v.scale ?? 1) : 1;
    t.mbps *= scale * (size === GB ? 1 : 0.96) * (1 + (v.jitter ?? 0) * ((i % 3) - 1));
  });
  return d;
}

export const EXT4: Variant = { format: 'ext4', label: 'ext4' };
export const ENCRYPTED: Variant = { format: 'ext4-fscrypt', label: 'ext4 (fscrypt encrypted)', scale: 0.9, jitter: 0.01 };
export const XFS: Variant = { format: 'xfs', label: 'XFS', scale: 1, jitter: 0.01 };

/** A plan of three formats at 1 GB and 5 GB, handed over 5 GB first to check the ordering. */
export function plan(variants: readonly Variant[] = [EXT4, ENCRYPTED, XFS]): ResultDocument[] {
  return variants.flatMap((v) => [wizardDoc(v, 5 * GB), wizardDoc(v, GB)]);
}

/** A saved result without a campaign, named as the user labelled it. */
export function saved(label: string, id: string, size = GB, link = 'USB 3.2 Gen 2'): ResultDocument {
  const d = load('quick');
  d.id = id;
  d.label = label;
  d.settings.size = size;
  d.target.device.model = 'Samsung T7';
  d.target.device.link = link;
  return d;
}

/** The rows of the Markdown's first table (the report's own; the kinds' sections follow it). */
export function mdTable(md: string, which = 0): string[][] {
  return markdownTableLines(md, which).map((l) =>
    l
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim()),
  );
}
