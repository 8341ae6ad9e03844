// Mixed read/write: one fio-style step (single.ts).
import { singleKind } from './single.js';

export const mix = singleKind('mix', 'Mixed read/write', 'randrw', 'Mix');
