// The small-file test's section of a result document: its types, the part of it every view relies on
// (checked when a result is read from outside), and its key, merged into the document's sections.
import { z } from 'zod';
import type { CacheMode, SmallFilesFigures, SmallFilesOpFigures } from '../../engine-types.js';
import type { SmallFilesPreset } from './plan.js';

export type SmallFilesOpName = 'create' | 'write' | 'fsync' | 'close' | 'stat' | 'open' | 'read' | 'delete';
export const SMALL_FILES_OPS: readonly SmallFilesOpName[] = ['create', 'write', 'fsync', 'close', 'stat', 'open', 'read', 'delete'];

/** One run of the small-file test: the engine's figures (model/engine-types.ts) by run. */
export type SmallFilesRun = Omit<SmallFilesFigures, 'fileBytes' | 'ops'> & {
  run: number;
  cacheMode: CacheMode;
  ops: Array<Omit<SmallFilesOpFigures, 'op'> & { op: SmallFilesOpName }>;
};

/** The small-file test: every operation a copy does, timed per file. */
export interface SmallFilesSection {
  preset: SmallFilesPreset;
  count: number;
  fileBytes: number;
  /** What the figures are of, in plain words (the file system and the network, not only the disk). */
  scope: string;
  runs: SmallFilesRun[];
}

declare module '../../result.js' {
  interface KindSections {
    /** The small-file test: per operation kind and per file. */
    smallFiles?: SmallFilesSection;
  }
}

const num = z.number().finite();

/** Only what screens, exports and the card read; everything else passes through untouched. */
export const smallFilesResult = {
  key: 'smallFiles',
  schema: z.looseObject({
    count: num,
    fileBytes: num,
    scope: z.string(),
    runs: z.array(
      z.looseObject({
        run: num,
        filesPerSecond: num,
        msPerFile: num,
        writeMBps: num,
        readMBps: num,
        ops: z.array(z.looseObject({ op: z.string(), p50Ms: num, p99Ms: num })),
      }),
    ),
  }),
} as const;
