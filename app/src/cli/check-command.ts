// `diskdial check <folder>`: the folder check through the shared job slot (services/run.ts), its
// report in words or one JSON document, saved in history. The exit code follows the integrity
// verdict (model/verdict/integrity.ts): 0 intact (or a manifest just made of every file), 1 failed
// (anything changed, missing, unreadable or new), 2 for bad input, 130/143 when cancelled — the
// manifest then left byte for byte as it was (core/check-run.ts writes it atomically, last).
import { availableParallelism } from 'node:os';
import { cancelOnSignals, stuckLine } from './signals.js';
import type { ResultDocument } from '../model/result.js';
import { DiskDialError } from '../model/errors.js';
import { escapeName, CHECK_ALGO_LABEL } from '../model/check-manifest.js';
import { checkVerdict, type CheckSection } from '../model/check.js';
import { INTEGRITY_EXIT } from '../model/verdict/integrity.js';
import { formatBytes } from '../model/units.js';
import type { CheckCommand } from './args-check.js';
import type { CheckProgress } from '../core/check-run.js';

/** What a cancelled check leaves: the files it checks are only read. */
const KEPT = 'The manifest was left as it was.';

export interface CheckIo {
  out: (text: string) => void;
  fail: (message: string, code: number) => number;
  failWith: (err: DiskDialError) => number;
  savedLine: (id: string | undefined) => string;
}

/** A name as a terminal can show it: the manifest's escapes, and any other control character as \xNN. */
export function displayName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return escapeName(name).text.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

const n = (x: number): string => x.toLocaleString('en-US');

function list(mark: string, title: string, names: readonly string[], max = 20): string[] {
  if (names.length === 0) return [];
  const shown = names.slice(0, max).map((name) => `    ${displayName(name)}`);
  const more = names.length > max ? [`    … and ${n(names.length - max)} more (--json lists every one)`] : [];
  return [`${mark} ${title} (${n(names.length)}):`, ...shown, ...more];
}

export function formatCheckReport(doc: ResultDocument): string {
  const c = doc.check!;
  const t = doc.target;
  const manifest: Record<CheckSection['mode'], string> = {
    create: 'written',
    update: 'rewritten to what the folder holds now',
    verify: 'read, not changed',
  };
  const out = [
    `DiskDial folder check of ${c.folder}`,
    `  ${t.fs} on ${t.device.node ?? t.volume} (${t.device.model}, ${t.device.bus}); ${CHECK_ALGO_LABEL[c.algo]} with ${c.provider}`,
    `  streams: ${c.streamsWhy}`,
    `  manifest: ${c.manifest} (${manifest[c.mode]})`,
    '',
  ];
  if (c.mode !== 'create') {
    out.push(
      `✓ unchanged: ${n(c.counts.unchanged)}`,
      ...list('✗', 'changed', c.changed),
      ...list('✗', 'missing', c.missing),
      ...list('+', 'new (not in the manifest)', c.added),
    );
  }
  const unreadable = c.unreadable.map((u) => `${u.name} — ${u.why}`);
  out.push(...list('✗', 'unreadable', unreadable));
  out.push(
    ...list(
      '·',
      'skipped',
      c.skipped.map((s) => `${s.name} — ${s.why}`),
      10,
    ),
  );
  if (c.badLines?.length) out.push(`· manifest lines that are not digest lines: ${c.badLines.slice(0, 10).join(', ')}`);
  out.push(
    '',
    c.summary,
    `${n(c.files)} files, ${formatBytes(c.bytes)} in ${c.seconds.toFixed(2)} s: ${n(Math.round(c.filesPerSecond))} files/s, ${(c.mbps / 1000).toFixed(2)} GB/s`,
  );
  if (c.bound) out.push(c.bound.text);
  out.push('', `Cache mode: ${doc.cacheMode}   GB/s = 10^9 bytes/s`);
  return `${out.join('\n')}\n`;
}

/** "check · 120/1,000 files · 310 MB of 812 MB · DCIM/100/IMG_0001.JPG" */
export function formatCheckProgress(p: CheckProgress, width = 100): string {
  const line = `check · ${n(p.filesDone)}/${n(p.filesTotal)} files · ${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)} · ${displayName(p.current)}`;
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

export async function runCheckCommand(cmd: CheckCommand, io: CheckIo): Promise<number> {
  const [{ isAbortError }, { HistoryService }, { RunService }, { cliEngine }] = await Promise.all([
    import('../core/engine.js'),
    import('../services/history.js'),
    import('../services/run.js'),
    import('./cli-engine.js'),
  ]);
  const cancel = cancelOnSignals({ leftBehind: KEPT, giveUpAfterWait: true });
  const tty = process.stderr.isTTY === true;
  let last = 0;
  const clear = (): void => {
    if (tty) process.stderr.write('\r\x1b[K');
  };
  // One engine process a stream: a file whose drive stops answering holds only its own.
  const engine = cliEngine((line) => {
    clear();
    process.stderr.write(`diskdial: ${line}\n`);
  });
  engine.warm(cmd.streams ?? availableParallelism());
  const runs = new RunService({ history: new HistoryService(), engine });
  try {
    const doc = await runs.run(
      {
        kind: 'check',
        options: {
          folder: cmd.folder,
          ...(cmd.manifest !== undefined ? { manifest: cmd.manifest } : {}),
          ...(cmd.algo ? { algo: cmd.algo } : {}),
          ...(cmd.streams !== undefined ? { streams: cmd.streams } : {}),
          ...(cmd.cache ? { cache: cmd.cache } : {}),
          ...(cmd.verifyOnly ? { verifyOnly: true } : {}),
          ...(cmd.update ? { update: true } : {}),
          ...(cmd.label !== undefined ? { label: cmd.label } : {}),
          ...(cmd.wait
            ? {
                wait: true,
                onWait: (pid: number, holder = `another DiskDial test is running on this drive (pid ${pid})`) =>
                  process.stderr.write(`diskdial: ${holder}; waiting for it to end\n`),
              }
            : {}),
          ...(tty
            ? {
                onProgress: (p: CheckProgress) => {
                  const now = Date.now();
                  if (now - last < 100) return;
                  last = now;
                  process.stderr.write(`\r\x1b[K${formatCheckProgress(p, (process.stderr.columns ?? 100) - 1)}`);
                },
              }
            : {}),
        },
      },
      cancel.signal,
    );
    clear();
    let saved: string | undefined;
    if (!cmd.noSave) {
      const note = await runs.save(doc);
      if (note && 'error' in note) process.stderr.write(`diskdial: ${note.error.message}\n`);
      else saved = note?.id;
    }
    io.out(cmd.json ? `${JSON.stringify(doc, null, 2)}\n` : formatCheckReport(doc) + io.savedLine(saved));
    return INTEGRITY_EXIT[checkVerdict(doc.check!).outcome];
  } catch (err) {
    clear();
    if (isAbortError(err) || cancel.exitCode) {
      process.stderr.write(`diskdial: ${stuckLine(err, KEPT.toLowerCase()) ?? 'cancelled; the manifest was left as it was'}\n`);
      return cancel.exitCode || 130;
    }
    if (err instanceof DiskDialError) return io.failWith(err);
    return io.fail(err instanceof Error ? err.message : String(err), 1);
  } finally {
    cancel.dispose();
  }
}
