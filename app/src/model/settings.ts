// What a person can ask for, as zod schemas: each start request's settings, a result id, an
// export format. The main process validates every payload with these; the renderer builds them.
import { z } from 'zod';
import { isChecksumFilePath, parsePastedDigest } from './digest.js';
import { RESULT_ID_RE } from './result-id.js';
import { FORMAT_IDS } from './wizard/format-ids.js';
import { RUN_KINDS, TEST_KINDS } from './kinds/registry.js';
import { LABEL_MAX } from './text.js';
import { MAX_SETUPS } from './campaign.js';
import { SCREEN_MEMBERS, TargetPath, type DetailedKind, type DetailedSettings as Detailed } from './screen-settings.js';
import { WIZARD_PLAN_KINDS } from './wizard/plan-kinds.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** A test file's size: 16 MiB – 64 GiB (the Quick Test's stress size, the hash test's file). */
const TestFileSize = z
  .number()
  .int()
  .min(16 * MiB)
  .max(64 * GiB);

export const QuickTestSettings = z
  .object({
    target: TargetPath,
    /** Stress size in bytes: Blackmagic's 1, 2, 3, 5 GB, or custom (16 MiB – 64 GiB). */
    sizeBytes: TestFileSize,
    /** `continuous`: write, read, write, read… until stopped (Blackmagic's behaviour). */
    mode: z.enum(['runs', 'continuous']),
    /** With mode `runs`: how many write+read cycles. */
    runs: z.number().int().min(1).max(100),
    /** The stop rule: each step ends once its 95 % interval is within ± this fraction. */
    precision: z.number().min(0.001).max(0.5).optional(),
  })
  .strict();
export type QuickTestSettings = z.infer<typeof QuickTestSettings>;

/** A detailed test (the Detailed screen): each kind's settings there, in the registry's order (a
 *  refused kind's message lists them so): those of model/screen-settings.ts and those of the kinds
 *  with a folder (their `screen` hook). */
const KIND_SCREENS = RUN_KINDS.flatMap((k) => {
  const schema = k.screen?.schema ?? SCREEN_MEMBERS[k.id as keyof typeof SCREEN_MEMBERS];
  return schema ? [schema] : [];
});
// The union is typed in screen-settings.ts (DetailedSettings): zod's tuple type cannot be built
// from a list, so the members are cast to one of theirs.
export const DetailedSettings = z.discriminatedUnion(
  'kind',
  KIND_SCREENS as unknown as [typeof SCREEN_MEMBERS.cdm],
) as unknown as z.ZodType<Detailed>;
export type DetailedSettings = Detailed;
/** The kinds the Detailed screen's settings take, in the registry's order. */
export const DETAILED_SETTINGS_KINDS: readonly DetailedKind[] = RUN_KINDS.filter(
  (k) => k.screen?.schema ?? SCREEN_MEMBERS[k.id as keyof typeof SCREEN_MEMBERS],
).map((k) => k.id as DetailedKind);
export type { DetailedKind };
export { TargetPath };

/** The hash test: a file the user picked (read-only: never modified), or a test file DiskDial
 *  writes on a target and removes afterwards. */
/** A read's cache request, the values of `--cache`. */
const ReadCache = z.enum(['auto', 'buffered-flushed', 'buffered']);

export const HashSettings = z
  .object({
    source: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('file'), path: TargetPath }).strict(),
      z
        .object({
          kind: z.literal('generate'),
          /** The folder to write the test file in. */
          target: TargetPath,
          sizeBytes: TestFileSize,
        })
        .strict(),
    ]),
    algo: z.enum(['sha256', 'sha512']),
    /** As `diskdial hash --cache` (and run's): how the file is read; default auto. */
    cache: ReadCache.optional(),
    /** An expected digest (hex), or the path of a .sha256 / .sha512 / SHA256SUMS-style file. Only
     *  a file so named, by its full path, is ever read: a page cannot make the core read (and
     *  report on) any other file. */
    verify: z
      .string()
      .min(1)
      .max(4096)
      .refine((v) => parsePastedDigest(v) !== undefined || isChecksumFilePath(v), {
        message: 'must be a SHA-256 or SHA-512 digest, or the full path of a checksum file (.sha256, .sha512, SHA256SUMS, SHA512SUMS)',
      })
      .optional(),
  })
  .strict();
export type HashSettings = z.infer<typeof HashSettings>;

/** The folder check: a folder whose files are hashed (only read) and checked against the
 *  manifest at its top (SHA256SUMS, or the SHA512SUMS / MD5SUMS there is), which is written when
 *  there is none. `update` rewrites it after the check; `verify-only` never writes one. */
export const CheckSettings = z
  .object({
    folder: TargetPath,
    algo: z.enum(['sha256', 'sha512']).optional(),
    action: z.enum(['check', 'verify-only', 'update']),
    /** As `diskdial check --cache`: how the files are read; default auto. */
    cache: ReadCache.optional(),
  })
  .strict();
export type CheckSettings = z.infer<typeof CheckSettings>;

