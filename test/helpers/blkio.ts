// Ground truth for speed: a cgroup v1 blkio group that throttles one block device (a loop device)
// to a known rate for the processes in it. A process joins by writing its pid to cgroup.procs;
// a shell that joins and then execs the command puts every thread of the command in the group.
import { existsSync, mkdirSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { rootOnly } from './loopfs.js';

const BLKIO = '/sys/fs/cgroup/blkio';

/** Can this machine throttle a device (cgroup v1 blkio mounted, and root)? Like rootOnly(): under
 *  CI=true a machine that cannot is an error, never a silent skip of the ground-truth tests. */
export function canThrottle(): boolean {
  if (!rootOnly()) return false;
  if (existsSync(path.join(BLKIO, 'blkio.throttle.write_bps_device'))) return true;
  if (process.env.CI === 'true') {
    throw new Error(
      `CI=true but ${BLKIO} (cgroup v1 blkio) is not mounted: the throttled ground-truth tests must run in CI. ` +
        'Mount it (mount -t cgroup -o blkio cgroup ' +
        BLKIO +
        ') or run on a machine with cgroup v1.',
    );
  }
  return false;
}

export interface ThrottleGroup {
  dir: string;
  /** Bytes per second each way; 0 lifts the limit. */
  set(bps: number): void;
  /** `sh -c` script that joins the group and execs "$0" "$@". */
  script: string;
  /** Lifts the limit and removes the group (its processes must have exited). */
  remove(): void;
}

export function throttleGroup(device: string, name: string): ThrottleGroup {
  const dir = path.join(BLKIO, `${name}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const rdev = statSync(device).rdev;
  const majMin = `${Math.floor(rdev / 256)}:${rdev % 256}`;
  const set = (bps: number): void => {
    for (const f of ['blkio.throttle.write_bps_device', 'blkio.throttle.read_bps_device'])
      writeFileSync(path.join(dir, f), `${majMin} ${bps}`);
  };
  return {
    dir,
    set,
    script: `echo $$ > ${path.join(dir, 'cgroup.procs')} && exec "$0" "$@"`,
    remove: () => {
      if (!existsSync(dir)) return;
      set(0);
      rmdirSync(dir);
    },
  };
}
