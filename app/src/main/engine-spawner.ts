// Starts the engine host's child (services/engine-host-child.ts) as an Electron utilityProcess and
// adapts it to the HostChannel that EngineHost speaks. Why a utilityProcess: the native engine
// never loads into the main process, so a crash or hang in C++ ends one test, not the app; and
// unlike child_process.fork it needs no ELECTRON_RUN_AS_NODE, which electron-builder.yml's fuses
// turn off (security checklist item 19, "Check which fuses you can change").
import type { UtilityProcess } from 'electron';
import { utilityProcess } from 'electron';
import type { HostChannel, Spawner } from '../services/engine-host.js';

/** What the adapter needs of a utility process; Electron's UtilityProcess has all of it. */
export type UtilityChild = Pick<UtilityProcess, 'postMessage' | 'kill' | 'on' | 'pid' | 'stdout' | 'stderr'>;

/** Wraps a started utility process as a HostChannel. Exported for tests. */
export function adaptUtilityProcess(child: UtilityChild): HostChannel {
  const exitCbs: Array<(code: number | null, signal: string | null) => void> = [];
  let exited = false;
  child.on('exit', (code: number) => {
    if (exited) return;
    exited = true;
    // utilityProcess reports only an exit code; a signal death shows up as a code, not a name.
    for (const cb of exitCbs) cb(code, null);
  });
  // 'stdio: pipe' so the engine's output lands in the main process's log (a packaged app has
  // no terminal for an inherited stdout); `end: false` keeps our own streams open after it exits.
  child.stdout?.pipe(process.stdout, { end: false });
  child.stderr?.pipe(process.stderr, { end: false });
  return {
    get pid() {
      return child.pid;
    },
    send(msg) {
      // Posting to a process that is gone throws; EngineHost learns of the death from onExit.
      if (!exited) child.postMessage(msg);
    },
    onMessage(cb) {
      child.on('message', (msg: unknown) => cb(msg));
    },
    onExit(cb) {
      exitCbs.push(cb);
    },
    kill() {
      if (!exited) child.kill();
    },
  };
}

/** The Spawner Electron main hands to EngineHost. Only callable after app `ready`. */
export const electronSpawner: Spawner = (modulePath) =>
  adaptUtilityProcess(
    utilityProcess.fork(modulePath, [], {
      serviceName: 'DiskDial engine',
      stdio: 'pipe',
    }),
  );
