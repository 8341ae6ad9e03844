// The CLI's commands over saved results — `history`, `export`, `share`, `import` — in the same
// history folder as the desktop app and browser mode. Each parses its own options (they share
// none with `run`) and answers like the rest of the CLI: a report or exactly one document on
// stdout, one plain line on stderr for a mistake (exit 2) or a failure (exit 1).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { plainMessage } from '../model/errors.js';
import { HistoryStore } from '../core/history.js';
import { formatFigure, kindName } from '../model/report/metrics.js';
import type { ResultDocument } from '../model/result.js';
import { plainText, safeJson } from '../model/text.js';
import { NotAResultError, parseResultFile } from '../model/result-parse.js';
import { renderExport } from '../model/report/export.js';

import { parseOptions, UsageError } from './usage-error.js';
import type { ExportFormat } from '../model/settings.js';
import type { HistoryEntry } from '../model/history.js';
import { parseExportOptions } from './export-options.js';

export const HISTORY_COMMANDS = ['history', 'export', 'share', 'import'] as const;
export type HistoryCommandName = (typeof HISTORY_COMMANDS)[number];

export type HistoryCommand =
  | { command: 'history'; action: 'list'; json: boolean; kind?: string; drive?: string; limit?: number }
  | { command: 'history'; action: 'label'; id: string; label: string }
  | { command: 'history'; action: 'delete'; ids: string[] }
  | { command: 'export'; refs: string[]; format: ExportFormat; out?: string; baseline?: string; fps?: number }
  | { command: 'share'; ref: string; out?: string; scale: number }
  | { command: 'import'; files: string[] };

export const HISTORY_HELP = `Saved results (every finished run and hash is saved; --no-save skips it):
  diskdial history [--json] [--kind K] [--drive TEXT] [--limit N]
                                 list saved results, newest first
  diskdial history label <id> <text>   name a result ("" removes the name)
  diskdial history delete <id>...      delete saved results
  diskdial export <id|file>... --format md|txt|csv|json|html [--out FILE]
                                 one result, or several side by side (the first, or
                                 --baseline ID, is the reference); stdout without --out;
                                 --fps N: a Quick Test's video table at N fps (29.97)
  diskdial share <id|file> [--out card.png|card.svg] [--scale N]
                                 the result card with its method printed on it
                                 (PNG at 2x by default)
  diskdial import <file>...      add results exported on another machine
  An <id> may be shortened to its first 8 characters; <file> is an exported .json.
  Results are kept in $DISKDIAL_HOME/results, else ~/.local/share/diskdial/results
  (macOS: ~/Library/Application Support/DiskDial, Windows: %APPDATA%\\DiskDial).
`;

