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
import { twoSetupCampaign } from '../../helpers/campaign-run.js';
import { listTree } from '../../helpers/netns.js';
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
        // stream read 10.94 once at a load of 12. Solo in CI. Quiet (3 runs, 2026-11-29): SFTP
        // 11.973–11.974, SMB 11.984–11.985, a spread of 0.001 against a margin of 0.72 MB/s, so a
        // false failure needs the load that CI's solo chain keeps away.
        expect(run.verdict.figures.ceilingMBps).toBeGreaterThanOrEqual(11.25);
        expect(run.verdict.figures.ceilingMBps).toBeLessThanOrEqual(12.5);
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
        // veth's and the hop's own time (a Python loop's wake-ups), the fastest of 9 connects less
        // a local one. 6 runs at a load of 7–12 gave 10.4–12.6 ms (the hop's wake-ups late by up
        // to 2.6 ms at 11.6); a median of 7 gave 13.7 at a load of 11, hence the fastest. Quiet
        // (3 runs): 10.40–10.69 ms.
        expect(f.rttMs).toBeGreaterThanOrEqual(10);
        expect(f.rttMs).toBeLessThanOrEqual(13);
        // open, read and close are a round trip each at the least (stat may come from the client's
        // attribute cache); SFTP took 3.1 round trips a file, SMB through smbnetfs 11.5 (a stat
        // and an open are 4–6 SMB calls each). Quiet (3 runs): SFTP 3.06–3.09, SMB 6.2–6.5.
        expect(f.roundTrips).toBeGreaterThanOrEqual(2.5);
        expect(f.roundTrips).toBeLessThanOrEqual(15);
        expect(smallFileText(run.fileVerdict)).toMatch(/round trips each \(.* at a 1\d\.\d ms round trip/);
      }
    } finally {
      await hop.stop();
    }
  }, 300_000);

  it('a campaign of the free link then 100 Mbit/s names the link as what changed', async () => {
    const args = ['campaign', t.lab.sshfsMount!, '--setups', 'GigE,Fast Ethernet', '--plan', 'share', '--size', '128MiB', '--files', '20'];
    let out: string;
    try {
      out = await twoSetupCampaign(args, t.home, ['GigE', 'Fast Ethernet'], () => t.lab.shape(100), 300_000);
    } finally {
      await t.lab.shape(10_000);
    }
    // The read from the server's memory falls from the free veth's 30–190 MB/s to the 100 Mbit/s
    // link's 9–12: far beyond the 15 % a part must move, whatever the machine's load. The round
    // trip is below what a connect can time on both, so the link is the one part named.
    expect(out).toContain('What limits the share');
    expect(out, out).toMatch(/From GigE to Fast Ethernet the link changed: [\d.,]+ MB\/s → \d+\.\d MB\/s from the server's memory/);
    expect(await listTree(t.lab.shareDir)).toEqual(['data']);
  }, 600_000);
});
