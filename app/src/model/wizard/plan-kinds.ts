// What the wizard can run on each format; apart from types.ts so the settings schema can name
// them without importing the wizard's vocabulary.
export const WIZARD_PLAN_KINDS = ['quick', 'cdm', 'files', 'write', 'sustained', 'hash'] as const;
export type WizardPlanKind = (typeof WIZARD_PLAN_KINDS)[number];
