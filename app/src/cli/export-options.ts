// The output options `diskdial export` and `diskdial compare report` share: results by id or file,
// a format named or taken from --out's extension, a baseline.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EXPORT_FORMATS, type ExportFormat } from '../model/settings.js';
import { parseOptions, UsageError } from './usage-error.js';
import { fpsFlag } from '../model/kinds/video/will-it-work-cli.js';
import { usage } from './args-common.js';

export interface ExportOptions {
  refs: string[];
  format: ExportFormat;
  out?: string;
  baseline?: string;
  /** --fps: the frame rate of a Quick Test's "Will it work?" section (export only). */
  fps?: number;
}

export function parseExportOptions(
  argv: readonly string[],
  o: { fallback: ExportFormat | ''; noRefs: string; maxRefs?: number; fps?: boolean },
): ExportOptions {
  const { values: v, positionals: refs } = parseOptions(() =>
    parseArgs({
      args: [...argv],
      options: {
        format: { type: 'string', short: 'f' },
        out: { type: 'string', short: 'o' },
        baseline: { type: 'string' },
        ...(o.fps ? { fps: { type: 'string' } as const } : {}),
      },
      allowPositionals: true,
      strict: true,
    }),
  );
  if (refs.length === 0) throw new UsageError(o.noRefs);
  if (o.maxRefs !== undefined && refs.length > o.maxRefs) throw new UsageError(`export compares at most ${o.maxRefs} results at once`);
  const format =
    typeof v.format === 'string' ? v.format : typeof v.out === 'string' ? path.extname(v.out).slice(1).toLowerCase() : o.fallback;
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}${format ? `, not "${format}"` : ''}`);
  }
  return {
    refs,
    format: format as ExportFormat,
    ...(typeof v.out === 'string' ? { out: path.resolve(v.out) } : {}),
    ...(typeof v.baseline === 'string' ? { baseline: v.baseline } : {}),
    ...(typeof v.fps === 'string' ? { fps: fpsOption(v.fps) } : {}),
  };
}

/** --fps as the Will-it-work table knows frame rates (29.97, 25, 59.94, …). */
const fpsOption = (text: string): number => usage(() => fpsFlag(text));
