// A file server's own disk and memory for the network-share tests: an ext4 loop device (its image
// in RAM) that the servers' blkio cgroup throttles to a known rate, and a memory cgroup that
// holds the servers' page cache to a known size — a small NAS's disk and RAM. The servers join
// both groups (NetLabOptions.serverGroups); this machine's other processes are untouched.
// cgroup v1 (blkio and memory, as mounted here). The page cache is the kernel's, shared by the
// "server" and this client: the memory group is what keeps the server's share of it small.
import { existsSync, mkdirSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { throttleGroup } from './blkio.js';
import { mountFsInRam } from './loopfs.js';

const MEMORY = '/sys/fs/cgroup/memory';
const NAME = 'ddnet-srv';

export interface ServerDisk {
  /** The folder to serve (on the loop device). */
  dir: string;
  /** The cgroup folders the servers must run in. */
  groups: string[];
  /** The server disk's rate each way, bytes/s; 0: free. */
  throttle(bps: number): void;
  /** Removes the groups (the servers must have stopped) and the file system. */
  cleanup(): Promise<void>;
}

/** Removes the groups of test processes that are gone. */
function sweepStaleGroups(): void {
  for (const root of [MEMORY, '/sys/fs/cgroup/blkio']) {
    for (const name of existsSync(root) ? readdirSync(root) : []) {
      const m = new RegExp(`^${NAME}-(?:cache|disk)-(\\d+)$`).exec(name);
      if (!m) continue;
      try {
        process.kill(Number(m[1]), 0);
      } catch {
        try {
          rmdirSync(path.join(root, name));
        } catch {
          /* still has processes: left for the next sweep */
        }
      }
    }
  }
}

/** A server disk of `sizeMiB` whose servers may keep `cacheMiB` of it (and of their own memory) in RAM. */
export async function serverDisk(sizeMiB: number, cacheMiB: number): Promise<ServerDisk> {
  sweepStaleGroups();
  const fsys = await mountFsInRam('ext4', { sizeMiB });
  const dir = path.join(fsys.dir, 'srv');
  await fs.mkdir(dir);
  const disk = throttleGroup(fsys.device!, `${NAME}-disk`);
  const memory = path.join(MEMORY, `${NAME}-cache-${process.pid}`);
  mkdirSync(memory, { recursive: true });
  writeFileSync(path.join(memory, 'memory.limit_in_bytes'), String(cacheMiB << 20));
  return {
    dir,
    groups: [disk.dir, memory],
    throttle: (bps) => disk.set(bps),
    cleanup: async () => {
      disk.remove();
      if (existsSync(memory)) rmdirSync(memory);
      await fsys.cleanup();
    },
  };
}
