// The wizard as root runs it for real in tests: the Linux provider, a direct command runner, and a
// service on the real engine keeping everything under one folder.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runTest } from '../../app/src/core/engine.js';
import { HistoryStore } from '../../app/src/core/history.js';
import { createCommandRunner, readCommand } from '../../app/src/core/exec/commands.js';
import { createLinuxProvider, systemProbe } from '../../app/src/core/wizard/linux.js';
import { PlanStore } from '../../app/src/core/wizard/plan-store.js';
import type { CommandRunner, WizardProvider } from '../../app/src/core/wizard/provider.js';
import { WizardService } from '../../app/src/services/wizard.js';

/** The real Linux provider and a command runner as root runs them. */
export function realLinux(onCommand?: Parameters<typeof createCommandRunner>[0]['onCommand']): {
  provider: WizardProvider;
  run: CommandRunner;
} {
  return {
    provider: createLinuxProvider({ exec: readCommand, probe: systemProbe }),
    run: createCommandRunner({ elevate: 'direct', ...(onCommand ? { onCommand } : {}) }),
  };
}

/** A wizard on the real engine that keeps its results, plans and work under `home`. */
export function realWizard(
  home: string,
  opts: {
    provider: WizardProvider;
    run: CommandRunner;
    history?: HistoryStore;
    plans?: PlanStore;
    afterFormat?: ((format: string) => void) | undefined;
  },
): WizardService {
  const history = opts.history ?? new HistoryStore(path.join(home, 'results'));
  return new WizardService({
    provider: opts.provider,
    engine: runTest,
    history: { save: (d) => history.save(d), delete: (ids) => history.delete(ids) },
    plans: opts.plans ?? new PlanStore(path.join(home, 'plans')),
    workRoot: path.join(home, 'wizard'),
    run: opts.run,
    ...(opts.afterFormat ? { afterFormat: opts.afterFormat } : {}),
  });
}

/** A sparse disk image of `size` ("640M", "2G") in `dir`, attached as a loop device with partition
 *  scanning and direct I/O, as an external disk behaves. Returns the device (/dev/loopN). */
export function attachImage(dir: string, size: string): string {
  const img = path.join(dir, 'disk.img');
  execFileSync('truncate', ['-s', size, img]);
  return execFileSync('losetup', ['--find', '--partscan', '--direct-io=on', '--show', img], { encoding: 'utf8' }).trim();
}

/** Unmounts whatever is still mounted from the image's partitions (a failed test), then detaches it. */
export function detachImage(loop: string): void {
  if (!loop) return;
  for (const line of readFileSync('/proc/self/mounts', 'utf8').split('\n')) {
    const [src, target] = line.split(' ');
    if (src?.startsWith(`${loop}p`) && target) execFileSync('umount', ['-l', target.replace(/\\040/g, ' ')]);
  }
  execFileSync('losetup', ['-d', loop]);
}
