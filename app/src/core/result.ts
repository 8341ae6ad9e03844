// The versioned result document (DESIGN.md, "A result document"): its types and the one
// builder that assembles it from engine results and context. Every screen, export and share
// image is a view of these documents, so a field added here is a promise kept forever —
// change the shape only by bumping `schema`.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findPackageRoot } from './engine.js';
import type { CacheMode, CacheRequest, DataPattern, EngineResult, EngineSpec, LatencyUs, Rw, SeriesPoint } from './engine-types.js';
import type { HostInfo } from './host.js';
import type { PlanSettings, TestKind } from './presets.js';
import type { VolumeInfo } from './volume.js';

export const RESULT_SCHEMA = 1 as const;

export interface ResultFlag {
  code: string;
  message: string;
  fix: string;
}

export interface ResultTest {
  name: string;
  rw: Rw;
  bs: number;
  qd: number;
  threads: number;
  bytes: number;
  seconds: number;
  /** bytes / seconds / 10^6 */
  mbps: number;
  iops: number;
  latencyUs: Omit<LatencyUs, 'min'> & { min?: number };
  series: SeriesPoint[];
  cacheMode: CacheMode;
  cacheNote?: string;
  /** 1-based run number when a plan is repeated. */
  run: number;
  ioEngine?: string;
  alignment?: number;
  prepareSeconds?: number;
  warmupSeconds?: number;
  flushSeconds?: number;
  /** The spec the engine ran, defaults filled in (the test file's path left out). */
  spec: Omit<EngineSpec, 'path'>;
}

export interface ResultTarget {
  /** The folder the user chose. */
  path: string;
  /** The volume's label, or its mount point when it has none. */
  volume: string;
  mountPoint: string;
  fs: string;
  encrypted?: boolean;
  mountOptions: string[];
  totalBytes: number;
  /** Free space before the test. */
  freeBytes: number;
  device: {
    model: string;
    serial?: string;
    bus: string;
    link?: string;
    /** The block device or mount source, e.g. /dev/sda1. */
    node?: string;
    removable?: boolean;
    rotational?: boolean;
  };
}

export interface ResultDocument {
  schema: typeof RESULT_SCHEMA;
  id: string;
  kind: TestKind | (string & {});
  label?: string;
  startedAt: string;
  finishedAt: string;
  app: { version: string; engine: string };
  host: HostInfo;
  target: ResultTarget;
  settings: PlanSettings & { runs: number; cache: CacheRequest };
  /** The weakest cache mode any test achieved: one buffered test taints the set. */
  cacheMode: CacheMode;
  dataPattern: DataPattern;
  flags: ResultFlag[];
  tests: ResultTest[];
}

// Strongest first: direct I/O and macOS F_NOCACHE both bypass the cache.
const CACHE_ORDER: readonly CacheMode[] = ['direct', 'nocache', 'buffered-flushed', 'buffered'];

export function weakestCacheMode(modes: readonly CacheMode[]): CacheMode {
  let worst = 0;
  for (const m of modes) worst = Math.max(worst, CACHE_ORDER.indexOf(m));
  return CACHE_ORDER[worst] ?? 'buffered';
}

let cachedVersion: string | undefined;
/** The app's version from package.json. */
export function appVersion(): string {
  if (cachedVersion === undefined) {
    const pkg = JSON.parse(readFileSync(path.join(findPackageRoot(), 'package.json'), 'utf8')) as { version?: string };
    cachedVersion = pkg.version ?? '0.0.0';
  }
  return cachedVersion;
}

function specWithoutPath(spec: EngineSpec): Omit<EngineSpec, 'path'> {
  const { path: _path, ...rest } = spec;
  return rest;
}

/** One engine result as a row of the document. */
export function toResultTest(name: string, r: EngineResult, run: number): ResultTest {
  const t: ResultTest = {
    name,
    rw: r.rw,
    bs: r.bs,
    qd: r.qd,
    threads: r.threads,
    bytes: r.bytes,
    seconds: r.seconds,
    mbps: r.mbps,
    iops: r.iops,
    latencyUs: { ...r.latencyUs },
    series: r.series,
    cacheMode: r.cacheMode,
    run,
    ioEngine: r.ioEngine,
    alignment: r.alignment,
    prepareSeconds: r.prepareSeconds,
    warmupSeconds: r.warmupSeconds,
    flushSeconds: r.flushSeconds,
    spec: specWithoutPath(r.spec),
  };
  if (r.cacheNote) t.cacheNote = r.cacheNote;
  return t;
}

