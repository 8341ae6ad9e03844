// The one dispatcher behind both front doors (Electron's IPC and browser mode's WebSocket):
// looks a channel up in contract.ts, validates its payload with the channel's zod schema, routes
// it to its service (the rules are the services'), and answers with an IpcResult. It never throws and never trusts its input: any
// value at all may arrive here from a page or a socket.
import type { z } from 'zod';
import { DiskDialError, toPlainError } from '../model/errors.js';

import path from 'node:path';
import type { DetailedTestService } from '../services/detailed-test.js';
import type { HashTestService } from '../services/hash-test.js';
import type { FolderCheckService } from '../services/folder-check.js';
import type { HistoryService } from '../services/history.js';
import type { JobSlot, TestDoneChannel } from '../services/job-slot.js';
import type { WizardService } from '../services/wizard.js';
import type { CampaignService } from '../services/campaign.js';
import type { QuickTestService } from '../services/quick-test.js';
import type { TargetsService } from '../services/targets.js';
import {
  channels,
  requests,
  type Dispatcher,
  type EventChannel,
  type EventSink,
  type IpcResult,
  type RequestChannel,
  type RequestPayload,
  type ResponseMap,
} from './contract.js';
import type { AppInfo } from '../model/history.js';
import type { IpcError } from '../model/events.js';

export interface DispatcherDeps {
  quick: QuickTestService;
  detailed: DetailedTestService;
  hash: HashTestService;
  /** The folder check; absent in a dispatcher built without it (some tests). */
  check?: FolderCheckService;
  targets: TargetsService;
  /** A value, or a function asked on each request (e.g. the engine's version from its process). */
  appInfo: AppInfo | (() => Promise<AppInfo>);
  /** The OS folder picker (Electron only); resolves null when the user cancels. */
  chooseFolder?: () => Promise<string | null>;
  /** The OS file picker (Electron only); resolves null when the user cancels. */
  chooseFile?: () => Promise<string | null>;
  /** Saved results: list, label, delete, import, export, share card. */
  history: HistoryService;
  /** The OS save dialog, then the write (Electron only); resolves the path, or null when cancelled. */
  saveFile?: (filename: string, data: Buffer) => Promise<string | null>;
  /** The system clipboard (Electron only). */
  writeClipboard?: (content: { text: string } | { png: Buffer }) => Promise<void> | void;
  /** The format-and-compare wizard; absent where the platform has no provider. */
  wizard?: WizardService;
  /** "Compare setups" (absent in a front door that does not offer it). */
  campaign?: CampaignService;
  /** HTML → PDF through the OS save dialog (Electron only); null when cancelled. */
  savePdf?: (html: string, filename: string) => Promise<string | null>;
}

const isTestDone = (c: EventChannel): c is TestDoneChannel =>
  c === 'quick.done' || c === 'detailed.done' || c === 'hash.done' || c === 'check.done';

type Handlers = { [C in RequestChannel]: (payload: RequestPayload<C>, sink: EventSink) => Promise<ResponseMap[C]> };

