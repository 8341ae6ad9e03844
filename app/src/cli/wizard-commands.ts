// The CLI's wizard and report commands:
//   diskdial disks [--json] [--internal]          whole disks, which may be erased, and the formats
//   diskdial compare --device DEV --formats … --confirm NAME [options]   the wizard, headless
//   diskdial compare --resume PLAN [--confirm NAME]   an interrupted plan, from its first unfinished format
//   diskdial compare --plans                       plans that did not finish
//   diskdial report <id|file>... [--format md|csv|json|html|txt] [--out FILE] [--baseline KEY]
// Same services as the app (WizardService, HistoryStore); progress on stderr, the report on stdout.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runTest } from '../core/engine.js';
import { HistoryStore } from '../core/history.js';
import { parseSize } from '../model/units.js';
import { renderFormatReport } from '../model/report/format-report.js';
import { sizeText } from '../model/report/metrics.js';
import type { ResultDocument } from '../model/result.js';
import { identityOf } from '../model/wizard/identity.js';
import { FORMAT_IDS, type WizardDisk } from '../model/wizard/types.js';
import { type EventChannel, type EventMap } from '../ipc/contract.js';
import { formatIssues } from '../ipc/dispatch.js';
import { HistoryService } from '../services/history.js';
import { type WizardService, wizardService } from '../services/wizard.js';
import { parseOptions, UsageError } from './usage-error.js';
import { WizardSettingsSchema, type ExportFormat, type WizardSettings } from '../model/settings.js';
import type { WizardDoneEvent } from '../model/events.js';
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

export interface WizardIo {
  out(text: string): void;
  err(line: string): void;
  /** Stops a running plan (Ctrl-C). */
  signal: AbortSignal;
}

function disksTable(disks: readonly WizardDisk[]): string {
  if (disks.length === 0) return 'No disks found.\n';
  const lines = disks.map((d) => {
    const parts = d.partitions.map(
      (p) =>
        `${p.path}${p.fs ? ` ${p.fs}` : ''}${p.label ? ` "${p.label}"` : ''}${p.mountpoints.length ? ` at ${p.mountpoints.join(', ')}` : ''}`,
    );
    const head = `${d.path.padEnd(14)} ${d.name.padEnd(26)} ${sizeText(d.sizeBytes, true).padStart(8)}  ${d.bus.padEnd(7)} ${d.offered ? 'can be erased' : `not offered: ${d.reason ?? ''}`}`;
    return [head, ...(d.backingFile ? [`${' '.repeat(15)}image ${d.backingFile}`] : []), ...parts.map((p) => `${' '.repeat(15)}${p}`)].join(
      '\n',
    );
  });
  return `${'DEVICE'.padEnd(14)} ${'NAME (type it to confirm)'.padEnd(26)} ${'SIZE'.padStart(8)}  ${'BUS'.padEnd(7)} ERASE\n${lines.join('\n')}\n`;
}

async function resolveDocs(store: HistoryStore, refs: readonly string[]): Promise<ResultDocument[]> {
  const { readFileSync, existsSync } = await import('node:fs');
  const { parseResultFile } = await import('../model/result-parse.js');
  const docs: ResultDocument[] = [];
  for (const ref of refs) {
    if (existsSync(ref) || ref.endsWith('.json')) {
      try {
        docs.push(...parseResultFile(readFileSync(ref, 'utf8')));
      } catch (err) {
        throw new UsageError(`${ref}: ${(err as { reason?: string }).reason ?? (err as Error).message}`);
      }
    } else docs.push(await store.get(ref));
  }
  return docs;
}

