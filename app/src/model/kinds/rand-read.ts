// Random read: one fio-style step (single.ts).
import { singleKind } from './single.js';

export const randRead = singleKind('rand-read', 'Random read', 'randread', 'Read');
