// Ctrl-C on the terminal, as every long command takes it: the first SIGINT (or SIGTERM) cancels
// the job gracefully, so its files are removed; a second one exits at once.
export interface Cancel {
  signal: AbortSignal;
  /** 130 after SIGINT, 143 after SIGTERM, 0 when none came. */
  readonly exitCode: number;
  dispose(): void;
}

export function cancelOnSignals(): Cancel {
  const controller = new AbortController();
  let exitCode = 0;
  const onSignal = (sig: NodeJS.Signals): void => {
    if (exitCode) process.exit(exitCode);
    exitCode = sig === 'SIGINT' ? 130 : 143;
    controller.abort(new Error(`cancelled by ${sig}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    get exitCode() {
      return exitCode;
    },
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
