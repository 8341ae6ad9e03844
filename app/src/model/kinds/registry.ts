// Every test kind, in the order lists show them, and the only list of them. Adding a kind: its
// folder (kinds/<kind>/), one line here, its renderer panel and its tests.
import { cdm } from './cdm.js';
import { check } from './check.js';
import { cipher } from './cipher.js';
import { files } from './files.js';
import { hash } from './hash.js';
import { mix } from './mix.js';
import { quick } from './quick.js';
import { randRead } from './rand-read.js';
import { randWrite } from './rand-write.js';
import { seqRead } from './seq-read.js';
import { seqWrite } from './seq-write.js';
import { share } from './share/index.js';
import { sustained } from './sustained/index.js';
import { smallFiles } from './small-files/index.js';
import { sweep } from './sweep/index.js';
import { video } from './video/index.js';
import { verify } from './verify/index.js';
import type { ReportSection } from '../report/section.js';
import type { FlagType, KindModule } from './types.js';

const RUN = [quick, cdm, sustained, files, seqWrite, seqRead, randRead, randWrite, mix, video, sweep, smallFiles, verify, share] as const;
const RESULT = [...RUN, hash, check, cipher] as const;

export type TestKind = (typeof RUN)[number]['id'];
export type ResultKind = (typeof RESULT)[number]['id'];

/** The kinds the benchmark runner plans and runs, in the order lists show them. */
export const RUN_KINDS: readonly KindModule<TestKind>[] = RUN;
/** Every kind a result document may be: the runner's, the hash test, the folder check and the cipher ceiling. */
export const RESULT_KINDS: readonly KindModule<ResultKind>[] = RESULT;

export const TEST_KINDS = RUN_KINDS.map((k) => k.id) as readonly TestKind[] as readonly [TestKind, ...TestKind[]];

/** The kinds the format-and-compare wizard offers as plans of their own (their `wizard` hook). */
export type WizardKind = Extract<(typeof RUN)[number], { wizard: object }>['id'];
export const WIZARD_KINDS = RUN_KINDS.filter((k) => k.wizard) as ReadonlyArray<
  KindModule<WizardKind> & Required<Pick<KindModule, 'wizard' | 'plan'>>
>;

type FlagsOf<K> = K extends { cli: { flags: infer F } } ? F : never;
type Both<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** Every flag a kind claims, with how the command line reads it: the kinds' own `cli.flags`. */
export type KindFlagTypes = Both<FlagsOf<(typeof RUN)[number]>>;
export type KindFlag = keyof KindFlagTypes & string;

/** Each flag the kinds claim: how the command line reads it and the kinds that take it, in the
 *  order help lists them (the CLI's option table, its checks and `run --help` read this). */
export const KIND_FLAGS: ReadonlyMap<KindFlag, { type: FlagType; kinds: readonly TestKind[] }> = (() => {
  const out = new Map<KindFlag, { type: FlagType; kinds: TestKind[] }>();
  for (const k of RUN_KINDS)
    for (const [flag, type] of Object.entries(k.cli?.flags ?? {}) as Array<[KindFlag, FlagType]>) {
      const seen = out.get(flag);
      if (seen && seen.type !== type) throw new Error(`--${flag} is read as a ${seen.type} by one kind and a ${type} by ${k.id}`);
      out.set(flag, { type, kinds: [...(seen?.kinds ?? []), k.id] });
    }
  return out;
})();

/** The commands of the kinds that run on a whole unmounted disk (`wholeDevice`). */
export const DEVICE_COMMANDS: ReadonlyMap<string, TestKind> = new Map(
  RUN_KINDS.flatMap((k) => (k.wholeDevice ? [[k.wholeDevice.command, k.id] as const] : [])),
);

/** The sections the kinds add to exports, in the order the formats print them. */
export const REPORT_SECTIONS: readonly ReportSection[] = RESULT_KINDS.flatMap((k) => k.report?.sections ?? []);

const BY_ID = new Map<string, KindModule>(RESULT_KINDS.map((k) => [k.id, k]));

export function isTestKind(s: string): s is TestKind {
  return (TEST_KINDS as readonly string[]).includes(s);
}

/** The module of a kind a result names; undefined for one this build does not know. */
export function kindOf(id: string): KindModule | undefined {
  return BY_ID.get(id);
}

/** The module of a runnable kind, with its plan. */
export function runKind(id: TestKind): KindModule & Required<Pick<KindModule, 'plan'>> {
  return BY_ID.get(id) as KindModule & Required<Pick<KindModule, 'plan'>>;
}
