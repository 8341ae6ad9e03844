// A whole-disk verify from browser mode (issue 35): `diskdial serve` as a user starts it, a page
// reduced to its wire, and a fake drive (a 256 MiB loop device over a FUSE file that wraps at
// 96 MiB). Without --allow-erase the app says up front why (app.info), and a start is refused in
// the same words as the wizard's erase, nothing written. With it, the disk is proven by the
// wizard's rules (a wrong name is refused in its words) and the verify runs: the drive's verdict and
// its exact capacity in the done event, the result saved. Root only: loop devices and FUSE.
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireMessage } from '../../../app/src/ipc/contract.js';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { ERASE_REFUSED } from '../../../app/src/cli/serve-command.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { makeFakeDrive, type FakeDrive } from '../../helpers/fake-drive.js';
import { rootOnly } from '../../helpers/loopfs.js';
import { serveWithSocket, type WsClient } from '../../helpers/ws-client.js';

const MiB = 1024 * 1024;
const B = 4096;

type Reply = { result: { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } } };

describe.runIf(rootOnly())('verify a whole disk from browser mode (root)', () => {
  let tmp: string;
  let drive: FakeDrive;
  let name: string;
  const servers: ChildProcess[] = [];
  const clients: WsClient[] = [];

  beforeAll(async () => {
    buildCoreIfChanged();
    tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-serve-verify-'));
    await fsp.mkdir(path.join(tmp, 'ui'));
    await fsp.writeFile(path.join(tmp, 'ui', 'index.html'), '<!doctype html><title>DiskDial</title>');
    drive = await makeFakeDrive({ face: 'device', behaviour: 'alias', claimed: 256 * MiB, real: 96 * MiB });
    name = path.basename(drive.device!);
  }, 60_000);

  afterAll(async () => {
    for (const c of clients) c.ws.close();
    for (const s of servers) {
      if (s.exitCode !== null) continue;
      const exited = new Promise((r) => s.once('exit', r));
      s.kill('SIGINT');
      await exited;
    }
    await drive?.cleanup();
    await fsp.rm(tmp, { recursive: true, force: true });
  });

  /** `diskdial serve [args]` with a history of its own, and a page's socket to it. */
  async function serve(args: string[]): Promise<WsClient> {
    const { server, client } = await serveWithSocket(args, {
      DISKDIAL_HOME: path.join(tmp, `home-${servers.length}`),
      DISKDIAL_RENDERER_DIR: path.join(tmp, 'ui'),
    });
    servers.push(server);
    clients.push(client);
    return client;
  }

  const start = (c: WsClient, confirmName: string): Promise<WireMessage> =>
    c.call('detailed.start', { kind: 'verify', target: drive.device, runs: 1, restSeconds: 0, disk: { confirmName } });

  /** The device's first block, to show a refusal wrote nothing. */
  function firstBlock(): Buffer {
    const fd = openSync(drive.device!, 'r');
    const b = Buffer.alloc(B);
    readSync(fd, b, 0, B, 0);
    closeSync(fd);
    return b;
  }

  it('without --allow-erase: the reason up front, and a start refused in the wizard’s words, nothing written', async () => {
    const mark = Buffer.alloc(B, 0xa5);
    const fd = openSync(drive.device!, 'r+');
    writeSync(fd, mark, 0, B, 0);
    closeSync(fd);
    const c = await serve([]);
    const info = (await c.call('app.info')) as unknown as Reply;
    expect(info.result).toMatchObject({ ok: true, value: { shell: 'browser', eraseRefused: ERASE_REFUSED } });
    const r = (await start(c, name)) as unknown as Reply;
    expect(r.result).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'ERR_ERASE_NOT_ALLOWED', message: ERASE_REFUSED }) as unknown,
    });
    expect(firstBlock().equals(mark)).toBe(true);
  }, 60_000);

  it('with --allow-erase: a wrong name is refused; the right one verifies the disk, wraps at exactly 96 MiB, saved', async () => {
    const c = await serve(['--allow-erase']);
    const info = (await c.call('app.info')) as unknown as Reply;
    expect((info.result as { value: object }).value).not.toHaveProperty('eraseRefused');
    const wrong = (await start(c, 'Samsung T7')) as unknown as Reply;
    expect(wrong.result).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: 'ERR_CONFIRM_MISMATCH',
        message: `The name typed ("Samsung T7") is not the disk's name ("${name}"): nothing was erased.`,
      }) as unknown,
    });
    const r = (await start(c, name)) as unknown as Reply;
    expect(r.result.ok).toBe(true);
    const done = (await c.waitFor((m) => 'event' in m && m.event === 'detailed.done')) as unknown as {
      data: { outcome: string; result: ResultDocument; saved?: { id?: string } };
    };
    expect(done.data.outcome).toBe('finished');
    const s = done.data.result.verify!;
    expect(s.device).toBe(true);
    expect(s.verdict.outcome).toBe('wraps');
    expect(s.verdict.figures.capacityBytes).toBe(96 * MiB);
    expect(s.summary).toBe('Fake capacity: only 101 MB of the 268 MB it reports hold data; writes beyond wrap to the start');
    expect(done.data.result.target).toMatchObject({ path: drive.device, volume: name });
    expect(done.data.saved?.id).toBe(done.data.result.id);
  }, 60_000);
});
