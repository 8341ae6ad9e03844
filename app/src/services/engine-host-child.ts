// The engine host's child process: the only process that loads the native addon when the app or
// `diskdial serve` runs a test. If the engine crashes or hangs, this process dies (or is killed)
// and the parent reports it; the parent never runs native test code itself.
//
// It speaks a tiny message protocol with EngineHost (engine-host.ts), over whichever channel it
// was started with: Node's fork (process.send / process.on('message')) or Electron's
// utilityProcess (process.parentPort). Messages:
//   parent → child  {type:'run', id, spec} (a test) | {type:'hash', id, spec} (a hash measurement)
//                   | {type:'cancel', id} | {type:'version', id}
//   child → parent  {type:'progress', id, progress} | {type:'result', id, result}
//                   | {type:'error', id, error: {name, message, code, errno, syscall, path}}
//                   | {type:'version', id, version, cryptoProvider} | {type:'version', id, error}
// Errors cross as plain data: neither channel keeps an Error's own fields.
import type { EngineProgress, EngineSpec, HashProgress, HashSpec } from '../model/engine-types.js';
import { cryptoProvider, engineVersion, runHash, runTest } from '../core/engine.js';

/** Electron's utilityProcess gives the child a MessagePort-like `process.parentPort`. */
interface ParentPort {
  on(event: 'message', cb: (e: { data: unknown }) => void): void;
  postMessage(msg: unknown): void;
}

export interface PlainError {
  name: string;
  message: string;
  code?: string;
  errno?: number;
  syscall?: string;
  path?: string;
}

function toWireError(err: unknown): PlainError {
  const e = (typeof err === 'object' && err !== null ? err : {}) as Record<string, unknown>;
  const out: PlainError = {
    name: typeof e.name === 'string' ? e.name : 'Error',
    message: typeof e.message === 'string' ? e.message : String(err),
  };
  if (typeof e.code === 'string') out.code = e.code;
  if (typeof e.errno === 'number') out.errno = e.errno;
  if (typeof e.syscall === 'string') out.syscall = e.syscall;
  if (typeof e.path === 'string') out.path = e.path;
  return out;
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

function post(msg: unknown): void {
  try {
    if (parentPort) parentPort.postMessage(msg);
    else process.send?.(msg);
  } catch {
    // The parent is gone; the disconnect handler below ends this process.
  }
}

/** Tests in flight, by the parent's id: their cancel switches. */
const running = new Map<number, AbortController>();

function handle(raw: unknown): void {
  if (typeof raw !== 'object' || raw === null) return;
  const msg = raw as { type?: unknown; id?: unknown; spec?: unknown };
  if (typeof msg.id !== 'number') return;
  const id = msg.id;
  if (msg.type === 'version') {
    try {
      post({ type: 'version', id, version: engineVersion(), cryptoProvider: cryptoProvider() });
    } catch (err) {
      post({ type: 'version', id, error: toWireError(err) });
    }
    return;
  }
  if (msg.type === 'cancel') {
    running.get(id)?.abort(new Error('cancelled by the parent'));
    return;
  }
  if ((msg.type !== 'run' && msg.type !== 'hash') || running.has(id)) return;
  const controller = new AbortController();
  running.set(id, controller);
  const onProgress = (progress: EngineProgress | HashProgress): void => post({ type: 'progress', id, progress });
  const job: Promise<unknown> =
    msg.type === 'hash'
      ? runHash(msg.spec as HashSpec, { signal: controller.signal, onProgress })
      : runTest(msg.spec as EngineSpec, { signal: controller.signal, onProgress });
  job
    .then(
      (result) => post({ type: 'result', id, result }),
      (err: unknown) => post({ type: 'error', id, error: toWireError(err) }),
    )
    .finally(() => running.delete(id));
}

// The parent owns this process's lifetime. Ctrl-C in a terminal signals the whole process group;
// if the engine died of it at once, the parent's orderly stop (cancel, wait, remove the files)
// would turn into a reported crash.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);

if (parentPort) {
  parentPort.on('message', (e) => handle(e.data));
} else if (process.send) {
  process.on('message', handle);
  // The parent went away (quit or crashed): nobody is left to read results or to remove the
  // test files, so stop now rather than keep writing into a folder that is being deleted.
  process.on('disconnect', () => process.exit(0));
} else {
  process.stderr.write('engine-host-child: start me through EngineHost (fork or utilityProcess), not directly\n');
  process.exit(2);
}
