// Reading a result document that came from outside this process: a file in the history folder
// (written by any version, possibly cut short by a crash or edited by hand) or a file someone
// imports from another machine. It decides, in plain words, whether the text is a result this
// version can show: JSON at all, a DiskDial result, a schema this version reads, and the fields
// every view relies on. It never changes the document: what was read is what is kept, so an
// export → import round trip is lossless. A reason never quotes the file's text (the file may
// not be a result at all, and its first bytes are nobody's business): it says where, not what.
import { z } from 'zod';
import { RESULT_SCHEMA, type ResultDocument } from './result.js';
import { CheckSectionSchema } from './check.js';
import { RESULT_KINDS } from './kinds/registry.js';

import { RESULT_ID_RE } from './result-id.js';

export { RESULT_ID_RE };

const num = z.number().finite();
const str = z.string();

// Only what screens, exports and the card read; everything else passes through untouched.
const Test = z.looseObject({
  name: str,
  rw: str,
  bs: num,
  qd: num,
  threads: num,
  bytes: num,
  seconds: num,
  mbps: num,
  iops: num,
  run: num,
  cacheMode: str,
  latencyUs: z.looseObject({ mean: num, p50: num, p99: num }),
  series: z.array(z.looseObject({ t: num, mbps: num })),
  // Absent from results made before intervals were kept.
  interval: z.looseObject({ halfWidth: num, relative: num }).optional(),
  settle: z.looseObject({ precision: num, settled: z.boolean() }).optional(),
});

const Rate = z.looseObject({ bytes: num, seconds: num, mbps: num });

// The busy-machine flag and its note read these (absent in results made before they were kept).
const MachineLoad = z.looseObject({
  cores: num,
  wallSeconds: num,
  ownCpuSeconds: num,
  othersCpuSeconds: num,
  machineCpuSeconds: num,
  loadMax: num,
  ownThreads: num,
  source: z.enum(['proc', 'node']),
});

const Document = z.looseObject({
  schema: z.literal(RESULT_SCHEMA),
  id: str.regex(RESULT_ID_RE, 'is not a result id'),
  kind: str.min(1),
  label: str.optional(),
  startedAt: z.iso.datetime({ offset: true }),
  finishedAt: z.iso.datetime({ offset: true }),
  app: z.looseObject({ version: str, engine: str }),
  host: z.looseObject({ os: str, osRelease: str, arch: str, cpu: str }),
  target: z.looseObject({
    path: str,
    volume: str,
    mountPoint: str,
    fs: str,
    mountOptions: z.array(str),
    totalBytes: num,
    freeBytes: num,
    device: z.looseObject({ model: str, bus: str }),
    network: z.looseObject({ protocol: str, client: str }).optional(),
  }),
  settings: z.looseObject({ runs: num }),
  cacheMode: z.enum(['direct', 'nocache', 'buffered-flushed', 'buffered']),
  dataPattern: str,
  flags: z.array(z.looseObject({ code: str, message: str, fix: str })),
  tests: z.array(Test),
  files: z
    .looseObject({
      preset: str,
      count: num,
      runs: z.array(
        z.looseObject({
          run: num,
          items: z.array(z.looseObject({ name: str, bytes: num })),
          write: z.looseObject({ mbps: num }),
          read: z.looseObject({ mbps: num }),
        }),
      ),
    })
    .optional(),
  hash: z
    .looseObject({
      algo: z.enum(['sha256', 'sha512']),
      digest: str,
      file: z.looseObject({ path: str, bytes: num }),
      read: Rate,
      readHash: Rate,
      memory: Rate,
      memoryParallel: Rate.extend({ threads: num }),
      verdict: z.looseObject({ text: str }),
    })
    .optional(),
  check: CheckSectionSchema.optional(),
  context: z.looseObject({ machine: MachineLoad.optional() }).optional(),
  cipher: z.looseObject({ provider: str, blockBytes: num, dataUnit: num }).optional(),
  // The sections of the kinds with a folder, each checked by its own schema.
  ...Object.fromEntries(RESULT_KINDS.flatMap((k) => (k.result ? [[k.result.key, k.result.schema.optional()]] : []))),
});

