// The fio-style single tests (seq-read, rand-write, mix…): one step, one shared file, block
// size, depth and threads from the options or the kind's defaults.
import type { Rw } from '../engine-types.js';
import { GiB, KiB, MiB, oneFilePlan, stepName } from './plan.js';
import type { KindModule } from './types.js';

/** Random tests over a whole GiB at QD1 could take an hour on a hard disk: bound them by time. */
export const RANDOM_SECONDS = 5;

export function singleKind<Id extends string>(id: Id, name: string, rw: Rw, what: 'Read' | 'Write' | 'Mix'): KindModule<Id> {
  const seq = rw === 'read' || rw === 'write';
  return {
    id,
    name,
    defaultSize: GiB,
    cliOnly: true,
    plan: (o) => {
      const bs = o.bs ?? (seq ? MiB : 4 * KiB);
      const qd = o.qd ?? (seq ? 8 : 32);
      const threads = o.threads ?? 1;
      const label = what === 'Mix' ? `Mix ${o.rwmixread ?? 70}/${100 - (o.rwmixread ?? 70)}` : what;
      return oneFilePlan(id, o, o.size ?? GiB, bs * threads, (one) =>
        one(stepName(seq ? 'SEQ' : 'RND', bs, qd, threads, label), rw, bs, qd, threads, seq ? undefined : RANDOM_SECONDS),
      );
    },
  };
}
