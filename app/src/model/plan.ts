// The plan vocabulary the result types and settings schemas share; the kinds' modules define it.
export { CDM_MODES, type CdmMode, type PlanSettings } from './kinds/plan.js';
export { TEST_KINDS, type TestKind } from './kinds/registry.js';
