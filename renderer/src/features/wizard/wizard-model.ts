// The format-and-compare wizard's arithmetic and wording, as pure functions: which disks may be
// picked and why not, the rough time a plan takes, the confirmation sentence, where a running
// plan is (the bar over the whole plan), which saved plans were interrupted. Kept out of the
// components so each rule is tested without a DOM.
import type { FormatId, FormatInfo, WizardDisk, WizardPlanKind, WizardPlanState, WizardStage } from '@model/wizard/types';
import { parseTypedSize } from '@model/units';
import { FREE_AFTER_FORMAT, freeAfterFormat, sizeLimitsText } from '@model/fit';
import { fitPlan } from '@model/presets';
import { estimatePlan } from '@model/wizard/estimate';
import { NO_DIRECT_IO } from '@model/wizard/protocols';
import { wizardKindOf } from '@model/wizard/plan-kinds';
import type { WizardKind } from '@model/kinds/registry';

import type { WizardProgressEvent } from '@model/events';
import { formatBytesShort } from '@model/units';
import { sizeLabel } from '../../lib/sizes';

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;
/** The quick plan's preset stress sizes (Blackmagic's 1 and 5 GB, decimal). */
export const SIZE_PRESETS = [1e9, 5e9] as const;
export const MIN_SIZE = 16 * MiB;
export const MAX_SIZE = 64 * GiB;
export const MAX_RUNS = 20;
/** Rest between runs, minutes (the contract caps it at an hour). */
export const MAX_REST_MINUTES = 60;
/** What the CrystalDiskMark grid and the many-file plan test with (CDM's default file). */
export const CDM_SIZE = GiB;

/** The plan form as the wizard holds it (before it becomes WizardSettings). */
export interface PlanForm {
  kind: WizardPlanKind;
  /** files: Stibium's Quick or Standard set, or a custom one. */
  filesSet: 'quick' | 'standard' | 'custom';
  filesCount: number;
  filesMinText: string;
  filesMaxText: string;
  /** The common-mode pass; undefined: on when a chosen format cannot do direct I/O. */
  commonMode?: boolean;
  /** Ticked preset sizes (bytes). */
  presets: number[];
  custom: boolean;
  customText: string;
  runs: number;
  restMinutes: number;
}

export const DEFAULT_PLAN: PlanForm = {
  kind: 'quick',
  filesSet: 'quick',
  filesCount: 40,
  filesMinText: '2 MB',
  filesMaxText: '600 MB',
  presets: [...SIZE_PRESETS],
  custom: false,
  customText: '',
  runs: 5,
  restMinutes: 5,
};

/** Plans that run at each stress size (the hash test: on a file of each size). */
export const isSizedPlan = (kind: WizardPlanKind): boolean => kind === 'quick' || kind === 'write' || kind === 'hash';

/** Whether the common-mode pass runs: as asked, else on when a chosen format cannot do direct I/O. */
export function commonModeOn(p: Pick<PlanForm, 'commonMode'>, chosen: readonly FormatId[]): boolean {
  return p.commonMode ?? chosen.some((f) => NO_DIRECT_IO.has(f));
}

/** A custom many-file set from the form, or why not. */
export function customFiles(p: PlanForm): { count: number; minBytes: number; maxBytes: number } | string {
  const min = parseTypedSize(p.filesMinText);
  const max = parseTypedSize(p.filesMaxText);
  if (!Number.isInteger(p.filesCount) || p.filesCount < 2 || p.filesCount > 10000) return 'Files: a whole number from 2 to 10,000.';
  if (min === null || min < 4096) return 'Smallest file: a size like 2 MB (at least 4 KiB).';
  if (max === null || max < min || max > MAX_SIZE) return 'Largest file: a size like 600 MB, at least the smallest and at most 68 GB.';
  return { count: p.filesCount, minBytes: min, maxBytes: max };
}

/** Why the custom size cannot be used, or null. */
export function customSizeError(text: string): string | null {
  if (text.trim() === '') return 'Type a size like 500 MB or 2 GB.';
  const b = parseTypedSize(text);
  if (b === null) return 'Type a size like 500 MB or 2 GB.';
  if (b < MIN_SIZE || b > MAX_SIZE) return sizeLimitsText(text);
  return null;
}

