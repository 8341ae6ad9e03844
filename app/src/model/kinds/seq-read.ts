// Sequential read: one fio-style step (single.ts).
import { singleKind } from './single.js';

export const seqRead = singleKind('seq-read', 'Sequential read', 'read', 'Read');
