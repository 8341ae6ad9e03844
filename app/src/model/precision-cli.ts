// --precision on the command line: a percentage read into the stop rule's fraction, as the kinds
// that take it (the CrystalDiskMark grid, the Quick Test, the sweep) declare and parse it. Apart
// from precision.ts so the result types it feeds need not import the errors module.
import { inputError } from './errors.js';

/** --precision as a fraction: "3", "3%" or "2.5 %" → 0.03, 0.025; 0.1 % to 50 %. */
export function parsePrecision(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
  const pct = m ? Number(m[1]) : NaN;
  if (!(pct >= 0.1 && pct <= 50)) throw inputError(`--precision must be a percentage from 0.1 to 50, e.g. 3 or 3%, not "${text}"`);
  return pct / 100;
}

/** The --precision flag as a kind's CLI declares and reads it. */
export const precisionCli = {
  flags: { precision: 'string' },
  flagHelp: { precision: 'P         end each test once its 95 % interval is within ± P % (fast: 3)' },
  parse: (flag: (name: string) => string | undefined): { precision?: number } => {
    const p = flag('precision');
    return p === undefined ? {} : { precision: parsePrecision(p) };
  },
} as const;
