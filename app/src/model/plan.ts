// The plan vocabulary the result types and settings schemas share; each kind's module defines the
// rest (model/kinds/). The kinds themselves are listed once, in model/kinds/registry.ts.
export { CDM_MODES, type CdmMode, type PlanSettings } from './kinds/plan.js';
