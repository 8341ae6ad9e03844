// The folder-check job: one runFolderCheck (core/check-run.ts) with throttled progress (files and
// bytes done, the current file) and exactly one 'check.done', sent only to the sink that started it.
import { runFolderCheck } from '../core/check-run.js';
import type { HashFn } from '../core/engine.js';
import { DiskDialError } from '../model/errors.js';
import type { CheckDoneEvent } from '../model/events.js';
import type { CheckSettings } from '../model/settings.js';
import type { EventSink } from '../model/event-map.js';
import { SlotService, type JobRun, type SlotServiceDeps } from './job-slot.js';
import path from 'node:path';

export interface FolderCheckDeps extends SlotServiceDeps {
  /** The engine's hash call: an EngineHost's (crash isolation), or the in-process core one. */
  engine: { runHash: HashFn };
  /** Least time between two forwarded progress events (default 100 ms). */
  progressIntervalMs?: number;
  /** Seconds of the in-memory ceiling measurement (default 1). */
  ceilingSeconds?: number;
  /** How many files `engine` can hash at once; absent: as many as the streams. */
  streamsCap?: { max: number; why: string };
}

export class FolderCheckService extends SlotService<CheckSettings> {
  readonly #deps: FolderCheckDeps;

  constructor(deps: FolderCheckDeps) {
    super(deps);
    this.#deps = deps;
  }

  /** A start from a front door: busy first, then a folder named by a relative path, as a reply. */
  request(settings: CheckSettings, sink: EventSink): Promise<{ jobId: string }> {
    return this.startChecked(settings, sink, async () => {
      if (!path.isAbsolute(settings.folder)) {
        throw new DiskDialError(`Give the folder's full path (from /), not "${settings.folder}".`, {
          code: 'ERR_INVALID_PATH',
          path: settings.folder,
        });
      }
    });
  }

  protected async run(run: JobRun, settings: CheckSettings): Promise<void> {
    const { signal, emit, watch } = run;
    const jobId = run.job.id;
    const finish = (done: Omit<CheckDoneEvent, 'jobId'>): void => run.finish('check.done', { jobId, ...done });
    const due = run.throttle(this.#deps.progressIntervalMs ?? 100);
    try {
      const result = await runFolderCheck({
        folder: settings.folder,
        ...(settings.algo ? { algo: settings.algo } : {}),
        ...(settings.cache ? { cache: settings.cache } : {}),
        ...(settings.action === 'verify-only' ? { verifyOnly: true } : settings.action === 'update' ? { update: true } : {}),
        ...(this.#deps.ceilingSeconds !== undefined ? { ceilingSeconds: this.#deps.ceilingSeconds } : {}),
        ...(this.#deps.streamsCap ? { streamsCap: this.#deps.streamsCap } : {}),
        engine: this.#deps.engine,
        signal,
        onProgress: (p) => {
          watch();
          if (!due('files') && p.filesDone < p.filesTotal) return;
          emit('check.progress', { jobId, ...p });
        },
      });
      finish(signal.aborted ? { outcome: 'stopped' } : { outcome: 'finished', result, ...(await this.record(result)) });
    } catch (err) {
      finish(run.ended(err, { path: settings.folder }));
    }
  }
}
