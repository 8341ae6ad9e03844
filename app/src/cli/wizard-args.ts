// The wizard and report commands' arguments (see wizard-commands.ts for what they do): parsed
// here, apart from the code that runs them, so \`diskdial --help\` or \`run\` never loads the wizard.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseSize } from '../model/units.js';
import { FORMAT_IDS, WIZARD_PLAN_KINDS } from '../model/wizard/types.js';
import { NO_DIRECT_IO, PROTOCOL_IDS, protocolOf } from '../model/wizard/protocols.js';
import { formatIssues } from '../ipc/dispatch.js';
import { parseOptions, UsageError } from './usage-error.js';
import { WizardSettingsSchema, type ExportFormat, type WizardSettings } from '../model/settings.js';
import { parseExportOptions } from './export-options.js';

export const WIZARD_COMMANDS = ['disks', 'compare', 'report'] as const;
export type WizardCommandName = (typeof WIZARD_COMMANDS)[number];

export type WizardCommand =
  | { command: 'disks'; json: boolean; internal: boolean }
  | { command: 'compare'; action: 'plans'; json: boolean }
  | { command: 'compare'; action: 'resume'; planId: string; confirm?: string; json: boolean; report?: string }
  | { command: 'compare'; action: 'run'; settings: WizardSettings; json: boolean; report?: string; deviceOnly: true }
  | { command: 'report'; refs: string[]; format: ExportFormat; out?: string; baseline?: string; fps?: number };

function restSeconds(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(s|m|min|h)?$/i.exec(text.trim());
  if (!m) throw new UsageError(`--rest must be minutes, or a time like 90s, 5m; not "${text}"`);
  const unit = (m[2] ?? 'm').toLowerCase();
  const s = Number(m[1]) * (unit === 's' ? 1 : unit === 'h' ? 3600 : 60);
  if (s > 3600) throw new UsageError('--rest is at most 60 minutes');
  return s;
}

