// The CrystalDiskMark grid: its profiles' rows, read column then write column then the mixes
// (its "All" order), on one laid-out file, 5 s a test (Fast: until the stop rule settles, 1–5 s).
import type { Rw } from '../engine-types.js';
import { inputError } from '../errors.js';
import { formatBytesBinary } from '../units.js';
import { sizeText } from '../report/figure-text.js';
import { CDM_PRESETS, GiB, oneFilePlan, stepName, type CdmPreset, type PlanOptions } from './plan.js';
import { cdmFigures } from './cdm-card.js';
import { screenRun, type KindModule } from './types.js';
import { DEFAULT_PRECISION } from '../precision.js';
import { precisionCli } from '../precision-cli.js';

interface CdmRow {
  seq: boolean;
  bs: number;
  qd: number;
  threads: number;
}
const row = (seq: boolean, bs: number, qd: number, threads = 1): CdmRow => ({ seq, bs, qd, threads });
/** CrystalDiskMark 8's profiles: Default, NVMe SSD, Peak Performance, Real World Performance. */
export const CDM_PRESET_ROWS: Record<CdmPreset, readonly CdmRow[]> = {
  default: [row(true, 1 * 1024 * 1024, 8), row(true, 1024 * 1024, 1), row(false, 4096, 32), row(false, 4096, 1)],
  nvme: [row(true, 1024 * 1024, 8), row(true, 128 * 1024, 32), row(false, 4096, 32, 16), row(false, 4096, 1)],
  peak: [row(true, 1024 * 1024, 8), row(false, 4096, 32)],
  realworld: [row(true, 1024 * 1024, 1), row(false, 4096, 1)],
  // Default's eight tests under the stop rule (± 3 % unless --precision says otherwise).
  fast: [row(true, 1 * 1024 * 1024, 8), row(true, 1024 * 1024, 1), row(false, 4096, 32), row(false, 4096, 1)],
};
export const CDM_MIN_SIZE = 16 * 1024 * 1024;
export const CDM_MAX_SIZE = 64 * 1024 * 1024 * 1024;
/** CrystalDiskMark measures each test for 5 s by default. */
export const CDM_SECONDS = 5;

const PRESET_NAMES: Record<string, string> = { default: 'Default', nvme: 'NVMe SSD', peak: 'Peak', realworld: 'Real World', fast: 'Fast' };

function cdmPreset(p: PlanOptions['preset']): CdmPreset {
  if (p === undefined) return 'default';
  if (!(CDM_PRESETS as readonly string[]).includes(p)) {
    throw inputError(`the CrystalDiskMark preset must be one of ${CDM_PRESETS.join(', ')}, not "${p}"`);
  }
  return p as CdmPreset;
}

export const cdm = {
  id: 'cdm',
  name: 'CrystalDiskMark grid',
  // CrystalDiskMark's default is 1 GiB.
  defaultSize: GiB,
  leastBytes: () => CDM_MIN_SIZE,
  plan: (asked) => {
    const preset = cdmPreset(asked.preset);
    const o = preset === 'fast' && asked.precision === undefined ? { ...asked, precision: DEFAULT_PRECISION } : asked;
    const rows = CDM_PRESET_ROWS[preset];
    const requested = o.size ?? GiB;
    if (requested < CDM_MIN_SIZE || requested > CDM_MAX_SIZE) {
      throw inputError(`test size ${formatBytesBinary(requested)} is outside CrystalDiskMark's range; use 16 MiB to 64 GiB`);
    }
    const mode = o.mode ?? 'readwrite';
    const passes: Array<'Read' | 'Write' | 'Mix'> =
      mode === 'readwrite'
        ? ['Read', 'Write']
        : mode === 'all'
          ? ['Read', 'Write', 'Mix']
          : mode === 'read'
            ? ['Read']
            : mode === 'write'
              ? ['Write']
              : ['Mix'];
    const mix = o.rwmixread ?? 70;
    // One file serves every step, so it must hold a whole number of the largest block per thread.
    // Block sizes, depths and threads are the profile's: --bs/--qd/--threads do not apply.
    const plan = oneFilePlan('cdm', o, requested, Math.max(...rows.map((r) => r.bs * r.threads)), (one) => {
      for (const p of passes) {
        for (const r of rows) {
          const prefix = r.seq ? 'SEQ' : 'RND';
          if (p === 'Mix') {
            one(
              stepName(prefix, r.bs, r.qd, r.threads, `Mix ${mix}/${100 - mix}`),
              r.seq ? 'rw' : 'randrw',
              r.bs,
              r.qd,
              r.threads,
              CDM_SECONDS,
            );
          } else {
            const rw: Rw = r.seq ? (p === 'Read' ? 'read' : 'write') : p === 'Read' ? 'randread' : 'randwrite';
            one(stepName(prefix, r.bs, r.qd, r.threads, p), rw, r.bs, r.qd, r.threads, CDM_SECONDS);
          }
        }
      }
    });
    plan.settings.preset = cdmPreset(o.preset);
    plan.settings.mode = mode;
    return plan;
  },
  cli: {
    flags: { preset: 'string', mode: 'string', rwmixread: 'string', ...precisionCli.flags },
    flagHelp: precisionCli.flagHelp,
    parse: precisionCli.parse,
    presets: CDM_PRESETS,
    refuse: {
      bs: '--bs does not apply to --test cdm: its block sizes and queue depths are the preset',
      qd: '--qd does not apply to --test cdm: its block sizes and queue depths are the preset',
      threads: '--threads does not apply to --test cdm: its block sizes and queue depths are the preset',
    },
  },
  report: {
    testGroup: {
      all: (n) => `all ${n} CrystalDiskMark tests`,
      some: (n, of) => `${n} of the ${of} CrystalDiskMark tests`,
    },
    titleParts: (doc) => {
      const s = doc.settings;
      return [...(s.preset ? [PRESET_NAMES[s.preset] ?? s.preset] : []), ...(s.size ? [sizeText(s.size)] : [])];
    },
  },
  card: cdmFigures,
  fromScreen: screenRun('cdm', (s) => ({
    preset: s.preset,
    mode: s.mode,
    size: s.sizeBytes,
    seconds: s.seconds,
    intervalSeconds: s.intervalSeconds,
    ...(s.precision !== undefined ? { precision: s.precision } : {}),
  })),
} as const satisfies KindModule<'cdm'>;
