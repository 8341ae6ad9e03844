// Sequential write: one fio-style step (single.ts).
import { singleKind } from './single.js';

export const seqWrite = singleKind('seq-write', 'Sequential write', 'write', 'Write');
