// `diskdial serve`: builds the same services the desktop app uses — tests run in an engine child
// process, so a native crash ends a test and not the server — and puts the browser-mode server
// in front of them. Runs until SIGINT/SIGTERM, then stops any test (its files are removed) and
// exits 0 — within a second even when a test's drive does not answer (the test is let go of).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { findPackageRoot } from '../core/engine.js';

import { createDispatcher } from '../ipc/dispatch.js';
import { startServer } from '../server/serve.js';
import { EngineHost } from '../services/engine-host.js';
import { frontDoorServices } from '../services/index.js';
import type { ServeCommand } from './args-serve.js';
import { appVersion } from '../core/result.js';
import { abandonOpenWorkspaces } from '../core/workspace.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** The longest Ctrl-C waits for the server to wind down (idle: ~0.47 s) before it leaves what is
 *  left to the background remover. With the 0.1 s exit below it keeps 0.3 s of the promised second
 *  for a loaded machine's scheduling: at 0.9 s, an exit under stress-ng took 1.21 s. */
const SHUTDOWN_WAIT_MS = 600;

/** Where the built UI lives: dist/renderer, or DISKDIAL_RENDERER_DIR (packagers, tests). */
export function rendererDir(): string {
  return process.env.DISKDIAL_RENDERER_DIR || path.join(findPackageRoot(), 'dist/renderer');
}

/** Why the wizard may not erase in browser mode unless asked for, and how to allow it. */
export const ERASE_REFUSED =
  'Erasing disks is not allowed in this browser mode: nothing was erased. To let DiskDial erase or overwrite a disk (the wizard, a test of a whole disk), stop DiskDial and start it again with diskdial serve --allow-erase, or use the desktop app.';

export interface ServeIo {
  out(line: string): void;
  /** One line, already plain words; returns the exit code to use. */
  fail(message: string, code: number): number;
}

export async function serve(cmd: ServeCommand, io: ServeIo): Promise<number> {
  const dir = rendererDir();
  if (!existsSync(path.join(dir, 'index.html'))) return io.fail('The UI is not built: run `npm run build:renderer`.', 1);

  const host = new EngineHost();
  // The engine's child process starts with the server, not when the first page asks for its
  // version: starting then, it competed with that page's first requests for the two cores.
  void host.version().catch(() => undefined);
  // The same history folder as the desktop app and `diskdial history`.
  const dispatcher = createDispatcher(
    await frontDoorServices(host, cmd.allowErase ? {} : { eraseRefused: ERASE_REFUSED }, { appVersion: appVersion(), shell: 'browser' }),
  );

  let server;
  try {
    // DISKDIAL_TOKEN keeps the URL the same across restarts (with --port), so an open page
    // reconnects by itself; without it every start makes a new random token.
    const token = process.env.DISKDIAL_TOKEN;
    server = await startServer({ port: cmd.port, rendererDir: dir, dispatcher, ...(token ? { token } : {}) });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      return io.fail(`port ${cmd.port} is already in use; pick another with --port, or leave it out for a free one`, 1);
    if (code === 'EACCES') return io.fail(`port ${cmd.port} needs special permission; use one above 1023`, 1);
    return io.fail(err instanceof Error ? err.message : String(err), 1);
  }

  io.out(`DiskDial is running at ${server.url}`);
  io.out('Press Ctrl-C to stop.');
  if (cmd.allowErase) io.out('The format-and-compare wizard may erase disks (--allow-erase).');

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  // A second signal while a test winds down means "now": the workspace exit hook still removes
  // the test folder.
  const hurry = (): void => {
    abandonOpenWorkspaces();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', hurry);
  process.once('SIGTERM', hurry);
  // A job whose drive does not answer is let go of (JobSlot, EngineHost) rather than waited for;
  // and whatever still waits on a drive in this process after that does not hold the exit.
  const closed = (async () => {
    await dispatcher.close();
    await server.close();
    await host.close();
  })();
  const inTime = await Promise.race([closed.then(() => true), sleep(SHUTDOWN_WAIT_MS).then(() => false)]);
  process.off('SIGINT', hurry);
  process.off('SIGTERM', hurry);
  if (!inTime) {
    const left = abandonOpenWorkspaces();
    io.out(
      `Stopped without waiting for a drive that is not answering.${left.length ? ` Left: ${left.join(', ')} (removed in the background, or by the next start).` : ''}`,
    );
  }
  // Unref'd: an exit that comes by itself comes first; one held by an I/O on a stuck drive does not wait.
  setTimeout(() => process.exit(0), 100).unref();
  return 0;
}