/** Parses the arguments after `history`, `export`, `share` or `import`. */
export function parseHistoryCommand(name: HistoryCommandName, argv: readonly string[]): HistoryCommand {
  switch (name) {
    case 'history': {
      const { values: v, positionals: p } = parseOptions(() =>
        parseArgs({
          args: [...argv],
          options: { json: { type: 'boolean' }, kind: { type: 'string' }, drive: { type: 'string' }, limit: { type: 'string' } },
          allowPositionals: true,
          strict: true,
        }),
      );
      const [action, ...rest] = p;
      if (action === 'label') {
        if (rest.length !== 2)
          throw new UsageError('history label takes an id and a label: diskdial history label 1a2b3c4d "Through the hub"');
        return { command: 'history', action: 'label', id: rest[0]!, label: rest[1]! };
      }
      if (action === 'delete') {
        if (rest.length === 0) throw new UsageError('history delete needs the ids of the results to delete');
        return { command: 'history', action: 'delete', ids: rest };
      }
      if (action !== undefined && action !== 'list') throw new UsageError(`unknown history action "${action}"; use list, label or delete`);
      const cmd: HistoryCommand = { command: 'history', action: 'list', json: v.json === true };
      if (typeof v.kind === 'string') cmd.kind = v.kind;
      if (typeof v.drive === 'string') cmd.drive = v.drive;
      if (typeof v.limit === 'string') {
        if (!/^\d+$/.test(v.limit) || Number(v.limit) < 1)
          throw new UsageError(`--limit must be a whole number above zero, not "${v.limit}"`);
        cmd.limit = Number(v.limit);
      }
      return cmd;
    }
    case 'export':
      return {
        command: 'export',
        ...parseExportOptions(argv, {
          fallback: '',
          noRefs: 'export needs a result: an id from diskdial history, or an exported .json file',
          maxRefs: 20,
          fps: true,
        }),
      };
    case 'share': {
      const { values: v, positionals: p } = parseOptions(() =>
        parseArgs({
          args: [...argv],
          options: { out: { type: 'string', short: 'o' }, scale: { type: 'string' } },
          allowPositionals: true,
          strict: true,
        }),
      );
      if (p.length !== 1)
        throw new UsageError(
          p.length === 0
            ? 'share needs a result: an id from diskdial history, or an exported .json file'
            : 'share makes the card of one result',
        );
      let scale = 2;
      if (typeof v.scale === 'string') {
        if (!/^[1-4]$/.test(v.scale)) throw new UsageError(`--scale must be 1, 2, 3 or 4, not "${v.scale}"`);
        scale = Number(v.scale);
      }
      if (typeof v.out === 'string' && !/\.(png|svg)$/i.test(v.out)) throw new UsageError('--out must end in .png or .svg');
      return { command: 'share', ref: p[0]!, scale, ...(typeof v.out === 'string' ? { out: path.resolve(v.out) } : {}) };
    }
    case 'import': {
      const { positionals: files } = parseOptions(() => parseArgs({ args: [...argv], options: {}, allowPositionals: true, strict: true }));
      if (files.length === 0) throw new UsageError('import needs the exported .json files to add');
      return { command: 'import', files: files.map((f) => path.resolve(f)) };
    }
  }
}

export interface HistoryIo {
  out(text: string): void;
  /** A warning line on stderr. */
  warn(line: string): void;
}

