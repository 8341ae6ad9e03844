// What limits a share, when it is the server's disk (issue 34's ground truths 2 and 3), over SFTP
// (sshfs) and SMB (smbnetfs): the lab's servers (test/helpers/netns.ts) share a folder on an ext4
// loop device that their blkio cgroup throttles, and a memory cgroup holds their page cache to
// 96 MiB, as a small NAS's RAM (test/helpers/server-disk.ts). The page cache is this kernel's, the
// client's and the "server's" alike: the memory group is what makes the 128 MiB file too large for
// the server to cache, so its read comes from the throttled disk, while the 32 MiB file read twice
// stays in the server's memory. In `solo` (vitest.config.ts): beside the other test chains the FUSE
// clients did not get the CPU to keep up with even 20 MB/s (CI: 16.95 MB/s). Root only.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canThrottle } from '../../helpers/blkio.js';
import { runCli } from '../../helpers/cli.js';
import { listTree } from '../../helpers/netns.js';
import { shareDoc, useShareLab } from '../../helpers/share-run.js';

describe.runIf(canThrottle())("what limits a share: the server's disk (root)", () => {
  const t = useShareLab();

  it('free link, server disk at 20 MB/s: server-bound, the disk within 10 % of 20 MB/s', async () => {
    t.disk.throttle(20e6);
    for (const [protocol, mount] of t.shares()) {
      const run = shareDoc(mount, t.home, '128MiB', 20).share!.runs[0]!;
      expect(run.verdict.outcome, `${protocol}: ${JSON.stringify(run)}`).toBe('server-bound');
      // The cold read crosses the throttle alone: blkio meters it to 20 MB/s over the 6.7 s read
      // (its bucket adds well under 1 %), and the free veth carries 5–8 × that. The margin, ±10 %,
      // is the issue's: 8 reads (4 a protocol, at a load of 8–12 from other test runs) gave
      // 18.4–19.9 MB/s, low by up to 8 % (pages of the file a busy server still held; the CPU
      // the FUSE client did not get). Run beside the other chains, CI once read 16.95 MB/s: hence
      // `solo`. 8 runs cannot show a rate of 1 in 10⁴: it rests on the throttle, which is exact,
      // and the CPU, which alone here the FUSE clients have. Quiet (2 runs, 2026-11-29): SFTP
      // 20.02–20.06, SMB 19.99 MB/s.
      expect(run.diskReadMBps).toBeGreaterThanOrEqual(18);
      expect(run.diskReadMBps).toBeLessThanOrEqual(22);
    }
    expect(await listTree(path.join(t.lab.shareDir, 'data'))).toEqual([]);
  }, 300_000);

  it('link at 100 Mbit/s, server disk at 5 MB/s: server-bound', async () => {
    await t.lab.shape(100);
    t.disk.throttle(5e6);
    for (const [protocol, mount] of t.shares()) {
      const run = shareDoc(mount, t.home, '128MiB', 20).share!.runs[0]!;
      expect(run.verdict.outcome, `${protocol}: ${JSON.stringify(run)}`).toBe('server-bound');
      // The throttle is the truth: a cold read above 5 MB/s + 10 % came from the server's memory.
      // Quiet (2 runs): 4.97–4.98 MB/s both ways.
      expect(run.diskReadMBps).toBeLessThanOrEqual(5.5);
    }
  }, 300_000);

  it('refuses a folder that is not on a share, in plain words, and leaves nothing behind', async () => {
    const r = runCli(['run', t.home, '--test', 'share', '--no-save'], { cwd: t.home, home: t.home, timeout: 30_000 });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--test share measures a network share, and .* is not on one \(\w+\)/);
    expect((await listTree(t.home)).filter((f) => f.startsWith('.diskdial'))).toEqual([]);
  });
});