/** A saved result's id (a UUID for results made here; imported ones keep theirs). */
export const ResultId = z.string().min(1).max(100).regex(RESULT_ID_RE, 'must be a result id (letters, digits, . _ -)');

/** Text exports: Markdown table, CrystalDiskMark-style text, CSV, the JSON document(s), a
 *  self-contained HTML page. */
export const EXPORT_FORMATS = ['md', 'txt', 'csv', 'json', 'html'] as const;
export const ExportFormat = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const FormatIdSchema = z.enum(FORMAT_IDS);

/** What the user confirmed in the wizard. The main process checks it again against the disk
 *  itself before every erase; nothing here is trusted. */
export const WizardSettingsSchema = z
  .object({
    /** The disk to erase (its path). */
    device: z.string().min(1).max(256),
    /** The identity the user saw and confirmed; checked again before every erase. */
    identity: z
      .object({
        path: z.string().min(1).max(256),
        sizeBytes: z.number().int().min(0),
        model: z.string().max(256).optional(),
        serial: z.string().max(256).optional(),
        // The rest is filled in by the main process from the disk as it lists it now.
        wwn: z.string().max(256).optional(),
        byId: z.array(z.string().max(256)).max(64).optional(),
        backingFile: z.string().max(4096).optional(),
        backingInode: z
          .object({ ino: z.number().int().min(0), dev: z.string().max(32) })
          .strict()
          .optional(),
        usbSerial: z.string().max(256).optional(),
      })
      .strict(),
    /** The disk's name, typed by the user: must equal WizardDisk.name. */
    confirmName: z.string().min(1).max(256),
    /** Formats to test, in order. */
    formats: z.array(FormatIdSchema).min(1).max(16),
    /** quick: the Quick Test at each of `sizes`; cdm: the CrystalDiskMark grid (Default, 1 GiB);
     *  files: the many-file test (`filesSet`); write: a sequential write only at each of `sizes`;
     *  a kind's own plan (its registry entry's wizard hook: the sustained write, free space less
     *  the reserve), once per format; hash: the Hash test on a
     *  file of each of `sizes` (model/wizard/protocols.ts names them after the seeds). */
    plan: z.enum(WIZARD_PLAN_KINDS),
    /** files: the set — Quick (40 files, 2–600 MB), Standard (Stibium's 160 files, 2 MB–2 GB,
     *  53 GB; scaled to the disk when it does not fit) or Custom (`files`). Default quick. */
    filesSet: z.enum(['quick', 'standard', 'custom']).optional(),
    /** files, custom set: how many files and their smallest and largest size. */
    files: z
      .object({
        count: z.number().int().min(2).max(10000),
        minBytes: z.number().int().min(4096),
        maxBytes: z
          .number()
          .int()
          .min(4096)
          .max(64 * GiB),
      })
      .strict()
      .refine((f) => f.maxBytes >= f.minBytes, { message: 'the largest file must be at least as large as the smallest' })
      .optional(),
    /** Also measure every format through the page cache, flushed ("as applications see it"), so
     *  a format that cannot do direct I/O (fscrypt) is compared on like rows. */
    commonMode: z.boolean().optional(),
    /** quick, write and hash: stress (or file) sizes in bytes (default 1 GB and 5 GB). */
    sizes: z
      .array(
        z
          .number()
          .int()
          .min(16 * MiB)
          .max(64 * GiB),
      )
      .min(1)
      .max(4),
    /** Runs per format (and per size), default 5. */
    runs: z.number().int().min(1).max(20),
    /** Rest between runs, seconds (default 300: an SSD's cache drains). */
    restSeconds: z.number().min(0).max(3600),
    /** The format the disk is left in at the end. */
    finalFormat: FormatIdSchema,
    /** Volume label for every format (default DISKDIAL). */
    volumeLabel: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,11}$/, 'must be 1–11 letters, digits, - or _')
      .optional(),
    /** Allowed to erase an internal (non-system) disk: the advanced switch. */
    allowInternal: z.boolean().optional(),
  })
  .strict();

export type WizardSettings = z.infer<typeof WizardSettingsSchema>;

/** "Compare setups": the same tests on each named setup in turns (model/campaign.ts). Each test
 *  runs with its kind's defaults, `runs` runs, and `sizeBytes` where the kind takes a size. */
export const CampaignSettings = z
  .object({
    target: TargetPath,
    setups: z.array(z.string().trim().min(1).max(LABEL_MAX)).min(2).max(MAX_SETUPS),
    kinds: z.array(z.enum(TEST_KINDS)).min(1).max(TEST_KINDS.length),
    runs: z.number().int().min(1).max(100),
    sizeBytes: TestFileSize.optional(),
    /** A test's own size, overriding sizeBytes for it (a 1 GB Quick Test beside a small sweep). */
    testSizes: z.partialRecord(z.enum(TEST_KINDS), TestFileSize).optional(),
  })
  .strict();
export type CampaignSettings = z.infer<typeof CampaignSettings>;
