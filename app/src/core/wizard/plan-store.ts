// Where wizard plans live between sessions: one JSON file per plan in $DISKDIAL_HOME/plans,
// rewritten after every change (a format started, a result saved, a format done).
import path from 'node:path';
import { defaultDataDir } from '../history.js';
import { StateStore } from '../state-store.js';
import { parseWizardPlanState } from '../../model/wizard/plan-state.js';
import type { WizardPlanState } from '../../model/wizard/types.js';

export function plansDir(dataDir = defaultDataDir()): string {
  return path.join(dataDir, 'plans');
}

export class PlanStore extends StateStore<WizardPlanState> {
  constructor(dir: string = plansDir()) {
    super(dir, parseWizardPlanState);
  }
}
