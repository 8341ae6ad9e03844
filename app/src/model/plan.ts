// The model's kind union (what a result document's `kind` may be) and the plan vocabulary the
// result types and settings schemas share; each kind's module defines the rest (model/kinds/).
export { CDM_MODES, type CdmMode, type PlanSettings } from './kinds/plan.js';

export const TEST_KINDS = [
  'quick',
  'cdm',
  'sustained',
  'files',
  'seq-write',
  'seq-read',
  'rand-read',
  'rand-write',
  'mix',
  'video',
  'sweep',
  'small-files',
] as const;
export type TestKind = (typeof TEST_KINDS)[number];
