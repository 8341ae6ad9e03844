// Random write: one fio-style step (single.ts).
import { singleKind } from './single.js';

export const randWrite = singleKind('rand-write', 'Random write', 'randwrite', 'Write');
