// The wizard and report commands' arguments (see wizard-commands.ts for what they do): parsed
// here, apart from the code that runs them, so \`diskdial --help\` or \`run\` never loads the wizard.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseSize } from '../model/units.js';
import { FORMAT_IDS } from '../model/wizard/types.js';
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
  | { command: 'report'; refs: string[]; format: ExportFormat; out?: string; baseline?: string };

export const WIZARD_HELP = `Format and compare (Linux; erases the whole disk, every format in turn):
  diskdial disks [--json] [--internal]   whole disks: which may be erased, and the formats
                                 this machine can make
  diskdial compare --device DEV --formats ext4,xfs,btrfs --confirm NAME [options]
      --plan quick|cdm|files     quick (default): the Quick Test at each --size;
                                 cdm: the CrystalDiskMark grid; files: the many-file test
      --size 1GB,5GB             quick: stress sizes (default 1GB,5GB)
      --runs N                   runs per format and size (default 5)
      --rest MIN                 rest between runs, minutes or 90s/5m (default 5)
      --final FMT                the format the disk is left in (default the first)
      --internal                 allow an internal (non-system) disk
      --report FILE              also write the report (.md, .csv, .json, .html)
      --json                     print the plan, the report and the results as JSON
    NAME is the disk's name as \`diskdial disks\` shows it (its model, or e.g. loop7):
    nothing is erased unless it matches. A disk image works: losetup -fP --show disk.img
  diskdial compare --plans       plans that did not finish (a crash, a pulled disk, Ctrl-C)
  diskdial compare --resume PLAN [--confirm NAME]   go on from the first unfinished format;
                                 shows the disk there now; --confirm is needed again unless
                                 the disk has a serial, a WWN or a partition table DiskDial wrote
  diskdial report <id|file>... [--format md|csv|json|html|txt] [--out FILE] [--baseline KEY]
                                 the comparison report (format × read/write × size) of
                                 saved results: a wizard's, or any side by side
`;

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
      ...parseExportOptions(argv, { fallback: 'md', noRefs: 'report needs results: ids from diskdial history, or exported .json files' }),
    };
  }

  const { values: v, positionals: p } = parseOptions(() =>
    parseArgs({
      args: [...argv],
      options: {
        device: { type: 'string' },
        formats: { type: 'string' },
        plan: { type: 'string' },
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
  const plan = v.plan ?? 'quick';
  if (!['quick', 'cdm', 'files'].includes(plan)) throw new UsageError(`--plan must be quick, cdm or files, not "${plan}"`);
  let sizes = [1e9, 5e9];
  if (typeof v.size === 'string') {
    if (plan !== 'quick') throw new UsageError('--size applies to --plan quick only');
    try {
      sizes = v.size.split(',').map((x) => parseSize(x, '--size'));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  const candidate = {
    device: path.resolve(v.device),
    // Filled in from the disk as listed before anything runs (runCompare).
    identity: { path: path.resolve(v.device), sizeBytes: 0 },
    confirmName: v.confirm,
    formats,
    plan,
    sizes,
    runs: v.runs === undefined ? 5 : Number(v.runs),
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
      .replace(/^volumeLabel:/, '--label:');
    throw new UsageError(text);
  }
  return { command: 'compare', action: 'run', settings: parsed.data, json, ...(report ? { report } : {}), deviceOnly: true };
}