/** A file that cannot be read as a result: `reason` is plain words, ready to show. */
export class NotAResultError extends Error {
  override name = 'NotAResultError';
  readonly code = 'ERR_NOT_A_RESULT';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** A comparison export ("diskdial-comparison"): several results in one file. */
export interface ResultBundle {
  format: 'diskdial-comparison';
  results: unknown[];
}

/** Parses JSON text into a result document, or throws NotAResultError saying why not. */
export function parseResultText(text: string): ResultDocument {
  return checkResult(parseJson(text));
}

/** The result documents in an exported file: one result, or each result of a comparison export. */
export function parseResultFile(text: string): ResultDocument[] {
  const value = parseJson(text);
  if (isBundle(value)) {
    if (value.results.length === 0) throw new NotAResultError('This comparison file holds no results.');
    return value.results.map((r, i) => {
      try {
        return checkResult(r);
      } catch (err) {
        throw new NotAResultError(`Result ${i + 1} of this comparison file: ${(err as Error).message}`);
      }
    });
  }
  return [checkResult(value)];
}

function parseJson(text: string): unknown {
  const trimmed = text.replace(/^\uFEFF/, '');
  if (trimmed.trim() === '') throw new NotAResultError('The file is empty.');
  let value: unknown;
  try {
    value = JSON.parse(trimmed) as unknown;
  } catch (err) {
    // A crash mid-write leaves JSON cut short; say so. The parser's message is not passed on: it
    // quotes the text around the error.
    const msg = err instanceof Error ? err.message : String(err);
    const at = /position (\d+)/.exec(msg);
    const atEnd = at ? Number(at[1]) >= trimmed.trimEnd().length - 1 : /end of (JSON )?input|Unterminated/i.test(msg);
    if (atEnd && /^\s*[{[]/.test(trimmed)) return fail('The file ends too soon: it is not complete JSON (cut short?).');
    return fail(at ? `It is not JSON (it goes wrong at character ${Number(at[1]) + 1}).` : 'It is not JSON.');
  }
  if (nestsDeeperThan(trimmed, MAX_DEPTH)) return fail(`It nests lists and objects deeper than a result does (${MAX_DEPTH} levels).`);
  return value;
}

/** A result nests 7 levels, a comparison file 9. Far deeper is not one, and JSON.stringify (saving
 *  it, exporting it) overflows its stack at a few thousand levels, which JSON.parse accepts. */
const MAX_DEPTH = 32;

/** Whether JSON text opens more than `max` lists and objects inside each other (strings skipped). */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: to its closing quote, past escaped characters.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

function isBundle(v: unknown): v is ResultBundle {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as { format?: unknown }).format === 'diskdial-comparison' &&
    Array.isArray((v as { results?: unknown }).results)
  );
}

/** Checks a parsed value is a result document this version can show; returns it unchanged. */
export function checkResult(value: unknown): ResultDocument {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('It is not a DiskDial result (not a JSON object).');
  const schema = (value as { schema?: unknown }).schema;
  if (schema === undefined) return fail('It is not a DiskDial result (it has no "schema" field).');
  if (typeof schema !== 'number' || !Number.isInteger(schema) || schema < 1)
    return fail(`It is not a DiskDial result ("schema" is ${typeof schema === 'number' ? schema : 'not a number'}).`);
  if (schema > RESULT_SCHEMA) {
    return fail(
      `It was made by a newer DiskDial (result schema ${schema}); this version reads schema ${RESULT_SCHEMA}. Update DiskDial to open it.`,
    );
  }
  const parsed = Document.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.map(String).join('.') || 'the document';
    const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problems)` : '';
    return fail(`It looks like a DiskDial result but is damaged: ${where} ${plainIssue(issue)}${more}.`);
  }
  return value as ResultDocument;
}

function plainIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return /received undefined/.test(issue.message) ? 'is missing' : `should be ${issue.expected}`;
  if (issue.code === 'invalid_value') return 'has a value this version does not know';
  return issue.message.slice(0, 100);
}

function fail(reason: string): never {
  throw new NotAResultError(reason);
}