export async function runWizardCommand(cmd: WizardCommand, io: WizardIo, service?: WizardService): Promise<number> {
  const store = new HistoryStore();
  if (cmd.command === 'report') {
    const docs = await resolveDocs(store, cmd.refs);
    const file = renderFormatReport(docs, cmd.format, cmd.baseline !== undefined ? { baseline: cmd.baseline } : {});
    if (cmd.out) {
      await writeFile(cmd.out, file.text);
      io.err(`wrote ${cmd.out}`);
    } else io.out(file.text);
    return 0;
  }
  const wizard = service ?? (await wizardService(runTest, new HistoryService(store))).wizard;
  if (!wizard) throw new UsageError(`The format-and-compare wizard runs on Linux, macOS and Windows, not on ${process.platform}.`);
  if (cmd.command === 'disks') {
    const disks = await wizard.listDisks(cmd.internal);
    const formats = await wizard.formats();
    if (cmd.json) io.out(`${JSON.stringify({ disks, formats }, null, 2)}\n`);
    else {
      const can = formats.filter((f) => f.available).map((f) => f.id);
      const cannot = formats.filter((f) => !f.available).map((f) => `${f.id} (${f.reason ?? 'not available'})`);
      io.out(
        `${disksTable(disks)}\nFormats this machine can make: ${can.join(', ') || 'none'}\n${cannot.length ? `Not here: ${cannot.join('; ')}\n` : ''}`,
      );
    }
    return 0;
  }
  if (cmd.action === 'plans') {
    const plans = await wizard.unfinished();
    if (cmd.json) io.out(`${JSON.stringify(plans, null, 2)}\n`);
    else if (plans.length === 0) io.out('No unfinished plans.\n');
    else {
      for (const p of plans) {
        const done = p.steps.filter((s) => s.status === 'done').length;
        io.out(
          `${p.id}  ${p.settings.device} "${p.settings.confirmName}"  ${done} of ${p.steps.length} formats done (${p.steps.map((s) => `${s.format}:${s.status}`).join(', ')}), ${p.status}, ${p.updatedAt}\n`,
        );
      }
    }
    return 0;
  }
  let state;
  if (cmd.action === 'resume') {
    // The disk at the plan's path as it is now, beside what was confirmed: a weak identity (no
    // serial, WWN or table DiskDial wrote) is resumed only when the person typed its name again.
    const { plan, disk, strength, basis } = await wizard.relist(cmd.planId);
    const id = plan.settings.identity;
    const then = [
      id.model ?? path.basename(id.path),
      sizeText(id.sizeBytes, true),
      ...(id.serial ? [`serial ${id.serial}`] : []),
      ...(id.backingFile ? [`image ${id.backingFile}${id.backingInode ? ` (inode ${id.backingInode.ino})` : ''}`] : []),
    ].join(', ');
    io.err(
      `Resuming plan ${plan.id} on ${plan.settings.device}. The disk there now:\n${disk ? disksTable([disk]).trimEnd() : '  nothing: the disk is not there'}\nConfirmed when the plan started: ${then}\n${basis}`,
    );
    if (cmd.confirm === undefined) {
      if (strength === 'weak' || !disk)
        throw new UsageError(
          `this disk's identity is weak: check the disk above is the one you mean, then resume with --confirm "${plan.settings.confirmName}"`,
        );
      state = await wizard.resume(cmd.planId, disk.name);
    } else state = await wizard.resume(cmd.planId, cmd.confirm);
  } else {
    // The identity is the disk as listed now; the service checks the name typed against it,
    // and the runner checks it again before every erase.
    const disk = (await wizard.listDisks(cmd.settings.allowInternal === true)).find((d) => d.path === cmd.settings.device);
    if (!disk) throw new UsageError(`${cmd.settings.device} is not a whole disk (see diskdial disks)`);
    if (!disk.offered) throw new UsageError(`${disk.path} cannot be erased: ${disk.reason ?? 'not offered'}`);
    state = await wizard.begin({ ...cmd.settings, identity: identityOf(disk) });
  }
  io.err(`plan ${state.id}: ${state.steps.map((s) => s.label).join(', ')} on ${state.settings.device}, then left as ${state.final.label}`);
  const done = await new Promise<WizardDoneEvent>((resolve) => {
    let lastLine = '';
    const sink = {
      alive: true,
      send<C extends EventChannel>(channel: C, data: EventMap[C]): void {
        if (channel === 'wizard.progress') {
          const e = data as EventMap['wizard.progress'];
          const head =
            e.formatIndex >= e.formatCount ? `[final] ${e.formatLabel}` : `[${e.formatIndex + 1}/${e.formatCount}] ${e.formatLabel}`;
          const line = e.test
            ? `${head}: ${e.test.name}${e.test.sizeBytes ? ` ${sizeText(e.test.sizeBytes)}` : ''}, run ${e.test.run}/${e.test.runs}`
            : `${head}: ${e.message}`;
          if (line !== lastLine) io.err(line);
          lastLine = line;
        } else if (channel === 'wizard.format') {
          const e = data as EventMap['wizard.format'];
          io.err(`${e.formatLabel}: done, ${e.resultIds.length} result${e.resultIds.length === 1 ? '' : 's'} saved`);
        } else if (channel === 'wizard.done') resolve(data as WizardDoneEvent);
      },
    };
    const { jobId } = wizard.start(state, sink);
    io.signal.addEventListener('abort', () => wizard.stop(jobId), { once: true });
  });
  const docs = await Promise.all(done.resultIds.map((id) => store.get(id).catch(() => undefined)));
  const saved = docs.filter((d): d is ResultDocument => d !== undefined);
  if (saved.length > 0) {
    const md = renderFormatReport(saved, 'md');
    if (cmd.report) {
      const ext = path.extname(cmd.report).slice(1).toLowerCase() as ExportFormat;
      await writeFile(cmd.report, renderFormatReport(saved, ext).text);
      io.err(`wrote ${cmd.report}`);
    }
    if (cmd.json)
      io.out(
        `${JSON.stringify({ plan: await wizard.plans.get(state.id), outcome: done.outcome, report: JSON.parse(renderFormatReport(saved, 'json').text).report, results: saved }, null, 2)}\n`,
      );
    else io.out(md.text);
  }
  if (done.outcome === 'failed') {
    io.err(done.error?.message ?? 'the plan failed');
    return 1;
  }
  if (done.outcome === 'stopped') {
    io.err(
      `stopped; finished formats are saved. Resume with: diskdial compare --resume ${state.id} --confirm "${state.settings.confirmName}"`,
    );
    return 130;
  }
  return 0;
}
