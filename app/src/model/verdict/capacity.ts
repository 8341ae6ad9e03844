// The capacity verdict of a verify test: is the drive what it says it is? Genuine only when every
// block planned was written and read back intact; a drive whose reads return other blocks of the
// run, all displaced by multiples of one distance, wraps there (fake capacity); one whose tail
// reads back as zeros, ones or other data lost what was written beyond its real size; anything
// else read back wrong is an error; a run that read less than it wrote, all intact, says only what
// it proved. Data first (outcome, figures, rule), words from capacityText only.
// Browser-safe: imports only the model.
import { z } from 'zod';
import type { Claim } from './claim.js';

export type CapacityOutcome = 'genuine' | 'stopped' | 'wraps' | 'lost' | 'errors';

/** What the verdict is decided from; blocks are the run's 4 KiB blocks, numbered from its start. */
export interface CapacityFigures {
  blockBytes: number;
  plannedBlocks: number;
  checkedBlocks: number;
  intactBlocks: number;
  aliasedBlocks: number;
  zerosBlocks: number;
  onesBlocks: number;
  staleBlocks: number;
  corruptedBlocks: number;
  bitErrors: number;
  /** The first bad block; -1: none. */
  firstBadBlock: number;
  /** The one distance every aliased block was displaced by a multiple of; 0: none (or files laid
   *  out out of order on the volume). */
  wrapBlocks: number;
  /** The longest run of intact blocks from block 0. */
  prefixBlocks: number;
  /** The real capacity on the volume, bytes: where a wrap comes round (its distance), where the
   *  lost tail starts, or how far from the start it read back intact. */
  capacityBytes: number;
  /** The volume's size as it reports it (0: not known). */
  reportedBytes: number;
  /** Bytes in use before the run: a position on the volume is these plus the run's offset. */
  startBytes: number;
}

export type CapacityVerdict = Claim<'capacity', CapacityOutcome> & { figures: CapacityFigures };

export const CAPACITY_RULE =
  'Genuine only when every block written was read back intact. Blocks read back holding other blocks of the run (and nothing else wrong) mean the drive wraps: each place it really has holds the block written there last, so the blocks read back intact are its real capacity (a run stopped part way: the one distance every aliased block is displaced by a multiple of). Blocks from one point to the end read back as zeros, ones or other data mean writes beyond that point were lost: it is the real capacity. Anything else read back wrong is an error. A run that read back less than it wrote, all intact, proves only what it read.';

const lost = (f: CapacityFigures): number => f.zerosBlocks + f.onesBlocks + f.staleBlocks;
const bad = (f: CapacityFigures): number => f.aliasedBlocks + lost(f) + f.corruptedBlocks;

/** The outcome of the figures, and the capacity it implies (capacityBytes is set from it). */
export function capacityVerdict(figures: Omit<CapacityFigures, 'capacityBytes'>): CapacityVerdict {
  const f = { ...figures, capacityBytes: 0 };
  // A position in the run, on the volume (the run's data follows what was there before it).
  const at = (block: number): number => f.startBytes + block * f.blockBytes;
  let outcome: CapacityOutcome;
  if (bad(f) === 0) {
    outcome = f.checkedBlocks >= f.plannedBlocks ? 'genuine' : 'stopped';
    f.capacityBytes = at(f.prefixBlocks);
  } else if (f.aliasedBlocks > 0 && lost(f) === 0 && f.corruptedBlocks === 0) {
    outcome = 'wraps';
    // Each place the drive really has holds the block written to it last, which reads back intact:
    // once all was read, the intact blocks are its size, however a file system laid the files out.
    // A run read in part says it by the one distance aliased blocks are displaced by, if there is one.
    const partial = f.checkedBlocks < f.plannedBlocks && f.wrapBlocks > 0;
    f.capacityBytes = (partial ? f.wrapBlocks : f.intactBlocks) * f.blockBytes;
  } else if (f.aliasedBlocks === 0 && f.corruptedBlocks === 0 && lost(f) === f.checkedBlocks - f.firstBadBlock) {
    // Every block from the first bad one to the last read is lost: a tail the drive never kept.
    outcome = 'lost';
    f.capacityBytes = at(f.firstBadBlock);
  } else {
    outcome = 'errors';
    f.capacityBytes = at(f.prefixBlocks);
  }
  return { family: 'capacity', outcome, figures: f, rule: CAPACITY_RULE };
}

/** "931.5 GB", "1 TB", "840 MB": decimal units, one decimal at most. */
export function amountText(bytes: number): string {
  const [v, unit] = bytes >= 1e12 ? [bytes / 1e12, 'TB'] : bytes >= 1e9 ? [bytes / 1e9, 'GB'] : [bytes / 1e6, 'MB'];
  return `${v >= 100 && unit === 'MB' ? Math.round(v) : Number(v.toFixed(1))} ${unit}`;
}

/** A block's position on the volume, in words. */
export const positionText = (f: CapacityFigures, block: number): string => amountText(f.startBytes + block * f.blockBytes);

/** What a lost tail read back as. */
function lostAs(f: CapacityFigures): string {
  if (f.zerosBlocks === lost(f)) return 'zeros';
  if (f.onesBlocks === lost(f)) return 'ones (0xFF)';
  if (f.staleBlocks === lost(f)) return 'other data';
  return 'zeros, ones or other data';
}

const n = (x: number): string => x.toLocaleString('en-US');

/** The verdict in plain words, as every surface says it. */
export function capacityText(v: CapacityVerdict): string {
  const f = v.figures;
  const bytes = (blocks: number): string => amountText(blocks * f.blockBytes);
  switch (v.outcome) {
    case 'genuine':
      return `Genuine: all ${bytes(f.checkedBlocks)} written and read back intact`;
    case 'stopped':
      return `Stopped: verified the first ${bytes(f.prefixBlocks)} of ${bytes(f.plannedBlocks)}`;
    case 'wraps': {
      const of = f.reportedBytes > 0 ? `the ${amountText(f.reportedBytes)} it reports` : `the ${bytes(f.plannedBlocks)} written`;
      return `Fake capacity: only ${amountText(f.capacityBytes)} of ${of} hold data; writes beyond wrap to the start`;
    }
    case 'lost':
      return `Lost: writes beyond ${amountText(f.capacityBytes)} read back as ${lostAs(f)}`;
    case 'errors': {
      const wrong = bad(f);
      const bits = f.bitErrors > 0 ? ` (${n(f.bitErrors)} ${f.bitErrors === 1 ? 'bit' : 'bits'} flipped)` : '';
      return `Errors: ${n(wrong)} ${wrong === 1 ? 'block' : 'blocks'} read back wrong, first at ${positionText(f, f.firstBadBlock)}${bits}`;
    }
  }
}

const num = z.number().finite();
const FIGURE_KEYS: ReadonlyArray<keyof CapacityFigures> = [
  'blockBytes',
  'plannedBlocks',
  'checkedBlocks',
  'intactBlocks',
  'aliasedBlocks',
  'zerosBlocks',
  'onesBlocks',
  'staleBlocks',
  'corruptedBlocks',
  'bitErrors',
  'firstBadBlock',
  'wrapBlocks',
  'prefixBlocks',
  'capacityBytes',
  'reportedBytes',
  'startBytes',
];

/** The stored verdict: what views read of it. */
export const CapacityVerdictSchema = z.looseObject({
  family: z.literal('capacity'),
  outcome: z.enum(['genuine', 'stopped', 'wraps', 'lost', 'errors']),
  figures: z.looseObject(Object.fromEntries(FIGURE_KEYS.map((k) => [k, num]))),
  rule: z.string(),
});