export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const { quick, detailed, hash, check, targets, history, wizard, campaign } = deps;
  // The one slot every test service shares: one test at a time, whichever screen starts it.
  const slot = (): JobSlot => quick.slot;

  const needCheck = (): FolderCheckService => {
    if (!check) throw new DiskDialError('The folder check is not available here.', { code: 'ERR_UNSUPPORTED' });
    return check;
  };
  const needWizard = (): WizardService => {
    if (!wizard) throw new DiskDialError('The format-and-compare wizard is not available on this system.', { code: 'ERR_UNSUPPORTED' });
    return wizard;
  };
  const unsupported = (message: string): never => {
    throw new DiskDialError(message, { code: 'ERR_UNSUPPORTED' });
  };
  const needCampaign = (): CampaignService => campaign ?? unsupported('Comparing setups is not available here.');

  const handlers: Handlers = {
    'app.info': async () => ({ ...(typeof deps.appInfo === 'function' ? await deps.appInfo() : deps.appInfo) }),
    'targets.list': () => targets.list(),
    'targets.describe': ({ path }) => targets.describe(path),
    'targets.choose': async () => {
      const chosen = await (deps.chooseFolder ?? unsupported('Choosing a folder needs the desktop app; type a path instead.'))();
      return chosen === null ? null : targets.describe(chosen);
    },
    'quick.start': (settings, sink) => quick.request(settings, sink),
    'quick.stop': async ({ jobId }) => ({ stopped: quick.stop(jobId) }),
    'detailed.start': (settings, sink) => detailed.request(settings, sink),
    'detailed.stop': async ({ jobId }) => ({ stopped: detailed.stop(jobId) }),
    'files.choose': async () => {
      const chosen = await (deps.chooseFile ?? unsupported('Choosing a file needs the desktop app; type its path instead.'))();
      return chosen === null ? null : targets.describeFile(chosen);
    },
    'hash.start': (settings, sink) => hash.request(settings, sink),
    'hash.stop': async ({ jobId }) => ({ stopped: hash.stop(jobId) }),
    'check.start': (settings, sink) => needCheck().request(settings, sink),
    'check.stop': async ({ jobId }) => ({ stopped: needCheck().stop(jobId) }),
    'history.list': (query) => history.list(query),
    'history.drive': ({ driveKey }) => history.drive(driveKey),
    'history.get': ({ id }) => history.get(id),
    'history.label': ({ id, label }) => history.label(id, label),
    'history.delete': ({ ids }) => history.delete(ids),
    'history.import': ({ json, name }) => history.import(json, name),
    'history.export': ({ ids, format, baseline, fps }) => history.export(ids, format, baseline, fps),
    'share.card': ({ id, scale }) => history.card(id, scale),
    'files.save': async ({ filename, data, encoding }) => {
      const save = deps.saveFile ?? unsupported('Saving through a dialog needs the desktop app; the page downloads the file instead.');
      const saved = await save(path.basename(filename), Buffer.from(data, encoding));
      return saved === null ? null : { path: saved };
    },
    'disks.list': ({ includeInternal }) => needWizard().listDisks(includeInternal === true),
    'formats.list': () => needWizard().formats(),
    'wizard.start': (settings, sink) => needWizard().request(settings, sink),
    'wizard.stop': async ({ jobId }) => ({ stopped: wizard?.stop(jobId) ?? false }),
    'wizard.plans': async () => (wizard ? wizard.unfinished() : []),
    'wizard.resume': ({ planId, confirmName }, sink) => needWizard().requestResume(planId, confirmName, sink),
    'wizard.discard': async ({ planId }) => ({ discarded: await needWizard().discard(planId) }),
    'campaign.start': (settings, sink) => needCampaign().request(settings, sink),
    'campaign.continue': async ({ campaignId, go }) => ({ accepted: needCampaign().continue(campaignId, go) }),
    'campaign.stop': async ({ jobId }) => ({ stopped: campaign?.stop(jobId) ?? false }),
    'campaign.list': async () => (campaign ? campaign.unfinished() : []),
    'campaign.resume': ({ campaignId }, sink) => needCampaign().requestResume(campaignId, sink),
    'campaign.discard': async ({ campaignId }) => ({ discarded: await needCampaign().discard(campaignId) }),
    'report.export': ({ ids, format, baseline }) => history.report(ids, format, baseline),
    'report.pdf': async ({ ids, baseline }) => {
      const savePdf = deps.savePdf ?? unsupported('Saving a PDF needs the desktop app; print the report from the browser instead.');
      const html = await history.report(ids, 'html', baseline);
      const saved = await savePdf(html.text, html.filename.replace(/\.html$/, '.pdf'));
      return saved === null ? null : { path: saved };
    },
    'clipboard.write': async (content) => {
      const write = deps.writeClipboard ?? unsupported("The clipboard is the page's in browser mode.");
      await write('text' in content ? { text: content.text } : { png: Buffer.from(content.pngBase64, 'base64') });
      return { written: true as const };
    },
  };

  /** A test started here that the slot lets go of after a Stop (its drive not answering) still
   *  ends on its screen: as stopped, with what was left. */
  const tellWhenAbandoned = (name: RequestChannel, value: unknown): void => {
    const done = (channels[name] as { job?: EventChannel }).job;
    const jobId = (value as { jobId?: unknown } | null)?.jobId;
    if (done && isTestDone(done) && typeof jobId === 'string') slot().whenAbandoned(jobId, done);
  };

  const dispatcher: Required<Dispatcher> = {
    async handle(channel: unknown, payload: unknown, sink: EventSink): Promise<IpcResult<unknown>> {
      try {
        if (typeof channel !== 'string' || !Object.hasOwn(requests, channel)) {
          return fail('ERR_UNKNOWN_CHANNEL', `Unknown request ${describeChannel(channel)}.`);
        }
        const name = channel as RequestChannel;
        const schema: z.ZodType = requests[name];
        // A request with no arguments may arrive with no payload at all (JSON drops undefined).
        const parsed = schema.safeParse(payload === undefined ? {} : payload);
        if (!parsed.success) return fail('ERR_INVALID_PAYLOAD', formatIssues(parsed.error.issues, payload));
        const handler = handlers[name] as (p: unknown, s: EventSink) => Promise<unknown>;
        const value = await handler(parsed.data, sink);
        tellWhenAbandoned(name, value);
        return { ok: true, value };
      } catch (err) {
        return { ok: false, error: toIpcError(err) };
      }
    },
    async close(): Promise<void> {
      await slot()
        .stopAll()
        .catch(() => undefined);
    },
    async release(sink: EventSink): Promise<void> {
      await slot()
        .stopFor(sink)
        .catch(() => undefined);
    },
  };
  return dispatcher;
}

function fail(code: string, message: string): IpcResult<never> {
  return { ok: false, error: { code, message } };
}

