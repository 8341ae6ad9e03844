// The CLI's commands over saved results — `history`, `export`, `share`, `import` — in the same
// history folder as the desktop app and browser mode. Each parses its own options (history-args.ts;
// they share none with `run`) and answers like the rest of the CLI: a report or exactly one document on
// stdout, one plain line on stderr for a mistake (exit 2) or a failure (exit 1).
import { existsSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DiskDialError, plainMessage } from '../model/errors.js';
import { readUserText } from '../core/safe-read.js';
import { HistoryStore } from '../core/history.js';
import { formatFigure, kindName } from '../model/report/metrics.js';
import type { ResultDocument } from '../model/result.js';
import { plainText, safeJson } from '../model/text.js';
import { NotAResultError, parseResultFile } from '../model/result-parse.js';
import { renderExport } from '../model/report/export.js';

import { UsageError } from './usage-error.js';
import { MAX_IMPORT_BYTES, type HistoryEntry } from '../model/history.js';
import type { HistoryCommand } from './history-args.js';

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
      const text = await readResultsFile(ref);
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

/** A results file named on the command line, through the one safe reader (no FIFO, no device,
 *  at most what an import takes), its refusal as a usage error. */
export async function readResultsFile(file: string): Promise<string> {
  try {
    return await readUserText(file, { what: 'a results file', maxBytes: MAX_IMPORT_BYTES, follow: true });
  } catch (err) {
    if (err instanceof DiskDialError) throw new UsageError(err.message, err.code);
    throw new UsageError(`${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
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
      const listing = await store.query(cmd.query);
      // A file name in the folder is anyone's text: no control character reaches the terminal.
      for (const s of listing.skipped) io.warn(plainText(`skipped ${path.join(listing.dir, s.file)}: ${s.reason}`));
      if (cmd.json) io.out(`${safeJson(listing, 2)}\n`);
      else {
        const { kind, drive, search, since } = cmd.query;
        io.out(formatHistory(listing.entries, listing.dir, { ...listing, filtered: [kind, drive, search, since].some(Boolean) }));
      }
      return 0;
    }
    case 'export': {
      const docs = await resolveRefs(store, cmd.refs);
      const baseline = cmd.baseline === undefined ? undefined : docs.find((d) => d.id.startsWith(cmd.baseline!))?.id;
      if (cmd.baseline !== undefined && baseline === undefined)
        throw new UsageError(`--baseline ${cmd.baseline} is not one of the results being exported`);
      const file = renderExport(docs, cmd.format, {
        ...(baseline !== undefined ? { baseline } : {}),
        ...(cmd.fps !== undefined ? { willItWork: { fps: cmd.fps } } : {}),
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
        const text = await readResultsFile(file);
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
export function formatHistory(
  entries: readonly HistoryEntry[],
  dir: string,
  page: { total: number; offset: number; filtered?: boolean } = { total: entries.length, offset: 0 },
): string {
  if (entries.length === 0) {
    if (page.total > 0) return `No results past ${page.total} in ${dir}.\n`;
    return page.filtered ? `No saved results in ${dir} match.\n` : `No saved results in ${dir}.\n`;
  }
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
  const all = page.offset === 0 && entries.length === page.total;
  const count = all
    ? `${entries.length} result${entries.length === 1 ? '' : 's'} in ${dir}`
    : `Results ${page.offset + 1}–${page.offset + entries.length} of ${page.total.toLocaleString('en-US')} in ${dir}` +
      (page.offset + entries.length < page.total ? ` (--offset ${page.offset + entries.length} for more)` : '');
  return `${[line(header), ...rows.map(line)].join('\n')}\n\n${count}\n`;
}