export function parseWizardCommand(name: WizardCommandName, argv: readonly string[]): WizardCommand {
  if (name === 'disks') {
    const { values: v, positionals: p } = parseOptions(() =>
      parseArgs({
        args: [...argv],
        options: { json: { type: 'boolean' }, internal: { type: 'boolean' } },
        allowPositionals: true,
        strict: true,
      }),
    );
    if (p.length) throw new UsageError(`unexpected argument "${p[0]}"; disks takes no arguments`);
    return { command: 'disks', json: v.json === true, internal: v.internal === true };
  }
  if (name === 'report') {
    return {
      command: 'report',
      ...parseExportOptions(argv, {
        fallback: 'md',
        noRefs: 'report needs results: ids from diskdial history, or exported .json files',
        fps: true,
      }),
    };
  }

  const { values: v, positionals: p } = parseOptions(() =>
    parseArgs({
      args: [...argv],
      options: {
        device: { type: 'string' },
        formats: { type: 'string' },
        plan: { type: 'string' },
        protocol: { type: 'string' },
        'files-set': { type: 'string' },
        files: { type: 'string' },
        'min-size': { type: 'string' },
        'max-size': { type: 'string' },
        'common-mode': { type: 'boolean' },
        'no-common-mode': { type: 'boolean' },
        size: { type: 'string' },
        runs: { type: 'string' },
        rest: { type: 'string' },
        final: { type: 'string' },
        label: { type: 'string' },
        internal: { type: 'boolean' },
        confirm: { type: 'string' },
        json: { type: 'boolean' },
        report: { type: 'string' },
        plans: { type: 'boolean' },
        resume: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    }),
  );
  if (p.length) throw new UsageError(`unexpected argument "${p[0]}"; compare takes --device DEV (see diskdial --help)`);
  const json = v.json === true;
  const report = typeof v.report === 'string' ? path.resolve(v.report) : undefined;
  if (report && !/\.(md|csv|json|html|txt)$/i.test(report)) throw new UsageError('--report must end in .md, .csv, .json, .html or .txt');
  if (v.plans) return { command: 'compare', action: 'plans', json };
  // A resume may leave --confirm out when the disk's identity is unique; runWizardCommand decides.
  if (typeof v.resume === 'string')
    return {
      command: 'compare',
      action: 'resume',
      planId: v.resume,
      ...(typeof v.confirm === 'string' && v.confirm !== '' ? { confirm: v.confirm } : {}),
      json,
      ...(report ? { report } : {}),
    };
  if (typeof v.confirm !== 'string' || v.confirm === '')
    throw new UsageError("--confirm NAME is required: the disk's name as `diskdial disks` shows it; nothing is erased without it");
  if (typeof v.device !== 'string')
    throw new UsageError('--device is required: the whole disk to erase, e.g. --device /dev/sdb (see diskdial disks)');
  if (typeof v.formats !== 'string')
    throw new UsageError(`--formats is required: a comma-separated list of ${FORMAT_IDS.slice(0, 8).join(', ')}`);
  const formats = v.formats
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const bad = formats.find((f) => !(FORMAT_IDS as readonly string[]).includes(f));
  if (bad) throw new UsageError(`unknown format "${bad}"; formats: ${FORMAT_IDS.join(', ')}`);
  const protocol = typeof v.protocol === 'string' ? protocolOf(v.protocol) : undefined;
  if (typeof v.protocol === 'string' && !protocol)
    throw new UsageError(`unknown protocol "${v.protocol}"; protocols: ${PROTOCOL_IDS.join(', ')}`);
  if (protocol && v.plan !== undefined) throw new UsageError('give --protocol or --plan, not both');
  const plan = protocol?.settings.plan ?? v.plan ?? 'quick';
  if (!(WIZARD_PLAN_KINDS as readonly string[]).includes(plan))
    throw new UsageError(`--plan must be ${WIZARD_PLAN_KINDS.join(', ')}; not "${plan}"`);
  let sizes = protocol?.settings.sizes ?? [1e9, 5e9];
  if (typeof v.size === 'string') {
    if (!['quick', 'write', 'hash'].includes(plan)) throw new UsageError('--size applies to the quick, write and hash plans only');
    try {
      sizes = v.size.split(',').map((x) => parseSize(x, '--size'));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  } else if (plan === 'hash') sizes = [1e9];
  const files = filesOptions(v, plan, protocol?.settings.filesSet);
  // On by default when a format cannot do direct I/O: then its row has a like row to meet.
  const commonMode = v['no-common-mode'] ? false : v['common-mode'] === true || formats.some((f) => NO_DIRECT_IO.has(f));
  const candidate = {
    device: path.resolve(v.device),
    // Filled in from the disk as listed before anything runs (runCompare).
    identity: { path: path.resolve(v.device), sizeBytes: 0 },
    confirmName: v.confirm,
    formats,
    plan,
    sizes,
    ...files,
    ...(commonMode ? { commonMode: true } : {}),
    runs: v.runs === undefined ? (protocol?.settings.runs ?? 5) : Number(v.runs),
    restSeconds: v.rest === undefined ? 300 : restSeconds(v.rest),
    finalFormat: v.final ?? formats.find((f) => !/fscrypt|luks|encrypted|bitlocker/.test(f)) ?? 'ext4',
    ...(typeof v.label === 'string' ? { volumeLabel: v.label } : {}),
    ...(v.internal ? { allowInternal: true } : {}),
  };
  const parsed = WizardSettingsSchema.safeParse(candidate);
  if (!parsed.success) {
    const text = formatIssues(parsed.error.issues as never, candidate)
      .replace(/^runs:/, '--runs:')
      .replace(/^sizes\.\d+:/, '--size:')
      .replace(/^finalFormat:/, '--final:')
      .replace(/^files(\.\w+)?:/, '--files:')
      .replace(/^volumeLabel:/, '--label:');
    throw new UsageError(text);
  }
  return { command: 'compare', action: 'run', settings: parsed.data, json, ...(report ? { report } : {}), deviceOnly: true };
}

/** The many-file plan's set: --files-set quick|standard|custom, a custom set's --files, --min-size
 *  and --max-size (any of those makes it custom). */
function filesOptions(
  v: { 'files-set'?: string; files?: string; 'min-size'?: string; 'max-size'?: string },
  plan: string,
  fromProtocol: WizardSettings['filesSet'],
): Pick<WizardSettings, 'filesSet' | 'files'> {
  const custom = v.files !== undefined || v['min-size'] !== undefined || v['max-size'] !== undefined;
  if (plan !== 'files') {
    if (custom || v['files-set'] !== undefined)
      throw new UsageError('--files-set, --files, --min-size and --max-size apply to --plan files only');
    return {};
  }
  const set = v['files-set'] ?? (custom ? 'custom' : (fromProtocol ?? 'quick'));
  if (!['quick', 'standard', 'custom'].includes(set)) throw new UsageError(`--files-set must be quick, standard or custom, not "${set}"`);
  if (set !== 'custom') {
    if (custom) throw new UsageError(`--files, --min-size and --max-size make a custom set; leave out --files-set ${set}`);
    return { filesSet: set as 'quick' | 'standard' };
  }
  const size = (text: string | undefined, flag: string, fallback: number): number => {
    if (text === undefined) return fallback;
    try {
      return parseSize(text, flag);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  };
  const count = v.files === undefined ? 40 : Number(v.files);
  if (!Number.isInteger(count) || count < 2 || count > 10000)
    throw new UsageError(`--files must be a whole number from 2 to 10000, not "${v.files}"`);
  return {
    filesSet: 'custom',
    files: { count, minBytes: size(v['min-size'], '--min-size', 2e6), maxBytes: size(v['max-size'], '--max-size', 6e8) },
  };
}