/** Any thrown value as {code, message}: ours and Node's keep their code, the rest are internal. */
export function toIpcError(err: unknown): IpcError {
  try {
    const code = (err as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code) {
      const plain = toPlainError(err);
      return { code: plain.code, message: plain.message };
    }
    const message = err instanceof Error ? err.message : String(err);
    return { code: 'ERR_INTERNAL', message: `DiskDial hit an internal error: ${clip(message, 200)}` };
  } catch {
    return { code: 'ERR_INTERNAL', message: 'DiskDial hit an internal error.' };
  }
}

// ---- validation messages in plain words ------------------------------------------------------

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function describeChannel(channel: unknown): string {
  return typeof channel === 'string' ? JSON.stringify(clip(channel, 60)) : `(a ${channel === null ? 'null' : typeof channel}, not a name)`;
}

/** What a value is, as a person would say it. */
function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : Number.isFinite(v) ? 'a number' : v > 0 ? 'infinity' : 'minus infinity';
  if (typeof v === 'string') return 'text';
  if (typeof v === 'boolean') return 'true/false';
  if (typeof v === 'object') return 'an object';
  return typeof v;
}

const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  object: 'an object',
  boolean: 'true or false',
  array: 'a list',
};

const MiB = 1024 * 1024;
/** Byte counts read better in the units the UI uses. */
function amount(field: string, n: number): string {
  if (/bytes$/i.test(field) && n >= MiB) {
    const gib = n / (1024 * MiB);
    return Number.isInteger(gib) ? `${gib} GiB` : `${Math.round((n / MiB) * 100) / 100} MiB`;
  }
  return String(n);
}

/** The value at a path inside the payload, read without invoking getters of odd prototypes. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: unknown;
  origin?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  values?: unknown;
  keys?: unknown;
  /** invalid_union on a discriminated union: the allowed values of the discriminator. */
  options?: unknown;
  discriminator?: unknown;
}

function issueText(issue: Issue, payload: unknown): string {
  const field = issue.path.map(String).join('.');
  const value = valueAt(payload, issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      if (field === '') return `the request must be an object, not ${kindOf(value ?? payload)}`;
      if (value === undefined) return 'is required';
      if (issue.expected === 'int' && typeof value === 'number' && Number.isFinite(value)) return 'must be a whole number';
      // 1e999 in JSON arrives as Infinity: a number to typeof, not one to zod.
      if (typeof value === 'number' && Math.abs(value) === Infinity) return `must be a finite number, not ${kindOf(value)}`;
      const expected = EXPECTED[String(issue.expected)] ?? String(issue.expected);
      return `must be ${expected}, not ${kindOf(value)}`;
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? 'must not be empty' : `must be at least ${min} characters`;
      if (issue.origin === 'array') return `must have at least ${min} items`;
      return `must be at least ${amount(field, min)}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `must be at most ${max} characters`;
      if (issue.origin === 'array') return `must have at most ${max} items`;
      return `must be at most ${amount(field, max)}`;
    }
    case 'invalid_value':
      if (value === undefined && field !== '') return 'is required';
      return Array.isArray(issue.values)
        ? `must be one of ${issue.values.map((v) => clip(String(v), 40)).join(', ')}`
        : 'has a value that is not allowed';
    case 'invalid_union':
      // A discriminated union whose tag is missing or unknown: say which tags there are.
      if (Array.isArray(issue.options) && issue.discriminator !== undefined) {
        return `must be one of ${issue.options.map((v) => clip(String(v), 40)).join(', ')}`;
      }
      return clip(issue.message, 200);
    case 'unrecognized_keys': {
      const keys = Array.isArray(issue.keys) ? issue.keys.map((k) => JSON.stringify(clip(String(k), 40))) : [];
      const shown = keys.slice(0, 3).join(', ') + (keys.length > 3 ? ` and ${keys.length - 3} more` : '');
      return `unknown field${keys.length === 1 ? '' : 's'} ${shown}`;
    }
    default:
      return clip(issue.message, 200);
  }
}

/** "sizeBytes: must be at least 16 MiB; mode: must be one of runs, continuous" — one issue per
 *  field (zod can report two for one value), at most four. */
export function formatIssues(issues: readonly Issue[], payload: unknown): string {
  const byField = new Map<string, Issue>();
  for (const issue of issues) {
    const key = issue.path.map(String).join('.');
    const seen = byField.get(key);
    // For a huge number zod reports "outside the safe integer range" and "above the maximum":
    // the maximum is the one a person can act on.
    if (!seen || (seen.code === issue.code && seen.origin === 'int')) byField.set(key, issue);
    else if (key === '' && issue.code === 'unrecognized_keys') byField.set('\0keys', issue);
  }
  const parts = [...byField.entries()].map(([key, issue]) => {
    const field = key === '\0keys' ? '' : key;
    const text = issueText(issue, payload);
    return field ? `${clip(field, 60)}: ${text}` : text.charAt(0).toUpperCase() + text.slice(1);
  });
  return parts.slice(0, 4).join('; ') + (parts.length > 4 ? `; and ${parts.length - 4} more` : '');
}
