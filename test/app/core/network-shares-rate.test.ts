// The 100 Mbit/s link measured at its rate, over SFTP and SMB: a server in a network namespace of
// its own behind a veth pair shaped with tc (test/helpers/netns.ts), as network-shares.test.ts
// sets up. Solo in `npm test` (vitest.config.ts): the FUSE clients, ssh and SMB are CPU-bound, and
// the link's rate is what this test knows only while they have the CPU (it failed beside the
// other chains with two engineers' work on the machine, a load of 9–13). Root only.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { seqWriteDoc } from '../../helpers/cli.js';
import { rootOnly } from '../../helpers/loopfs.js';
import { cleanupStaleLabs, startNetLab, type NetLab } from '../../helpers/netns.js';

describe.runIf(rootOnly())('a network share on a 100 Mbit/s link (root)', () => {
  let slow: NetLab;
  let home: string;

  beforeAll(async () => {
    buildCoreIfChanged();
    await cleanupStaleLabs();
    home = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-netrate-home-'));
    slow = await startNetLab({ rateMbit: 100 });
  }, 120_000);

  afterAll(async () => {
    await slow?.cleanup();
    await fsp.rm(home, { recursive: true, force: true });
  }, 60_000);

  const seqWrite = (mount: string, size: string): ResultDocument => seqWriteDoc(mount, size, home);

  it('measures the 100 Mbit/s link at its rate (8.75–12.5 MB/s) over SFTP and SMB', async () => {
    for (const mount of [slow.sshfsMount!, slow.smbMount!]) {
      const mbps = seqWrite(mount, '32MiB').tests[0]!.mbps;
      // 100 Mbit/s is 12.5 MB/s on the wire; the payload is less (tbf's 10 ms bucket adds under 1 %
      // to a 2.7 s write). What else sets the figure is CPU: the FUSE client, ssh or SMB, the
      // engine. Under stress-ng --cpu 2 + fio (load 3–4) a 200 Mbit/s link gave 94–96 %; at a load
      // of 8–9 (that plus another test run and a build) this one gave 77–96 % (12 figures, the
      // share in RAM). The floor, 70 %, is 24 sd under the standard load's figures (sd ≤ 1 point,
      // normal model: far below 1 in 10⁴ per run) and 7 points under the lowest seen at twice it.
      expect(mbps).toBeLessThanOrEqual(12.5);
      expect(mbps).toBeGreaterThanOrEqual(8.75);
    }
  }, 300_000);
});
