// Ctrl-C on the terminal, as every long command takes it: the first SIGINT (or SIGTERM) cancels
// the job gracefully, so its files are removed; a second one exits at once. Either way the user
// gets the prompt back within a second: a job still winding down after STOP_WAIT_MS is waiting on
// a drive that does not answer, and is left behind (its test folder removed in the background).
import { abandonOpenWorkspaces } from '../core/workspace.js';

/** How long after the first signal the job may take to end. The engine confirms a cancel within
 *  a quarter second, and one stuck in the kernel is given up on within half a second
 *  (EngineHost); what still waits after this waits on the drive itself. */
export const STOP_WAIT_MS = 750;

export interface Cancel {
  signal: AbortSignal;
  /** 130 after SIGINT, 143 after SIGTERM, 0 when none came. */
  readonly exitCode: number;
  dispose(): void;
}

export interface CancelOptions {
  /** Sees a signal first; true when it took it (--loop's first Ctrl-C ends the loop instead). */
  intercept?: (sig: NodeJS.Signals) => boolean;
  /** Stop waiting STOP_WAIT_MS after the first signal (commands whose engine runs in child
   *  processes: nothing of theirs in this process is worth waiting on a stuck drive for). */
  giveUpAfterWait?: boolean;
  /** What else to say when the CLI stops without waiting (after "the drive is not answering"). */
  leftBehind?: string;
}

/** Lets go of the job's folders (removed in the background, else by the next start) and says so. */
function giveUp(leftBehind: string | undefined): void {
  const dirs = abandonOpenWorkspaces();
  const where = dirs.length > 0 ? ` Left on it: ${dirs.join(', ')} (removed in the background, or by the next DiskDial start there).` : '';
  process.stderr.write(
    `\ndiskdial: stopped without waiting for the drive, which is not answering.${where}${leftBehind ? ` ${leftBehind}` : ''}\n`,
  );
}

export function cancelOnSignals(opts: CancelOptions = {}): Cancel {
  const controller = new AbortController();
  let exitCode = 0;
  let ended = false;
  const onSignal = (sig: NodeJS.Signals): void => {
    if (opts.intercept?.(sig)) return;
    if (exitCode) {
      // "Now": the exit hook must not wait on the drive either.
      abandonOpenWorkspaces();
      process.exit(exitCode);
    }
    exitCode = sig === 'SIGINT' ? 130 : 143;
    controller.abort(new Error(`cancelled by ${sig}`));
    if (!opts.giveUpAfterWait) return;
    // Unref'd: a job that ends in time exits as usual; one that does not, does not hold the prompt.
    setTimeout(() => {
      if (!ended) giveUp(opts.leftBehind);
      process.exit(exitCode);
    }, STOP_WAIT_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    get exitCode() {
      return exitCode;
    },
    dispose: () => {
      ended = true;
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** The line for a cancel whose engine was given up on (stuck in the kernel), or undefined. */
export function stuckLine(err: unknown, then: string): string | undefined {
  const e = err as { engineStuck?: boolean; enginePid?: number };
  if (!e?.engineStuck) return undefined;
  const pid = e.enginePid !== undefined ? ` (pid ${e.enginePid})` : '';
  return `cancelled; the drive is not answering: the engine process${pid} is stuck in the kernel and ends when the drive answers or is unplugged; ${then}`;
}
