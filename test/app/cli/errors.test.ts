// Runtime errors as a user meets them through `diskdial run`, on real file systems (root: loop
// devices): a read-only volume, a folder without write permission, a volume too small (refused
// before the first byte) and one that fills up mid-run (FUSE: test/helpers/faultfs.ts). Each
// gives one plain-words line, exit code 1, and leaves nothing behind.
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { mountFaultFs } from '../../helpers/faultfs.js';
import { cleanupAllLoopFs, mountFs, rootOnly, type MountedFs } from '../../helpers/loopfs.js';

const MiB = 1 << 20;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(root, 'bin/diskdial.js');

async function ours(dir: string): Promise<string[]> {
  return (await fsp.readdir(dir)).filter((n) => n.startsWith('.diskdial-'));
}

function expectOneLine(stderr: string, pattern: RegExp): void {
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(stderr).toMatch(/^diskdial: /);
  expect(stderr).toMatch(pattern);
}

describe.runIf(rootOnly())('diskdial run: runtime errors on real volumes (root)', () => {
  const mounted: MountedFs[] = [];
  beforeAll(() => {
    execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
      cwd: root,
      stdio: 'pipe',
    });
  });
  afterAll(async () => {
    for (const m of mounted) await m.cleanup();
    await cleanupAllLoopFs();
  });

  it('a read-only volume: EROFS in plain words, exit 1, nothing written', async () => {
    const m = await mountFs('ext4', { readOnly: true });
    mounted.push(m);
    const r = spawnSync(process.execPath, [bin, 'run', m.dir, '--size', '16MiB'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expectOneLine(r.stderr, /read-only/i);
    expect(r.stderr).toMatch(/EROFS/);
    expect(await ours(m.dir)).toEqual([]);
  });

  it('a folder the user may not write: EACCES in plain words, exit 1', async () => {
    const m = await mountFs('ext4');
    mounted.push(m);
    const locked = path.join(m.dir, 'locked');
    await fsp.mkdir(locked, { mode: 0o755 }); // root's; the CLI runs as nobody
    const r = spawnSync(process.execPath, [bin, 'run', locked, '--size', '16MiB'], { encoding: 'utf8', uid: 65534, gid: 65534 });
    expect(r.status).toBe(1);
    expectOneLine(r.stderr, /permission denied/i);
    expect(r.stderr).toMatch(/EACCES/);
    expect(await ours(locked)).toEqual([]);
  });

  it('not enough free space: refused before the first byte, with the numbers', async () => {
    const m = await mountFs('ext4', { sizeMiB: 64 });
    mounted.push(m);
    const r = spawnSync(process.execPath, [bin, 'run', m.dir, '--size', '256MiB'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expectOneLine(r.stderr, /ENOSPC/);
    expect(r.stderr).toMatch(/needs 0\.\d\d GB, 0\.0\d GB is free/); // 256 MiB + reserve; ~50 MB free
    expect(await ours(m.dir)).toEqual([]);
  });

  it('the volume fills up mid-run: ENOSPC in plain words, exit 1, test files removed', async () => {
    // A disk that runs out of room after the test has written 4 MiB of its file (faultfs): the
    // moment is set by bytes, not by a race against the engine, and its log shows when it struck.
    const disk = await mountFaultFs();
    try {
      await disk.enospcAfter(4 * MiB);
      const r = spawnSync(process.execPath, [bin, 'run', disk.mountpoint, '--test', 'seq-write', '--size', '16MiB', '--seconds', '30'], {
        encoding: 'utf8',
      });
      expect(r.status).toBe(1);
      expectOneLine(r.stderr, /ENOSPC/);
      expect(r.stderr).toMatch(/space/i);
      const faults = await disk.faults();
      // Struck once the engine had written most of the 4 MiB (the rest went to its workspace's
      // small files), on the test file itself.
      expect(faults[0]).toMatchObject({ errno: 'ENOSPC', op: 'write' });
      expect(faults[0]!.passed).toBeGreaterThan(3 * MiB);
      expect(faults[0]!.path).toMatch(/^\/\.diskdial-[^/]+\/testfile\.dat$/);
      expect(await ours(disk.backing)).toEqual([]);
    } finally {
      await disk.cleanup();
    }
  });
});

describe.runIf(rootOnly())('diskdial hash: runtime errors as a user meets them (root)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join('/tmp', 'dd-hash-errors-'));
    await fsp.chmod(dir, 0o755);
  });
  afterAll(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('a file the user may not read: EACCES in plain words, exit 1, the file untouched', async () => {
    const secret = path.join(dir, 'secret.iso');
    await fsp.writeFile(secret, 'not yours');
    await fsp.chmod(secret, 0o600); // root's; the CLI runs as nobody
    const r = spawnSync(process.execPath, [bin, 'hash', secret], { encoding: 'utf8', uid: 65534, gid: 65534 });
    expect(r.status).toBe(1);
    expectOneLine(r.stderr, /permission denied/i);
    expect(r.stderr).toMatch(/EACCES/);
    expect(await fsp.readFile(secret, 'utf8')).toBe('not yours');
  });
});
