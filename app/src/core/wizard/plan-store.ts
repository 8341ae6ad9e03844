// Where wizard plans live between sessions: one JSON file per plan in $DISKDIAL_HOME/plans,
// rewritten atomically after every change (a format started, a result saved, a format done), so
// a crash, a pulled disk or a power cut loses only the format in progress and the app can offer
// to resume.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { defaultDataDir, writeFileAtomic } from '../history.js';
import { RESULT_ID_RE } from '../../model/result-parse.js';
import type { WizardPlanState } from '../../model/wizard/types.js';

export function plansDir(dataDir = defaultDataDir()): string {
  return path.join(dataDir, 'plans');
}

/** Is process `pid` still running? (A 'running' plan whose process is gone was interrupted.) */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class PlanStore {
  constructor(readonly dir: string = plansDir()) {}

  async save(state: WizardPlanState): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
    state.updatedAt = new Date().toISOString();
    await writeFileAtomic(this.#file(state.id), `${JSON.stringify(state, null, 2)}\n`);
  }

  async get(id: string): Promise<WizardPlanState | undefined> {
    if (!RESULT_ID_RE.test(id)) return undefined;
    try {
      return JSON.parse(await fsp.readFile(this.#file(id), 'utf8')) as WizardPlanState;
    } catch {
      return undefined;
    }
  }

  async delete(id: string): Promise<boolean> {
    if (!RESULT_ID_RE.test(id)) return false;
    try {
      await fsp.unlink(this.#file(id));
      return true;
    } catch {
      return false;
    }
  }

  /** Plans that did not finish: stopped, failed, or 'running' in a process that is gone (or in
   *  `activeId`'s process: this one). Newest first; unreadable files are skipped. */
  async unfinished(activeId?: string): Promise<WizardPlanState[]> {
    let names: string[];
    try {
      names = await fsp.readdir(this.dir);
    } catch {
      return [];
    }
    const out: WizardPlanState[] = [];
    for (const name of names) {
      if (!name.endsWith('.json') || name.startsWith('.')) continue;
      const state = await this.get(name.slice(0, -5));
      if (!state || state.schema !== 1 || !Array.isArray(state.steps)) continue;
      if (state.status === 'done' || state.id === activeId) continue;
      if (state.status === 'running' && state.pid !== undefined && state.pid !== process.pid && processAlive(state.pid)) continue;
      out.push(state);
    }
    return out.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  }

  #file(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }
}
