// Builds the result document (model/result.ts) from engine results and the context only Node
// knows: the app's version, a fresh id, the volume's flags.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CacheRequest, DataPattern } from '../model/engine-types.js';
import type { HostInfo } from '../model/host.js';
import type { LinkInfo } from '../model/link-types.js';
import { networkLabel, networkLink } from '../model/network.js';
import { RESULT_KINDS, type TestKind } from '../model/kinds/registry.js';
import {
  RESULT_SCHEMA,
  weakestCacheMode,
  type KindSections,
  type MachineLoad,
  type ResultDocument,
  type ResultFlag,
  type ResultTarget,
  type ResultTest,
} from '../model/result.js';
import type { VolumeInfo } from '../model/volume.js';
import { findPackageRoot } from './engine.js';

export { toResultTest } from '../model/result-tests.js';
import { computeFlags, diskOf } from './flags.js';

let cachedVersion: string | undefined;
/** The app's version from package.json. */
export function appVersion(): string {
  if (cachedVersion === undefined) {
    const pkg = JSON.parse(readFileSync(path.join(findPackageRoot(), 'package.json'), 'utf8')) as { version?: string };
    cachedVersion = pkg.version ?? '0.0.0';
  }
  return cachedVersion;
}

/** A whole block device its caller has proven (the wizard's identity, in-use and typed-name
 *  rules) and may overwrite from its first byte: the runner writes to it, no folder, no file. */
export interface DeviceTarget {
  path: string;
  sizeBytes: number;
  /** The name the person typed to confirm. */
  name: string;
  model?: string;
  serial?: string;
  bus?: string;
}

/** A whole device as a result's target: no file system, all of it tested. */
export function deviceTarget(d: DeviceTarget): ResultTarget {
  const t: ResultTarget = {
    path: d.path,
    volume: d.name,
    mountPoint: 'none',
    fs: 'none (whole device)',
    mountOptions: [],
    totalBytes: d.sizeBytes,
    freeBytes: d.sizeBytes,
    device: { model: d.model ?? d.name, bus: d.bus ?? 'unknown', node: d.path },
  };
  if (d.serial) t.device.serial = d.serial;
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
  if (v?.encryption) t.encryption = v.encryption;
  if (v?.device && v.device !== 'unknown') t.device.node = v.device;
  const d = diskOf(v);
  if (d?.serial) t.device.serial = d.serial;
  if (d?.linkInfo) {
    t.device.link = d.linkInfo.label;
    t.device.linkInfo = d.linkInfo;
  } else if (d?.link) t.device.link = d.link;
  if (d?.health?.firmware) t.device.firmware = d.health.firmware;
  if (d?.removable !== undefined) t.device.removable = d.removable;
  if (d?.rotational !== undefined) t.device.rotational = d.rotational;
  if (v?.network && !d) {
    // A share has no disk of its own here: its "device" is the network path to the server.
    t.network = v.network;
    t.device.bus = 'network';
    t.device.link = networkLabel(v.network);
    t.device.linkInfo = networkLink(v.network);
  }
  return t;
}

/** Flags: what a reader must know before trusting the numbers, each with what to do about it.
 *  The rules live in flags.ts; this keeps the document's entry point. */
export function resultFlags(
  tests: readonly ResultTest[],
  settings: { cache: CacheRequest; pattern: DataPattern },
  about: { volume?: VolumeInfo; link?: LinkInfo; kind?: string; machine?: MachineLoad } = {},
): ResultFlag[] {
  return computeFlags({ tests, settings, ...about });
}

/** The document's own parts as the runner has them (the sections as they will be stored). */
type DocumentParts = Pick<ResultDocument, 'target' | 'settings' | 'tests' | 'context' | 'summary' | 'files' | 'hash' | 'check' | 'notes'> &
  KindSections;

export interface BuildResultInput extends DocumentParts {
  kind: TestKind | (string & {});
  label?: string;
  startedAt: Date;
  finishedAt: Date;
  engineVersion: string;
  host: HostInfo;
  /** The volume tested, for the flags that depend on the file system and the disk. */
  volume?: VolumeInfo;
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
    flags: resultFlags(input.tests, input.settings, {
      kind: input.kind,
      ...(input.volume ? { volume: input.volume } : {}),
      ...(input.context?.machine ? { machine: input.context.machine } : {}),
    }),
    tests: input.tests,
  };
  if (input.label !== undefined) doc.label = input.label;
  if (input.summary && input.summary.length > 0) doc.summary = input.summary;
  if (input.files) doc.files = input.files;
  if (input.hash) doc.hash = input.hash;
  if (input.check) doc.check = input.check;
  for (const { result } of RESULT_KINDS) if (result && input[result.key]) Object.assign(doc, { [result.key]: input[result.key] });
  if (input.notes && input.notes.length > 0) doc.notes = input.notes;
  if (input.context && Object.keys(input.context).length > 0) doc.context = input.context;
  return doc;
}
