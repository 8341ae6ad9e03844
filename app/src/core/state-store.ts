// Long jobs that outlive a session (wizard plans, setup campaigns) keep their state as one JSON file
// per job, rewritten atomically after every change, so a crash, a pulled disk or a power cut loses
// only the step in progress and the job can be resumed.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './history.js';
import { isPidAlive } from './owner-marker.js';
import { readUserText } from './safe-read.js';
import { RESULT_ID_RE } from '../model/result-parse.js';

/** What a resumable job's state has in common. */
export interface JobState {
  schema: 1;
  id: string;
  updatedAt: string;
  status: string;
  pid?: number;
  steps: unknown[];
}

/** A plan or campaign state is a few KB; anything near this is not one. */
const MAX_STATE_BYTES = 4 * 1024 ** 2;

export class StateStore<T extends JobState> {
  /** `parse` validates what a file holds (it may have been edited, cut short or planted): undefined
   *  for anything that is not a sound state, which is then skipped like an unreadable file. */
  constructor(
    readonly dir: string,
    private readonly parse: (raw: unknown) => T | undefined,
  ) {}

  async save(state: T): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
    state.updatedAt = new Date().toISOString();
    await writeFileAtomic(this.#file(state.id), `${JSON.stringify(state, null, 2)}\n`);
  }

  async get(id: string): Promise<T | undefined> {
    if (!RESULT_ID_RE.test(id)) return undefined;
    try {
      return this.parse(
        JSON.parse(await readUserText(this.#file(id), { what: 'a saved job state', maxBytes: MAX_STATE_BYTES, follow: false })),
      );
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

  /** Jobs that did not finish: stopped, failed, or 'running' in a process that is gone (or in
   *  `activeId`'s process: this one). Newest first; unreadable files are skipped. */
  async unfinished(activeId?: string): Promise<T[]> {
    let names: string[];
    try {
      names = await fsp.readdir(this.dir);
    } catch {
      return [];
    }
    const out: T[] = [];
    for (const name of names) {
      if (!name.endsWith('.json') || name.startsWith('.')) continue;
      const state = await this.get(name.slice(0, -5));
      if (!state) continue;
      if (state.status === 'done' || state.id === activeId) continue;
      if (state.status === 'running' && state.pid !== undefined && state.pid !== process.pid && isPidAlive(state.pid)) continue;
      out.push(state);
    }
    return out.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  }

  /** The job whose id is `ref` or starts with it (8 characters as the CLI prints them). */
  async find(ref: string): Promise<T | undefined> {
    const exact = await this.get(ref);
    if (exact || ref.length < 4) return exact;
    let names: string[];
    try {
      names = await fsp.readdir(this.dir);
    } catch {
      return undefined;
    }
    const hits = names.filter((n) => n.endsWith('.json') && n.startsWith(ref));
    return hits.length === 1 ? this.get(hits[0]!.slice(0, -5)) : undefined;
  }

  #file(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }
}
