// A link with a known round trip for tests: the lab's server reached through a hop that holds
// each packet `ms` each way (test/helpers/delayhop.py: two TUN devices, a user-space netem, for
// this kernel has no sch_netem). Host routes to the server's and the client's addresses are moved
// onto the hop, so the servers and mounts the lab started carry on over it; stopping the hop
// removes its devices and with them those routes, and the veth carries the traffic again.
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { NetLab } from './netns.js';

const execFileP = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));

export interface DelayHop {
  /** Takes the hop away (the veth carries the traffic again). */
  stop(): Promise<void>;
}

/** Puts a hop of `ms` each way (a round trip of 2 × ms) between this namespace and the lab's server. */
export async function addDelay(lab: NetLab, ms: number): Promise<DelayHop> {
  const tag = lab.hostIf.slice(3);
  const clientIf = `ddc${tag}`.slice(0, 15);
  const serverIf = `ddq${tag}`.slice(0, 15);
  const hop = spawn('python3', [path.join(here, 'delayhop.py'), clientIf, lab.ns, serverIf, String(ms)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let log = '';
  hop.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const stop = async (): Promise<void> => {
    if (hop.exitCode !== null || hop.signalCode !== null) return;
    const exited = new Promise<void>((r) => hop.once('exit', () => r()));
    hop.stdin.end();
    hop.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the delay hop did not start: ${log}`)), 10_000);
      hop.stdout.once('data', () => {
        clearTimeout(timer);
        resolve();
      });
      hop.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the delay hop exited (${code}): ${log}`));
      });
    });
    const ip = (args: string[]) => execFileP('ip', args, { timeout: 10_000 });
    await ip(['link', 'set', clientIf, 'up']);
    await ip(['-n', lab.ns, 'link', 'set', serverIf, 'up']);
    await ip(['route', 'replace', `${lab.serverAddr}/32`, 'dev', clientIf, 'src', lab.hostAddr]);
    await ip(['-n', lab.ns, 'route', 'replace', `${lab.hostAddr}/32`, 'dev', serverIf, 'src', lab.serverAddr]);
    return { stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