/** The stress sizes the plan sends, smallest first, without repeats. */
export function planSizes(p: PlanForm): number[] {
  if (!isSizedPlan(p.kind)) return [CDM_SIZE];
  const sizes = [...p.presets];
  if (p.custom && customSizeError(p.customText) === null) sizes.push(parseTypedSize(p.customText)!);
  return [...new Set(sizes)].sort((a, b) => a - b);
}

/** Why the plan cannot go ahead, or null. With the disk's size, a test that cannot fit on the
 *  formatted disk (the core's fit rule, on the free space a format leaves) stops the plan too. */
export function planError(p: PlanForm, diskBytes?: number): string | null {
  if (isSizedPlan(p.kind)) {
    if (p.custom && customSizeError(p.customText)) return customSizeError(p.customText);
    if (planSizes(p).length === 0) return 'Pick at least one stress size.';
  }
  if (p.kind === 'files' && p.filesSet === 'custom' && typeof customFiles(p) === 'string') return customFiles(p) as string;
  if (!Number.isInteger(p.runs) || p.runs < 1 || p.runs > MAX_RUNS) return `Runs per format: a whole number from 1 to ${MAX_RUNS}.`;
  if (!Number.isFinite(p.restMinutes) || p.restMinutes < 0 || p.restMinutes > MAX_REST_MINUTES)
    return `Rest between runs: 0 to ${MAX_REST_MINUTES} minutes.`;
  return diskBytes === undefined ? null : planFitError(p, diskBytes);
}

/** The planned tests that cannot fit on the formatted disk, in words (every stress size that does
 *  not fit named, the largest one's reason given), or null. */
export function planFitError(p: PlanForm, diskBytes: number): string | null {
  const target = freeAfterFormat(diskBytes);
  const after = `about ${Math.round(FREE_AFTER_FORMAT * 100)} % of this ${sizeLabel(diskBytes)} disk is free once formatted`;
  const own = wizardKindOf(p.kind);
  const misfits: Array<{ size: number; reason: string }> = [];
  for (const size of planSizes(p)) {
    const files = customFiles(p);
    const fit =
      p.kind === 'quick' || p.kind === 'hash'
        ? fitPlan('quick', { size }, target, { what: `the ${sizeLabel(size)} ${p.kind === 'hash' ? 'hash test file' : 'Quick Test'}` })
        : p.kind === 'write'
          ? fitPlan('seq-write', { size }, target, { what: `the ${sizeLabel(size)} write` })
          : p.kind === 'cdm'
            ? fitPlan('cdm', { size }, target, { what: 'the CrystalDiskMark grid' })
            : own
              ? fitPlan(own.id, {}, target, { what: own.wizard.what })
              : fitPlan(
                  'files',
                  { preset: p.filesSet, ...(p.filesSet === 'custom' && typeof files !== 'string' ? { files } : {}) },
                  target,
                  { what: 'the many-file test' },
                );
    if (!fit.fits) misfits.push({ size, reason: fit.reason ?? 'Not enough free space.' });
  }
  if (misfits.length === 0) return null;
  const worst = misfits[misfits.length - 1]!;
  const sizes = misfits.map((m) => sizeLabel(m.size));
  const which = misfits.length > 1 ? `${sizes.slice(0, -1).join(', ')} and ${sizes.at(-1)} do not fit. ` : '';
  return `${which}${worst.reason} (${after}.)`;
}

/** The plan's seconds (model/wizard/estimate.ts: the plans the runner will build, scaled to the
 *  disk, at PLAN_RATES), with what a scaled set was scaled to. */
export function estimateSeconds(p: {
  kind: WizardPlanKind;
  sizes: readonly number[];
  runs: number;
  restSeconds: number;
  formats: number;
  filesSet?: PlanForm['filesSet'];
  files?: { count: number; minBytes: number; maxBytes: number };
  commonPasses?: number;
  diskBytes?: number;
}): { seconds: number; scaled?: string } {
  try {
    return estimatePlan(
      {
        plan: p.kind,
        sizes: [...p.sizes],
        runs: p.runs,
        restSeconds: p.restSeconds,
        ...(p.filesSet ? { filesSet: p.filesSet } : {}),
        ...(p.files ? { files: p.files } : {}),
        commonMode: (p.commonPasses ?? 0) > 0,
      },
      {
        formats: Math.max(0, p.formats),
        ...(p.diskBytes !== undefined ? { diskBytes: p.diskBytes } : {}),
        commonPasses: p.commonPasses ?? 0,
      },
    );
  } catch {
    // A plan that does not fit says so through planFitError; its time is not known.
    return { seconds: NaN };
  }
}

