// Ground truth for speed: a cgroup that throttles one block device (a loop device) to a known rate
// for the processes in it — cgroup v1's blkio where it is mounted, else cgroup v2's io.max (a
// default Debian 12). A process joins by writing its pid to cgroup.procs; a shell that joins and
// then execs the command puts every thread of the command in the group.
import { existsSync, mkdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { majorMinor } from '../../app/src/core/volume.js';
import { rootOnly } from './loopfs.js';

const BLKIO = '/sys/fs/cgroup/blkio';

/** How this machine throttles: the v1 blkio hierarchy, or a v2 hierarchy whose root offers io. */
export type Throttler = { kind: 'v1'; root: string } | { kind: 'v2'; root: string };

/** Where cgroup2 is mounted, from a mountinfo text (fields: … mountpoint … - fstype …). */
export function cgroup2Mounts(mountinfo: string): string[] {
  return mountinfo
    .split('\n')
    .map((l) => l.split(' '))
    .filter((f) => f[f.indexOf('-') + 1] === 'cgroup2')
    .map((f) => f[4]!.replace(/\\040/g, ' '));
}

export function throttler(): Throttler | null {
  if (existsSync(path.join(BLKIO, 'blkio.throttle.write_bps_device'))) return { kind: 'v1', root: BLKIO };
  for (const root of cgroup2Mounts(readFileSync('/proc/self/mountinfo', 'utf8'))) {
    const controllers = readFileSync(path.join(root, 'cgroup.controllers'), 'utf8').trim().split(/\s+/);
    if (controllers.includes('io')) return { kind: 'v2', root };
  }
  return null;
}

/** Can this machine throttle a device (root, and cgroup v1 blkio or v2 io)? Like rootOnly(): under
 *  CI=true a machine that cannot is an error, never a silent skip of the ground-truth tests. */
export function canThrottle(): boolean {
  if (!rootOnly()) return false;
  if (throttler()) return true;
  if (process.env.CI === 'true') {
    throw new Error(
      'CI=true but this machine cannot throttle a block device: neither cgroup v1 blkio ' +
        `(${BLKIO}) nor a cgroup v2 hierarchy with the io controller is mounted, and the throttled ` +
        `ground-truth tests must run in CI. Mount one (mount -t cgroup -o blkio cgroup ${BLKIO}).`,
    );
  }
  return false;
}

export interface ThrottleGroup {
  dir: string;
  /** Bytes per second each way, or each its own; 0 lifts the limit. */
  set(bps: number | { read: number; write: number }): void;
  /** `sh -c` script that joins the group and execs "$0" "$@". */
  script: string;
  /** Lifts the limit and removes the group (its processes must have exited). */
  remove(): void;
}

export function throttleGroup(device: string, name: string, using = throttler()): ThrottleGroup {
  if (!using) throw new Error('this machine cannot throttle a block device (no cgroup blkio or io controller)');
  const dir = path.join(using.root, `${name}-${process.pid}`);
  if (using.kind === 'v2') writeFileSync(path.join(using.root, 'cgroup.subtree_control'), '+io');
  mkdirSync(dir, { recursive: true });
  const majMin = majorMinor(statSync(device, { bigint: true }).rdev);
  const set = (bps: number | { read: number; write: number }): void => {
    const { read, write } = typeof bps === 'number' ? { read: bps, write: bps } : bps;
    if (using.kind === 'v2') {
      const v2 = (n: number): string => (n > 0 ? String(n) : 'max');
      writeFileSync(path.join(dir, 'io.max'), `${majMin} rbps=${v2(read)} wbps=${v2(write)}`);
      return;
    }
    writeFileSync(path.join(dir, 'blkio.throttle.write_bps_device'), `${majMin} ${write}`);
    writeFileSync(path.join(dir, 'blkio.throttle.read_bps_device'), `${majMin} ${read}`);
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
