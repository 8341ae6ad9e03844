// Any benchmark the CLI can ask for (every option of `diskdial run`, `hash` and `check`, more
// than a screen offers), run as a job in the shared slot and saved through HistoryService, so the
// CLI keeps the same rules as the app and browser mode: one test at a time, results saved the
// same way. The CLI has no window: its progress goes to a callback, and the job ends when the
// returned promise settles (with the runner's own error, AbortError included).
import { runHash, runTest, type EngineFn, type HashFn } from '../core/engine.js';
import { runFolderCheck, type RunCheckOptions } from '../core/check-run.js';
import { runHashBenchmark, type RunHashBenchmarkOptions } from '../core/hash-run.js';
import type { ResultDocument } from '../model/result.js';
import { runBenchmark, type RunBenchmarkOptions } from '../core/runner.js';
import type { EventSink } from '../model/event-map.js';
import type { SavedNote } from '../model/events.js';
import type { HistoryService } from './history.js';
import { sharedSlot, type JobSlot } from './job-slot.js';

type Owned = 'engine' | 'signal' | 'handleSignals';
export type RunRequest =
  | { kind: 'benchmark'; options: Omit<RunBenchmarkOptions, Owned> }
  | { kind: 'hash'; options: Omit<RunHashBenchmarkOptions, Owned> }
  | { kind: 'check'; options: Omit<RunCheckOptions, Owned> };

export interface RunServiceDeps {
  /** The engine's calls (default: in-process; the CLI passes an EngineHostPool, so that a drive
   *  holding the engine in the kernel never holds Ctrl-C). */
  engine?: { runHash: HashFn; runTest: EngineFn };
  /** Where results are saved (none: never). */
  history?: HistoryService;
  slot?: JobSlot;
}

/** A job nobody watches through events: the CLI's. */
const NO_WINDOW: EventSink = { alive: true, send: () => undefined };

export class RunService {
  readonly slot: JobSlot;
  readonly #engine: { runHash: HashFn; runTest: EngineFn };
  readonly #history: HistoryService | undefined;

  /** Where results are saved, if anywhere (the CLI reads saved paced tests through it). */
  get history(): HistoryService | undefined {
    return this.#history;
  }

  constructor(deps: RunServiceDeps = {}) {
    this.slot = deps.slot ?? sharedSlot;
    this.#engine = deps.engine ?? { runHash, runTest };
    this.#history = deps.history;
  }

  /** Runs one benchmark to its end in the slot (ERR_BUSY when another runs); `signal` stops it. */
  async run(req: RunRequest, signal?: AbortSignal): Promise<ResultDocument> {
    let outcome = { err: new Error('the job did not run') } as { doc: ResultDocument } | { err: unknown };
    let finished: Promise<void> = Promise.resolve();
    this.slot.start(
      NO_WINDOW,
      (job) =>
        (finished = (async () => {
          const stop = (): void => job.controller.abort(signal?.reason);
          if (signal?.aborted) stop();
          signal?.addEventListener('abort', stop, { once: true });
          const own = { engine: this.#engine, signal: job.controller.signal, handleSignals: false };
          try {
            const doc =
              req.kind === 'hash'
                ? await runHashBenchmark({ ...req.options, ...own })
                : req.kind === 'check'
                  ? await runFolderCheck({ ...req.options, engine: this.#engine, signal: job.controller.signal })
                  : await runBenchmark({ ...req.options, ...own, engine: this.#engine.runTest });
            outcome = { doc };
          } catch (err) {
            outcome = { err };
          } finally {
            signal?.removeEventListener('abort', stop);
            this.slot.release(job);
          }
        })()),
      this,
    );
    await finished;
    if ('err' in outcome) throw outcome.err;
    return outcome.doc;
  }

  /** Saves a result as every front door does; undefined when nothing saves results. */
  async save(doc: ResultDocument): Promise<SavedNote | undefined> {
    return this.#history?.record(doc);
  }
}