/** "about 2 h 10 min", "about 45 min", "under a minute". */
export function aboutText(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 60) return 'under a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `about ${h} h` : `about ${h} h ${m} min`;
}

/** Elapsed time as "1 h 05 min", "12 min 03 s", "42 s". */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(sec).padStart(2, '0')} s`;
  return `${sec} s`;
}

/** A disk's size in decimal units, as its box says: "500 GB", "1 TB", "2.5 TB". */
export function diskSizeText(bytes: number): string {
  return Number.isFinite(bytes) && bytes > 0 ? formatBytesShort(bytes).replace(/\.0 /, ' ') : '—';
}

const BUS_NAMES: Record<string, string> = {
  usb: 'USB',
  sata: 'SATA',
  nvme: 'NVMe',
  thunderbolt: 'Thunderbolt',
  loop: 'disk image',
  virtio: 'virtio',
  scsi: 'SCSI',
  sas: 'SAS',
  ata: 'ATA',
  mmc: 'SD card',
};
export const busText = (bus: string): string => BUS_NAMES[bus.toLowerCase()] ?? bus;

/** The partitions that are mounted now: the core will not unmount what it did not mount. */
export const mountedParts = (d: WizardDisk) => d.partitions.filter((p) => p.mountpoints.length > 0);

/** Why this disk cannot be picked now, or null. */
export function diskBlock(d: WizardDisk | undefined, includeInternal: boolean): string | null {
  if (!d) return 'Pick the disk to erase.';
  if (d.system) return d.reason ?? 'This disk holds the system.';
  if (!d.offered) return d.reason ?? 'This disk cannot be erased.';
  if (d.internal && !includeInternal) return 'Internal disks need the advanced switch.';
  if (mountedParts(d).length > 0) return 'A partition of this disk is in use (mounted). Unmount it, then press Refresh.';
  return null;
}

/** "sdb1 · exFAT "T7" · 1 TB". */
export function partitionText(p: WizardDisk['partitions'][number]): string {
  const name = p.path.split('/').pop() ?? p.path;
  const what = [p.fs, p.label ? `“${p.label}”` : undefined].filter(Boolean).join(' ');
  return [name, what || 'no file system', diskSizeText(p.sizeBytes)].join(' · ');
}

/** The final format by default: the first unencrypted one chosen, else the first unencrypted
 *  one this machine can make. */
export function defaultFinal(formats: readonly FormatInfo[], chosen: readonly FormatId[]): FormatId | null {
  const byId = new Map(formats.map((f) => [f.id, f]));
  const first = chosen.find((id) => byId.get(id) && !byId.get(id)!.encrypted);
  return first ?? formats.find((f) => f.available && !f.encrypted)?.id ?? null;
}

/** What the disk can be left as: every format this machine can make, unencrypted. */
export const finalChoices = (formats: readonly FormatInfo[]): FormatInfo[] => formats.filter((f) => f.available && !f.encrypted);

export const formatLabel = (formats: readonly FormatInfo[], id: FormatId): string => formats.find((f) => f.id === id)?.label ?? id;

/** "a, b and c". */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** "the Quick Test at 1 GB and 5 GB, 5 runs each with 5 min rest". */
export function planText(p: {
  kind: WizardPlanKind;
  sizes: readonly number[];
  runs: number;
  restSeconds: number;
  filesSet?: PlanForm['filesSet'];
}): string {
  const at = listText(p.sizes.map(sizeLabel));
  const sets = { quick: 'Stibium Quick set', standard: 'Stibium Standard set', custom: 'custom set' } as const;
  const words: Record<Exclude<WizardPlanKind, WizardKind>, string> = {
    quick: `the Quick Test at ${at}`,
    cdm: 'the CrystalDiskMark grid (1 GiB)',
    files: `the many-file test (${sets[p.filesSet ?? 'quick']})`,
    write: `a write only at ${at}`,
    hash: `the Hash test on a file of ${at}`,
  };
  const what = wizardKindOf(p.kind)?.wizard.what ?? words[p.kind as keyof typeof words];
  if (p.kind === 'hash') return `${what}, once`;
  const runs = `${p.runs} run${p.runs === 1 ? '' : 's'}${isSizedPlan(p.kind) && p.sizes.length > 1 ? ' per size' : ''}`;
  return `${what}, ${runs}, ${p.restSeconds > 0 ? `${restText(p.restSeconds)} rest between runs` : 'no rest between runs'}`;
}

/** "5 min", "90 s", "2.5 min". */
export function restText(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  return `${Math.round(seconds / 6) / 10} min`;
}

/** The disk in one line: "Samsung PSSD T7 (Samsung PSSD T7, 1 TB, USB, /dev/sdb)". */
export function diskLine(d: WizardDisk): string {
  const parts = [d.model, diskSizeText(d.sizeBytes), busText(d.bus), d.path].filter(Boolean);
  return `${d.name} (${parts.join(', ')})`;
}

/** "everything on it will be lost: sdb1 · exFAT “T7” · 1 TB". */
export function lossText(d: WizardDisk): string {
  if (d.partitions.length === 0) return 'Everything on it will be lost.';
  return `Everything on it will be lost: ${d.partitions.map(partitionText).join('; ')}.`;
}

// ---- a running plan ---------------------------------------------------------------------------

/** Where a format is within its own work, 0–1, by stage (testing by the test's progress). */
function withinFormat(e: WizardProgressEvent, sizes: readonly number[]): number {
  const fixed: Partial<Record<WizardStage, number>> = {
    checking: 0,
    erasing: 0.01,
    formatting: 0.02,
    mounting: 0.04,
    unmounting: 0.97,
    finishing: 0.99,
  };
  if (e.stage !== 'testing' && e.stage !== 'resting') return fixed[e.stage] ?? 0;
  const t = e.test;
  if (!t) return 0.05;
  const runs = Math.max(1, t.runs);
  const nSizes = Math.max(1, sizes.length);
  const sizeIdx = t.sizeBytes !== undefined ? Math.max(0, sizes.indexOf(t.sizeBytes)) : 0;
  const part = t.bytesTotal > 0 ? Math.min(1, Math.max(0, t.bytesDone / t.bytesTotal)) : 0;
  const inRun = e.stage === 'resting' ? 0 : t.phase === 'write' ? part / 2 : t.phase === 'read' ? 0.5 + part / 2 : part;
  const done = (sizeIdx * runs + Math.max(0, t.run - 1) + inRun) / (nSizes * runs);
  return 0.05 + 0.9 * Math.min(1, done);
}

/** The share of the whole plan done, 0–1: formats done plus where the current one is. */
export function planFraction(e: WizardProgressEvent, sizes: readonly number[]): number {
  if (e.formatCount <= 0) return 0;
  if (e.formatIndex >= e.formatCount) return 1;
  return Math.min(1, (e.formatIndex + withinFormat(e, sizes)) / e.formatCount);
}

export const STAGE_WORDS: Record<WizardStage, string> = {
  checking: 'Checking the disk',
  erasing: 'Erasing',
  formatting: 'Formatting',
  mounting: 'Mounting',
  testing: 'Testing',
  resting: 'Resting',
  unmounting: 'Unmounting',
  finishing: 'Leaving the disk formatted',
};

// ---- saved plans ------------------------------------------------------------------------------

/** A plan a person would want to resume: it was running in a process that is gone (not our
 *  own job), or it ended stopped or failed with formats still to do. */
export function isInterrupted(p: WizardPlanState, currentPlanId: string | null): boolean {
  if (p.id === currentPlanId) return false;
  if (p.status === 'running') return true;
  if (p.status === 'stopped' || p.status === 'failed') return p.steps.some((s) => s.status !== 'done') || p.final.status !== 'done';
  return false;
}

export const stepsDone = (p: WizardPlanState): number => p.steps.filter((s) => s.status === 'done').length;
