// The CLI's wizard and report commands:
//   diskdial disks [--json] [--internal]          whole disks, which may be erased, and the formats
//   diskdial compare --device DEV --formats … --confirm NAME [options]   the wizard, headless
//   diskdial compare --resume PLAN [--confirm NAME]   an interrupted plan, from its first unfinished format
//   diskdial compare --plans                       plans that did not finish
//   diskdial report <id|file>... [--format md|csv|json|html|txt] [--out FILE] [--baseline KEY]
// Same services as the app (WizardService, HistoryStore); progress on stderr, the report on stdout.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runTest } from '../core/engine.js';
import { HistoryStore } from '../core/history.js';
import { renderFormatReport } from '../model/report/format-report.js';
import { sizeText } from '../model/report/metrics.js';
import type { ResultDocument } from '../model/result.js';
import { identityOf } from '../model/wizard/identity.js';
import type { WizardDisk } from '../model/wizard/types.js';
import type { EventChannel, EventMap } from '../model/event-map.js';
import { HistoryService } from '../services/history.js';
import { type WizardService, wizardService } from '../services/wizard.js';
import { UsageError } from './usage-error.js';
import type { ExportFormat } from '../model/settings.js';
import type { WizardDoneEvent } from '../model/events.js';
import type { WizardCommand } from './wizard-args.js';
import type { WizardSettings } from '../model/settings.js';
import { NO_DIRECT_IO, protocolFor } from '../model/wizard/protocols.js';
import { estimatePlan } from '../model/wizard/estimate.js';
import { leftText, PLAN_RATES } from '../model/eta.js';

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
  const { existsSync } = await import('node:fs');
  const { parseResultFile } = await import('../model/result-parse.js');
  const { readResultsFile } = await import('./history-commands.js');
  const docs: ResultDocument[] = [];
  for (const ref of refs) {
    if (existsSync(ref) || ref.endsWith('.json')) {
      const text = await readResultsFile(ref);
      try {
        docs.push(...parseResultFile(text));
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
    const file = renderFormatReport(docs, cmd.format, {
      ...(cmd.baseline !== undefined ? { baseline: cmd.baseline } : {}),
      ...(cmd.fps !== undefined ? { fps: cmd.fps } : {}),
    });
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
    const disk = await wizard.offeredDisk(cmd.settings.device, cmd.settings.allowInternal === true);
    state = await wizard.begin({ ...cmd.settings, identity: identityOf(disk) });
  }
  io.err(`plan ${state.id}: ${state.steps.map((s) => s.label).join(', ')} on ${state.settings.device}, then left as ${state.final.label}`);
  io.err(planLine(state.settings, state.steps.length));
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

/** "Stibium Standard, common-mode pass on: about 40 min at 500 MB/s (…scaled…)". */
export function planLine(s: WizardSettings, formats: number): string {
  const name = protocolFor(s)?.name ?? `the ${s.plan} plan`;
  const common = s.commonMode ? NO_DIRECT_IO_NOTE : '';
  const direct = s.formats.filter((f) => !NO_DIRECT_IO.has(f)).length;
  const est = estimatePlan(s, { formats, diskBytes: s.identity.sizeBytes, commonPasses: direct });
  const scaled = est.scaled ? ` ${est.scaled}` : '';
  return `${name}${common}: ${leftText(est.seconds).replace(/ left$/, '')} at ${PLAN_RATES.writeMBps} MB/s, with the rests and ${PLAN_RATES.formatSeconds} s per format to erase and format (and once more for the one it is left in).${scaled}`;
}

const NO_DIRECT_IO_NOTE = ', and every format also as applications see it (page cache, flushed)';
