// The saved-results commands' arguments (see history-commands.ts for what they do): parsed here,
// apart from the code that runs them, so a start loads the history store only when it needs it.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseOptions, UsageError } from './usage-error.js';
import type { ExportFormat } from '../model/settings.js';
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
