// Fake-capacity drives for tests and bench:verify: test/helpers/fakedrive.py (FUSE, Debian's
// python3-fusepy) claims `claimed` bytes while storing `real` bytes, and aliases, drops or flips as
// told. The device face is a loop device over the FUSE file; the folder face is the FUSE folder
// itself. Needs root (losetup, /dev/fuse).
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);
const DAEMON = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fakedrive.py');

/** alias: address a ≥ real is stored at a mod real; drop: writes there vanish, reads give zeros;
 *  flip: genuine but each byte address in `flips` reads back with its lowest bit flipped;
 *  genuine: real === claimed, passthrough. */
export type FakeBehaviour = 'alias' | 'drop' | 'flip' | 'genuine';
export type FakeFace = 'device' | 'folder';

export interface FakeDriveOptions {
  face: FakeFace;
  behaviour: FakeBehaviour;
  /** Bytes the drive reports (a whole number of MiB for the folder face). */
  claimed: number;
  /** Bytes it really stores; must equal `claimed` for flip and genuine. */
  real: number;
  /** Byte addresses on the claimed disk whose lowest bit reads back flipped (flip only). */
  flips?: number[];
  /** Where its temporary folder (mount point and backing file) goes; default os.tmpdir(). */
  dir?: string;
}

export interface FakeDrive {
  /** /dev/loopN of `claimed` bytes (device face). */
  readonly device?: string;
  /** A folder whose free space is `claimed` bytes (folder face). */
  readonly folder?: string;
  /** Detaches the loop device, unmounts, stops the daemon, removes its folders; safe to call twice. */
  cleanup(): Promise<void>;
}

/** Synchronous teardown of every drive still up when the process exits (a test that threw). */
const live = new Set<() => void>();
process.once('exit', () => {
  for (const down of live) down();
});

export async function makeFakeDrive(opts: FakeDriveOptions): Promise<FakeDrive> {
  const base = await fs.mkdtemp(path.join(opts.dir ?? os.tmpdir(), 'dd-fakedrive-'));
  const mountpoint = path.join(base, 'mnt');
  await fs.mkdir(mountpoint);
  const args = [DAEMON, path.join(base, 'store'), mountpoint, opts.face, opts.behaviour, String(opts.claimed), String(opts.real)];
  if (opts.flips?.length) args.push(opts.flips.join(','));
  // /usr/bin/python3: Debian's, where python3-fusepy lives (a pyenv python3 on PATH has no fusepy).
  const daemon: ChildProcess = spawn('/usr/bin/python3', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => daemon.once('exit', () => resolve()));
  let stderr = '';
  daemon.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  // The daemon prints "ready" from FUSE's init callback: the kernel has the mount from then on.
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 15_000);
    daemon.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    daemon.once('exit', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  let device: string | undefined;
  const downSync = (): void => {
    if (device) execFileSync('losetup', ['-d', device], { stdio: 'ignore' });
    device = undefined;
    try {
      execFileSync('fusermount', ['-u', '-z', mountpoint], { stdio: 'ignore' });
    } catch {
      // not mounted (any more)
    }
    if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGKILL');
    rmSync(base, { recursive: true, force: true });
  };
  if (!ready) {
    downSync();
    throw new Error(`The fake drive did not mount: ${stderr.trim() || 'no word from its daemon in 15 s'}`);
  }
  live.add(downSync);
  if (opts.face === 'device') {
    try {
      device = (await execFileP('losetup', ['--find', '--show', path.join(mountpoint, 'disk')])).stdout.trim();
    } catch (err) {
      live.delete(downSync);
      downSync();
      throw err;
    }
  }

  let done: Promise<void> | undefined;
  const cleanup = async (): Promise<void> => {
    live.delete(downSync);
    if (device) await execFileP('losetup', ['-d', device]).catch(() => undefined);
    device = undefined;
    await execFileP('fusermount', ['-u', '-z', mountpoint]).catch(() => undefined);
    // An unmounted fusepy daemon returns from its loop and exits; a wedged one is killed.
    if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGKILL');
    await exited;
    await fs.rm(base, { recursive: true, force: true });
  };
  return {
    device,
    folder: opts.face === 'folder' ? mountpoint : undefined,
    cleanup: () => (done ??= cleanup()),
  };
}
