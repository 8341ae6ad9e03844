// The saved-results commands' arguments (see history-commands.ts for what they do): parsed here,
// apart from the code that runs them, so a start loads the history store only when it needs it.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseOptions, UsageError } from './usage-error.js';
import type { ExportFormat } from '../model/settings.js';
import { parseExportOptions } from './export-options.js';
import { HISTORY_PAGE_MAX, HISTORY_SORTS, type HistoryQuery, type HistorySort } from '../model/history.js';

export const HISTORY_COMMANDS = ['history', 'export', 'share', 'import'] as const;
export type HistoryCommandName = (typeof HISTORY_COMMANDS)[number];

export type HistoryCommand =
  | { command: 'history'; action: 'list'; json: boolean; query: HistoryQuery }
  | { command: 'history'; action: 'label'; id: string; label: string }
  | { command: 'history'; action: 'delete'; ids: string[] }
  | { command: 'export'; refs: string[]; format: ExportFormat; out?: string; baseline?: string; fps?: number }
  | { command: 'share'; ref: string; out?: string; scale: number }
  | { command: 'import'; files: string[] };

/** Parses the arguments after `history`, `export`, `share` or `import`. */
export function parseHistoryCommand(name: HistoryCommandName, argv: readonly string[]): HistoryCommand {
  switch (name) {
    case 'history': {
      const { values: v, positionals: p } = parseOptions(() =>
        parseArgs({
          args: [...argv],
          options: {
            json: { type: 'boolean' },
            kind: { type: 'string' },
            drive: { type: 'string' },
            limit: { type: 'string' },
            offset: { type: 'string' },
            search: { type: 'string' },
            since: { type: 'string' },
            sort: { type: 'string' },
            reverse: { type: 'boolean' },
          },
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
      return { command: 'history', action: 'list', json: v.json === true, query: listQuery(v) };
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

/** The list's options as a History query: each checked, its mistake said in plain words. */
function listQuery(v: Record<string, string | boolean | undefined>): HistoryQuery {
  const q: HistoryQuery = {};
  const text = (name: string): string | undefined => (typeof v[name] === 'string' ? (v[name] as string) : undefined);
  const whole = (name: 'limit' | 'offset', min: number): number | undefined => {
    const raw = text(name);
    if (raw === undefined) return undefined;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > HISTORY_PAGE_MAX)
      throw new UsageError(
        `--${name} must be a whole number ${min ? 'above zero' : 'of zero or more'} (at most ${HISTORY_PAGE_MAX}), not "${raw}"`,
      );
    return Number(raw);
  };
  const limit = whole('limit', 1);
  const offset = whole('offset', 0);
  if (limit !== undefined) q.limit = limit;
  if (offset) q.offset = offset;
  for (const name of ['kind', 'drive', 'search'] as const) {
    const raw = text(name);
    if (raw === undefined) continue;
    if (!raw.trim() || raw.length > 200) throw new UsageError(`--${name} takes some text (at most 200 characters)`);
    q[name] = raw;
  }
  const since = text('since');
  if (since !== undefined) q.since = sinceInstant(since);
  const sort = text('sort');
  if (sort !== undefined && !(HISTORY_SORTS as readonly string[]).includes(sort))
    throw new UsageError(`--sort must be ${HISTORY_SORTS.join(', ')}, not "${sort}"`);
  // Each order as a person expects it: newest first, A to Z, fastest first; --reverse turns it round.
  const natural = (sort ?? 'date') === 'name' ? 'asc' : 'desc';
  if (sort !== undefined) q.sort = sort as HistorySort;
  const order = v.reverse === true ? (natural === 'asc' ? 'desc' : 'asc') : natural;
  if (order !== 'desc') q.order = order;
  return q;
}

/** --since as an instant: a day (2026-11-01, from its start in UTC) or a date and time. */
function sinceInstant(raw: string): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(raw);
  const t = day ? Date.parse(`${raw}T00:00:00Z`) : /^\d{4}-\d{2}-\d{2}T/.test(raw) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(t)) throw new UsageError(`--since takes a date (2026-11-01) or a date and time (2026-11-01T14:30Z), not "${raw}"`);
  return new Date(t).toISOString();
}