export function targetFromVolume(targetPath: string, v: VolumeInfo | undefined): ResultTarget {
  const t: ResultTarget = {
    path: targetPath,
    volume: v?.label ?? v?.mountPoint ?? 'unknown',
    mountPoint: v?.mountPoint ?? 'unknown',
    fs: v?.fsType ?? 'unknown',
    mountOptions: v ? [...v.mountOptions, ...v.superOptions.filter((o) => !v.mountOptions.includes(o))] : [],
    totalBytes: v?.totalBytes ?? 0,
    freeBytes: v?.freeBytes ?? 0,
    device: { model: v?.disk?.model ?? 'unknown', bus: v?.disk?.bus ?? 'unknown' },
  };
  if (v?.encrypted !== undefined) t.encrypted = v.encrypted;
  if (v?.device && v.device !== 'unknown') t.device.node = v.device;
  const d = v?.disk;
  if (d?.serial) t.device.serial = d.serial;
  if (d?.link) t.device.link = d.link;
  if (d?.removable !== undefined) t.device.removable = d.removable;
  if (d?.rotational !== undefined) t.device.rotational = d.rotational;
  return t;
}

/** Flags: what a reader must know before trusting the numbers, each with what to do about it. */
export function resultFlags(tests: readonly ResultTest[], settings: { cache: CacheRequest; pattern: DataPattern }): ResultFlag[] {
  const flags: ResultFlag[] = [];
  const buffered = tests.filter((t) => t.cacheMode.startsWith('buffered'));
  if (buffered.length > 0) {
    const modes = [...new Set(buffered.map((t) => t.cacheMode))].join(', ');
    const notes = [...new Set(buffered.map((t) => t.cacheNote).filter((n): n is string => !!n))];
    const names = [...new Set(buffered.map((t) => t.name))].join(', ');
    flags.push({
      code: 'cache-not-direct',
      message:
        `${names} went through the operating system's cache (${modes})` +
        (notes.length ? `: ${notes.join('; ')}` : '') +
        '. Those figures may show the cache, not the disk.',
      fix:
        settings.cache === 'auto'
          ? 'The file system refused uncached I/O; test a folder on a file system that supports it (ext4, XFS, Btrfs, APFS, NTFS) for disk-only figures.'
          : `Run with --cache auto to bypass the cache (you asked for ${settings.cache}).`,
    });
  }
  // The engine may explain a direct result too (a RAM-backed tmpfs takes O_DIRECT but
  // measures memory); such notes are worth a reader's attention.
  const otherNotes = [...new Set(tests.filter((t) => !t.cacheMode.startsWith('buffered') && t.cacheNote).map((t) => t.cacheNote!))];
  if (otherNotes.length > 0) {
    flags.push({
      code: 'engine-note',
      message: `The engine noted: ${otherNotes.join('; ')}.`,
      fix: 'Check that the folder is on the disk you mean to measure.',
    });
  }
  if (settings.pattern === 'zeros') {
    flags.push({
      code: 'zeros-pattern',
      message: 'The test wrote zeros; disks and file systems that compress or deduplicate will look faster than with real data.',
      fix: 'Run with --pattern random (the default) for figures that hold for video, photos and archives.',
    });
  }
  if (tests.some((t) => t.bytes === 0)) {
    flags.push({
      code: 'empty-test',
      message: 'At least one test transferred no data, so its figures are meaningless.',
      fix: 'Use a larger --size or longer --seconds.',
    });
  }
  return flags;
}

export interface BuildResultInput {
  kind: TestKind | (string & {});
  label?: string;
  startedAt: Date;
  finishedAt: Date;
  engineVersion: string;
  host: HostInfo;
  target: ResultTarget;
  settings: ResultDocument['settings'];
  tests: ResultTest[];
}

export function buildResult(input: BuildResultInput): ResultDocument {
  const doc: ResultDocument = {
    schema: RESULT_SCHEMA,
    id: randomUUID(),
    kind: input.kind,
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    app: { version: appVersion(), engine: input.engineVersion },
    host: input.host,
    target: input.target,
    settings: input.settings,
    cacheMode: weakestCacheMode(input.tests.map((t) => t.cacheMode)),
    dataPattern: input.settings.pattern,
    flags: resultFlags(input.tests, input.settings),
    tests: input.tests,
  };
  if (input.label !== undefined) doc.label = input.label;
  return doc;
}