/** A reference on the command line: an exported file when such a file exists, else a saved id. */
async function resolveRefs(store: HistoryStore, refs: readonly string[]): Promise<ResultDocument[]> {
  const docs: ResultDocument[] = [];
  for (const ref of refs) {
    if (looksLikeFile(ref)) {
      let text: string;
      try {
        text = readFileSync(ref, 'utf8');
      } catch (err) {
        throw new UsageError(`${ref} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      }
      try {
        docs.push(...parseResultFile(text));
      } catch (err) {
        if (err instanceof NotAResultError) throw new UsageError(`${ref}: ${err.reason}`);
        throw err;
      }
    } else docs.push(await store.get(ref));
  }
  return docs;
}

function looksLikeFile(ref: string): boolean {
  if (!existsSync(ref)) return /[\\/]/.test(ref) || ref.endsWith('.json') ? missingFile(ref) : false;
  return statSync(ref).isFile();
}

function missingFile(ref: string): never {
  throw new UsageError(plainMessage('ENOENT', path.resolve(ref), { subject: 'file' })!, 'ENOENT');
}

export async function runHistoryCommand(cmd: HistoryCommand, io: HistoryIo, store = new HistoryStore()): Promise<number> {
  switch (cmd.command) {
    case 'history': {
      if (cmd.action === 'label') {
        const entry = await store.label(cmd.id, cmd.label);
        io.out(`${entry.id.slice(0, 8)}  ${plainText(entry.name)}\n`);
        return 0;
      }
      if (cmd.action === 'delete') {
        const deleted = await store.delete(await Promise.all(cmd.ids.map(async (id) => (await store.get(id)).id)));
        io.out(`Deleted ${deleted} result${deleted === 1 ? '' : 's'}.\n`);
        return 0;
      }
      const listing = await store.list();
      // A file name in the folder is anyone's text: no control character reaches the terminal.
      for (const s of listing.skipped) io.warn(plainText(`skipped ${path.join(listing.dir, s.file)}: ${s.reason}`));
      let entries = listing.entries;
      if (cmd.kind) entries = entries.filter((e) => e.kind === cmd.kind);
      if (cmd.drive) {
        const needle = cmd.drive.toLowerCase();
        entries = entries.filter((e) => `${e.drive} ${e.volume}`.toLowerCase().includes(needle));
      }
      if (cmd.limit) entries = entries.slice(0, cmd.limit);
      if (cmd.json) io.out(`${safeJson({ ...listing, entries }, 2)}\n`);
      else io.out(formatHistory(entries, listing.dir));
      return 0;
    }
    case 'export': {
      const docs = await resolveRefs(store, cmd.refs);
      const baseline = cmd.baseline === undefined ? undefined : docs.find((d) => d.id.startsWith(cmd.baseline!))?.id;
      if (cmd.baseline !== undefined && baseline === undefined)
        throw new UsageError(`--baseline ${cmd.baseline} is not one of the results being exported`);
      const file = renderExport(docs, cmd.format, {
        ...(baseline !== undefined ? { baseline } : {}),
        ...(cmd.fps !== undefined ? { video: { fps: cmd.fps } } : {}),
      });
      if (cmd.out) {
        await writeFile(cmd.out, file.text);
        io.warn(`wrote ${cmd.out}`);
      } else io.out(file.text);
      return 0;
    }
    case 'share': {
      const [doc] = await resolveRefs(store, [cmd.ref]);
      const { renderCardPngOffThread, cardFilename } = await import('../core/card-png.js');
      const card = await renderCardPngOffThread(doc!, { scale: cmd.scale });
      const out = cmd.out ?? path.resolve(cardFilename(doc!));
      await writeFile(out, out.toLowerCase().endsWith('.svg') ? card.svg : card.png);
      io.out(`${out} (${out.toLowerCase().endsWith('.svg') ? 'SVG' : `${card.width} × ${card.height} PNG`})\n`);
      return 0;
    }
    case 'import': {
      for (const file of cmd.files) {
        let text: string;
        try {
          text = readFileSync(file, 'utf8');
        } catch (err) {
          throw new UsageError(`${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
        }
        const { entries, duplicates } = await store.import(text, path.basename(file));
        const news = entries.length - duplicates;
        io.out(
          `${path.basename(file)}: ${news ? `imported ${entries.map((e) => e.id.slice(0, 8)).join(', ')}` : 'already in history'}${news && duplicates ? ` (${duplicates} already there)` : ''}\n`,
        );
      }
      return 0;
    }
  }
}

/** The history as a table: id, date, name, test, drive, headline figures. Every cell is plain
 *  text: a label or a model name from an imported result cannot send escapes to the terminal. */
export function formatHistory(entries: readonly HistoryEntry[], dir: string): string {
  if (entries.length === 0) return `No saved results in ${dir}.\n`;
  const rows = entries.map((e) =>
    [
      e.id.slice(0, 8),
      e.startedAt.slice(0, 16).replace('T', ' '),
      e.name + (e.origin === 'imported' ? ' (imported)' : ''),
      kindName(e.kind),
      e.drive,
      e.headline.map((h) => `${h.label.replace(/ · .*/, '')} ${formatFigure(h.value, h.unit as never)}`).join(', ') +
        (e.headline.length ? ' MB/s' : ''),
    ].map(plainText),
  );
  const header = ['ID', 'Date (UTC)', 'Name', 'Test', 'Drive', 'Figures'];
  const widths = header.map((h, i) => Math.min(i === 4 ? 44 : 40, Math.max(h.length, ...rows.map((r) => r[i]!.length))));
  const cell = (s: string, w: number): string => (s.length > w ? `${s.slice(0, w - 1)}…` : s.padEnd(w));
  const line = (r: string[]): string =>
    r
      .map((c, i) => (i === r.length - 1 ? c : cell(c, widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n\n${entries.length} result${entries.length === 1 ? '' : 's'} in ${dir}\n`;
}
