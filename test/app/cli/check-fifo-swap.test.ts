// `diskdial check` when a file is swapped for a FIFO after the folder was listed (issue 30,
// point 1): the check reports that one file unreadable, "not a regular file", and goes on; it
// hung in the engine's open(2), deaf to Ctrl-C. The swap is made without a race: the disk (faultfs)
// stalls the first read, the fault log says which file it holds, the other file is swapped through
// the mount (so the kernel sees the FIFO at once), and only then does the disk answer again.
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckSectionSchema } from '../../../app/src/model/check.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { bin } from '../../helpers/cli.js';
import { mountFaultFs } from '../../helpers/faultfs.js';
import { rootOnly } from '../../helpers/loopfs.js';

let tmp: string;

beforeAll(async () => {
  buildCoreIfChanged();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-check-swap-'));
}, 300_000);
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

describe.runIf(rootOnly())('diskdial check, a file swapped for a FIFO after the listing (faultfs, root)', () => {
  it('reports it "not a regular file" and checks the rest', async () => {
    const disk = await mountFaultFs();
    try {
      const folder = path.join(disk.mountpoint, 'photos');
      await fsp.mkdir(folder);
      for (const name of ['a.jpg', 'b.jpg']) await fsp.writeFile(path.join(folder, name), `${name}\n`.repeat(100_000));
      await disk.stall(60, 0);
      const child = spawn(process.execPath, [bin, 'check', folder, '--streams', '1', '--json', '--no-save'], {
        env: { ...process.env, DISKDIAL_HOME: path.join(tmp, 'home') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

      const held = path.basename((await disk.stalled()).path);
      const swapped = held === 'a.jpg' ? 'b.jpg' : 'a.jpg';
      await fsp.rm(path.join(folder, swapped));
      const mk = spawn('mkfifo', [path.join(folder, swapped)]);
      expect(await new Promise((r) => mk.once('exit', r))).toBe(0);
      await disk.heal();

      // Exit 1: a file could not be read (the integrity verdict's "failed").
      expect(await exited, err).toBe(1);
      const check = CheckSectionSchema.parse((JSON.parse(out) as { check: unknown }).check);
      expect(check.unreadable).toEqual([{ name: swapped, why: expect.stringMatching(/not a regular file \(a FIFO \(named pipe\)\)/) }]);
      expect(check.files).toBe(2);
    } finally {
      await disk.heal();
      await disk.cleanup();
    }
  }, 60_000);
});
