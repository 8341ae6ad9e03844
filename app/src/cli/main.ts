// The `diskdial` command: parses argv, runs one benchmark through the services the app uses
// (RunService: the shared job slot, the engine in child processes; HistoryService saves), prints a
// report (or exactly one JSON document with --json) on stdout; or, with `serve`, runs browser
// mode (serve-command.ts) until stopped. Errors are one line on stderr:
// exit 2 for bad input, 1 for a failed run, 130/143 when cancelled by SIGINT/SIGTERM — after
// the engine has stopped and the test folder is gone.
// Each command's code is imported in its own branch: a start loads only what that command needs
// (`--help` and `history` never load the engine, the services or the server).
import { DiskDialError } from '../model/errors.js';

import type { ResultDocument } from '../model/result.js';
import type { RunService } from '../services/run.js';
import type { WillItWork } from '../model/kinds/video/will-it-work.js';

import { parseCli, type Command } from './args.js';

/** A Quick Test's "Will it work?" verdicts at `asked.fps`, and the table printed after the report;
 *  a saved frame-paced test of this drive, never launched from this new result, is a dated line. */
async function willItWorkTable(doc: ResultDocument, asked: { fps: number }, runs: RunService): Promise<[WillItWork | null, string]> {
  const [{ formatWillItWorkTable }, { willItWork }] = await Promise.all([
    import('../model/kinds/video/cli-table.js'),
    import('../model/kinds/video/will-it-work.js'),
  ]);
  const paced = (await runs.history?.pacedResults().catch(() => [])) ?? [];
  const table = willItWork(doc, { ...asked, ...(paced.length > 0 ? { paced } : {}) });
  return [table, formatWillItWorkTable(table)];
}

function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

function fail(message: string, code: number): number {
  process.stderr.write(`diskdial: ${oneLine(message)}\n`);
  return code;
}

/** A DiskDial error: its sentence, then the system's code as a detail ("[EROFS]") for a search or
 *  a bug report — never inside the sentence; exit 2 for bad input, 1 for a failed run. */
function failWith(err: DiskDialError): number {
  const detail = /^E[A-Z0-9]+$/.test(err.code) ? ` [${err.code}${err.syscall ? `, ${err.syscall}` : ''}]` : '';
  return fail(`${err.message}${detail}`, err.category === 'input' ? 2 : 1);
}

/** Keeps a finished result in history; a failure to save is a warning, not a failed test. */
async function save(runs: RunService, doc: ResultDocument): Promise<string | undefined> {
  const note = await runs.save(doc);
  if (note && 'error' in note) {
    process.stderr.write(`diskdial: ${oneLine(note.error.message.replace(/^The /, 'the '))}\n`);
    return undefined;
  }
  return note?.id;
}

function savedLine(id: string | undefined): string {
  return id ? `\nSaved to history as ${id.slice(0, 8)} (diskdial history; diskdial share ${id.slice(0, 8)})\n` : '';
}

