// What limits a share, when it is the link or the round trip (issue 34's ground truths 1 and 4),
// over SFTP (sshfs) and SMB (smbnetfs): the lab's servers (test/helpers/netns.ts) share a folder
// on a free ext4 loop device whose page cache a memory cgroup holds to 96 MiB (test/helpers/
// server-disk.ts: the same small NAS as share-limits-disk.test.ts, its disk not throttled).
// 1. The veth shaped with tc tbf to 100 Mbit/s: link-bound, the ceiling within 10 % of 12.5 MB/s.
// 4. A hop that holds each packet 5 ms each way (test/helpers/netns-delay.ts; this kernel has no
//    netem): the small-file verdict names the round trip, measured within its 10 ms.
// Solo in `npm test` (vitest.config.ts): the FUSE clients, ssh and SMB are CPU-bound, and the
// link's rate is what this test knows only while they have the CPU. Root only.
import { describe, expect, it } from 'vitest';
import { smallFileText } from '../../../app/src/model/verdict/share.js';
import { canThrottle } from '../../helpers/blkio.js';
import { addDelay } from '../../helpers/netns-delay.js';
import { shareDoc, useShareLab } from '../../helpers/share-run.js';

describe.runIf(canThrottle())('what limits a share: the link and the round trip (root)', () => {
  const t = useShareLab();

  it('link at 100 Mbit/s, server disk free: link-bound, the ceiling within 10 % of 12.5 MB/s', async () => {
    await t.lab.shape(100);
    try {
      for (const [protocol, mount] of t.shares()) {
        const run = shareDoc(mount, t.home, '128MiB', 20).share!.runs[0]!;
        expect(run.verdict.outcome, `${protocol}: ${JSON.stringify(run)}`).toBe('link-bound');
        // 100 Mbit/s carries 12.5 MB/s; tbf counts from the Ethernet header, so TCP's payload is
        // at most 1448 / 1514 of it (11.96 MB/s), and its 10 ms bucket adds under 0.5 % to a 2.8 s
        // read. The margin, −10 % (11.25), is the issue's, 0.7 MB/s under the payload's ceiling:
        // at a load of 7–13 SFTP read 11.39–11.64 MB/s and SMB 11.42 (two streams); SMB with one
        // stream read 10.94 once at a load of 12. Solo in CI; its false-failure rate on a quiet
        // machine is not yet measured beyond these runs.
        expect(run.cacheMBps).toBeGreaterThanOrEqual(11.25);
        expect(run.cacheMBps).toBeLessThanOrEqual(12.5);
      }
    } finally {
      await t.lab.shape(10_000);
    }
  }, 300_000);

  it('a 10 ms round trip: the small-file verdict names the round trip', async () => {
    const hop = await addDelay(t.lab, 5);
    try {
      for (const [protocol, mount] of t.shares()) {
        const run = shareDoc(mount, t.home, '64MiB', 20).share!.runs[0]!;
        const f = run.fileVerdict.figures;
        expect(run.fileVerdict.outcome, `${protocol}: ${JSON.stringify(run)}`).toBe('protocol-bound');
        // The hop holds each packet 5 ms each way: a connect's SYN and SYN-ACK take 10 ms plus the
        // veth's and the hop's own time (a Python loop), the fastest of 9 connects less a local
        // one: 4 runs at a load of 7–13 gave 10.4–10.9 ms (a median of 7 gave 13.7 at a load of 11).
        expect(f.rttMs).toBeGreaterThanOrEqual(10);
        expect(f.rttMs).toBeLessThanOrEqual(12);
        // open, read and close are a round trip each at the least (stat may come from the client's
        // attribute cache); SFTP took 3.1 round trips a file, SMB through smbnetfs 11.5 (a stat
        // and an open are 4–6 SMB calls each).
        expect(f.roundTrips).toBeGreaterThanOrEqual(2.5);
        expect(f.roundTrips).toBeLessThanOrEqual(15);
        expect(smallFileText(run.fileVerdict)).toMatch(/round trips each \(.* at a 1\d\.\d ms round trip/);
      }
    } finally {
      await hop.stop();
    }
  }, 300_000);
});
