// What the wizard can run on each format: its own plans, and each kind whose registry entry has a
// wizard hook (kinds/types.ts), before the Hash test. Apart from types.ts so the settings schema
// can name them without importing the wizard's vocabulary.
import { WIZARD_KINDS, type WizardKind } from '../kinds/registry.js';

export type WizardPlanKind = 'quick' | 'cdm' | 'files' | 'write' | WizardKind | 'hash';
export const WIZARD_PLAN_KINDS = [
  'quick',
  'cdm',
  'files',
  'write',
  ...WIZARD_KINDS.map((k) => k.id),
  'hash',
] as readonly WizardPlanKind[] as readonly [WizardPlanKind, ...WizardPlanKind[]];

/** The registry kind a plan runs as its own, with its wizard words; undefined for the wizard's own plans. */
export function wizardKindOf(plan: string): (typeof WIZARD_KINDS)[number] | undefined {
  return WIZARD_KINDS.find((k) => k.id === plan);
}