export async function main(argv: string[]): Promise<number> {
  let cmd: Command;
  try {
    cmd = parseCli(argv);
  } catch (err) {
    if (err instanceof DiskDialError) return failWith(err);
    return fail(err instanceof Error ? err.message : String(err), 2);
  }

  if (cmd.command === 'help') {
    process.stdout.write(cmd.text);
    return 0;
  }
  if (cmd.command === 'version') {
    const [{ engineVersion }, { appVersion }] = await Promise.all([import('../core/engine.js'), import('../core/result.js')]);
    let engine: string;
    try {
      engine = engineVersion();
    } catch {
      engine = 'not built';
    }
    process.stdout.write(`diskdial ${appVersion()} (engine ${engine})\n`);
    return 0;
  }
  if (cmd.command === 'serve') {
    const { serve } = await import('./serve-command.js');
    return serve(cmd, { out: (line) => process.stdout.write(`${line}\n`), fail });
  }
  if (cmd.command === 'disks' || cmd.command === 'compare' || cmd.command === 'report') {
    // Ctrl-C stops a plan after unmounting what it mounted; a second one exits at once.
    const stop = new AbortController();
    let stopping = false;
    const onSignal = (): void => {
      if (stopping) process.exit(130);
      stopping = true;
      process.stderr.write('diskdial: stopping after unmounting (Ctrl-C again to quit now)\n');
      stop.abort();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      const { runWizardCommand } = await import('./wizard-commands.js');
      return await runWizardCommand(cmd, {
        out: (text) => process.stdout.write(text),
        err: (line) => process.stderr.write(`diskdial: ${line}\n`),
        signal: stop.signal,
      });
    } catch (err) {
      if (err instanceof DiskDialError) return failWith(err);
      return fail(err instanceof Error ? err.message : String(err), 1);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }
  if (cmd.command === 'campaign') {
    const { runCampaign } = await import('./campaign-run.js');
    return runCampaign(cmd, { fail, failWith });
  }
  if (cmd.command === 'check') {
    const { runCheckCommand } = await import('./check-command.js');
    return runCheckCommand(cmd, { out: (text) => process.stdout.write(text), fail, failWith, savedLine });
  }
  if (cmd.command === 'history' || cmd.command === 'export' || cmd.command === 'share' || cmd.command === 'import') {
    try {
      const { runHistoryCommand } = await import('./history-commands.js');
      return await runHistoryCommand(cmd, {
        out: (text) => process.stdout.write(text),
        warn: (line) => process.stderr.write(`diskdial: ${line}\n`),
      });
    } catch (err) {
      if (err instanceof DiskDialError) return failWith(err);
      return fail(err instanceof Error ? err.message : String(err), 1);
    }
  }

  const [
    { isAbortError },
    { HistoryService },
    { RunService },
    { createProgressLine },
    { formatHashReport, formatReport },
    { cancelOnSignals, stuckLine },
    { cliEngine },
  ] = await Promise.all([
    import('../core/engine.js'),
    import('../services/history.js'),
    import('../services/run.js'),
    import('./progress.js'),
    import('./table.js'),
    import('./signals.js'),
    import('./cli-engine.js'),
  ]);
  // --loop: the first Ctrl-C ends the loop and keeps its finished cycles; the next one cancels.
  const loop =
    cmd.command === 'run' && cmd.loop
      ? (await import('./loop.js')).createLoop({
          line: (text) => (cmd.json ? process.stderr : process.stdout).write(`${text}\n`),
          note: (text) => process.stderr.write(`diskdial: ${text}\n`),
        })
      : undefined;
  // First signal: cancel gracefully, so the engine closes its files and the workspace is
  // removed by the runner; a job still winding down after a moment is left (signals.ts).
  const cancel = cancelOnSignals({ intercept: (sig) => loop?.stop(sig) ?? false, giveUpAfterWait: true });
  const progress = createProgressLine(process.stderr, cmd.command === 'run' ? cmd.restSeconds : undefined);
  const engine = cliEngine((line) => {
    progress?.clear();
    process.stderr.write(`diskdial: ${line}\n`);
  });
  if (cmd.command !== 'cipher') engine.warm(1);
  const runs = new RunService({ history: new HistoryService(), engine });
  const onWait = (pid: number, holder = `another DiskDial test is running on this drive (pid ${pid})`): void => {
    progress?.clear();
    process.stderr.write(`diskdial: ${holder}; waiting for it to end\n`);
  };
  try {
    if (cmd.command === 'cipher') {
      // Memory only: no drive to lock, no job slot; the result is saved like any other.
      const [{ runCipherBenchmark }, { cipherText }] = await Promise.all([
        import('../core/cipher-run.js'),
        import('../model/cipher/text.js'),
      ]);
      const doc = await runCipherBenchmark({
        signal: cancel.signal,
        ...(cmd.seconds !== undefined ? { seconds: cmd.seconds } : {}),
        ...(cmd.threads !== undefined ? { threads: cmd.threads } : {}),
        ...(cmd.label !== undefined ? { label: cmd.label } : {}),
      });
      const saved = cmd.noSave ? undefined : await save(runs, doc);
      process.stdout.write(cmd.json ? `${JSON.stringify(doc, null, 2)}\n` : cipherText(doc.cipher!) + savedLine(saved));
      return 0;
    }
    if (cmd.command === 'hash') {
      const doc = await runs.run(
        {
          kind: 'hash',
          options: {
            ...(cmd.size !== undefined ? { generate: { target: cmd.path, sizeBytes: cmd.size } } : { file: cmd.path }),
            ...(cmd.algo ? { algo: cmd.algo } : {}),
            ...(cmd.verify !== undefined ? { verify: cmd.verify } : {}),
            ...(cmd.threads !== undefined ? { threads: cmd.threads } : {}),
            ...(cmd.cache ? { cache: cmd.cache } : {}),
            ...(cmd.label !== undefined ? { label: cmd.label } : {}),
            ...(cmd.wait ? { wait: true, onWait } : {}),
            ...(progress ? { onProgress: (p) => progress.updateHash(p) } : {}),
          },
        },
        cancel.signal,
      );
      progress?.clear();
      const saved = cmd.noSave ? undefined : await save(runs, doc);
      process.stdout.write(cmd.json ? `${JSON.stringify(doc, null, 2)}\n` : formatHashReport(doc) + savedLine(saved));
      // As sha256sum -c does: a digest that does not match is a failure.
      if (doc.hash?.verify && !doc.hash.verify.match) return fail(doc.hash.verify.text, 1);
      return 0;
    }
    if (cmd.command === 'device') {
      // The whole disk, proven and confirmed by the wizard's rules right before it is written.
      const device = await (await import('./device-command.js')).proveDevice(cmd);
      const doc = await runs.run(
        {
          kind: 'benchmark',
          options: {
            target: device.path,
            device,
            test: cmd.test,
            ...(cmd.size !== undefined ? { size: cmd.size } : {}),
            ...(cmd.label !== undefined ? { label: cmd.label } : {}),
            ...(cmd.wait ? { wait: true, onWait } : {}),
            ...(progress ? { onProgress: (p) => progress.update(p) } : {}),
          },
        },
        cancel.signal,
      );
      progress?.clear();
      const saved = cmd.noSave ? undefined : await save(runs, doc);
      process.stdout.write(cmd.json ? `${JSON.stringify(doc, null, 2)}\n` : formatReport(doc) + savedLine(saved));
      // A stop keeps what was proven (keepsStopped); the exit code says it was stopped.
      return cancel.exitCode || 0;
    }
    const { command: _c, json: _j, noSave: _n, loop: _l, willItWork: tableAt, ...opts } = cmd;
    const doc = await runs.run(
      {
        kind: 'benchmark',
        options: {
          ...opts,
          ...(cmd.wait ? { onWait } : {}),
          ...(progress ? { onProgress: (p) => progress.update(p) } : {}),
          ...loop?.options,
        },
      },
      cancel.signal,
    );
    progress?.clear();
    // --loop: a second Ctrl-C while the cycles were being gathered up quits without saving.
    if (loop && cancel.exitCode) throw new Error('cancelled');
    const saved = cmd.noSave ? undefined : await save(runs, doc);
    // The "Will it work?" verdicts (--video), loaded only when asked for.
    const [table, tableText] = tableAt ? await willItWorkTable(doc, tableAt, runs) : [null, ''];
    if (cmd.json) process.stdout.write(`${JSON.stringify(table ? { ...doc, willItWork: table } : doc, null, 2)}\n`);
    else process.stdout.write(formatReport(doc) + tableText + savedLine(saved));
    // A kind that keeps what a stop leaves (keepsStopped) printed it; the exit code says it was stopped.
    return cancel.exitCode || 0;
  } catch (err) {
    progress?.clear();
    if (isAbortError(err) || cancel.exitCode) {
      const stuck = stuckLine(err, 'its test files are removed then (or by the next DiskDial start)');
      const nothing =
        cmd.command === 'device' ? 'cancelled before any part was read back: nothing proven' : 'cancelled; test files removed';
      process.stderr.write(`diskdial: ${stuck ?? nothing}\n`);
      return cancel.exitCode || 130;
    }
    if (err instanceof DiskDialError) return failWith(err);
    return fail(err instanceof Error ? err.message : String(err), 1);
  } finally {
    cancel.dispose();
  }
}
