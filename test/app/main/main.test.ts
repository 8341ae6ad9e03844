// main.ts: the wiring, start to quit, with `electron` replaced by test/helpers/electron-fake.ts and
// the real services behind the real dispatcher (the engine is never started: no test runs here).
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { IpcResult } from '../../../app/src/ipc/contract.js';
import { rootOnly } from '../../helpers/loopfs.js';
import { wizardSettings } from '../../helpers/wizard-plans.js';

import type * as FakeElectron from '../../helpers/electron-fake.js';

vi.mock('electron', () => import('../../helpers/electron-fake.js'));

type Fake = typeof FakeElectron;

/**
 * Imports main.ts afresh, as Electron runs it, with `ready` held back until `ready()`. The fake is
 * taken from the mocked 'electron' itself (vitest keeps one mock across resetModules), so the test
 * drives the very instance main.ts gets, reset to a fresh state.
 */
async function start(setup: (fake: Fake) => void = () => {}): Promise<{ fake: Fake; ready: () => Promise<void> }> {
  vi.resetModules();
  const fake = (await import('electron')) as unknown as Fake;
  fake.resetElectronFake();
  let fire!: () => void;
  fake.app.ready = new Promise<void>((r) => (fire = r));
  setup(fake);
  await import('../../../app/src/main/main.js');
  return {
    fake,
    ready: async () => {
      fire();
      await vi.waitFor(() => expect(fake.FakeBrowserWindow.all.length).toBeGreaterThan(0));
    },
  };
}

function invoke(fake: Fake, sender: unknown, channel: string, payload: unknown): Promise<IpcResult<unknown>> {
  const handler = fake.ipcMain.handlers.get('diskdial:invoke');
  if (!handler) throw new Error('no invoke handler');
  return handler({ sender, senderFrame: { url: 'app://diskdial/index.html' } }, channel, payload) as Promise<IpcResult<unknown>>;
}

describe('main.ts', () => {
  it('before ready: privileged scheme and hardening in place, no window, no IPC yet', async () => {
    const { fake } = await start();
    expect(fake.protocol.privileged).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
    expect(fake.app.listenerCount('web-contents-created')).toBe(1);
    expect(fake.app.listenerCount('window-all-closed')).toBe(1);
    expect(fake.app.listenerCount('second-instance')).toBe(1);
    expect(fake.FakeBrowserWindow.all).toHaveLength(0);
    expect(fake.ipcMain.handlers.size).toBe(0);
  });

  it('on ready: protocol, permissions, IPC and one window, which the IPC trusts', async () => {
    const { fake, ready } = await start();
    await ready();
    expect(fake.protocol.handlers.has('app')).toBe(true);
    expect(fake.session.defaultSession.permissionRequestHandler).not.toBeNull();
    expect(fake.FakeBrowserWindow.all).toHaveLength(1);
    const win = fake.FakeBrowserWindow.all[0]!;
    expect(win.loaded).toEqual(['app://diskdial/index.html']);
    expect((win.options.webPreferences as { preload: string }).preload).toMatch(/preload\.cjs$/);

    // The engine's version is asked of the engine's utility process (the addon never loads into
    // main): answer as the child would.
    const pendingInfo = invoke(fake, win.webContents, 'app.info', {});
    await expect.poll(() => fake.utilityProcess.children[0]?.posted.length ?? 0).toBeGreaterThan(0);
    const child = fake.utilityProcess.children[0]!;
    const ask = child.posted[0] as { type: string; id: number };
    expect(ask.type).toBe('version');
    child.emit('message', { type: 'version', id: ask.id, version: '9.9.9-test' });
    const info = await pendingInfo;
    expect(info).toMatchObject({
      ok: true,
      value: { appVersion: '0.1.0-test', engineVersion: '9.9.9-test', shell: 'electron', platform: process.platform },
    });
    const stranger = await invoke(fake, new fake.FakeWebContents(), 'app.info', {});
    expect(stranger).toMatchObject({ ok: false, error: { code: 'ERR_UNTRUSTED_SENDER' } });
    const invalid = await invoke(fake, win.webContents, 'quick.stop', { jobId: 7 });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'ERR_INVALID_PAYLOAD' } });
    // One engine process, started when first needed (here: for its version), then reused.
    expect(fake.utilityProcess.fork).toHaveBeenCalledOnce();
  });

  it('the folder picker behind targets.choose is the OS dialog', async () => {
    const { fake, ready } = await start();
    await ready();
    const win = fake.FakeBrowserWindow.all[0]!;
    const result = await invoke(fake, win.webContents, 'targets.choose', {});
    expect(result).toEqual({ ok: true, value: null }); // the fake dialog is cancelled
    expect(fake.dialog.showOpenDialog).toHaveBeenCalledOnce();
    expect(fake.dialog.showOpenDialog.mock.calls[0]![0]).toBe(win);
  });

  it.runIf(rootOnly())(
    "a wizard plan started from the page erases nothing until main's own dialog is answered Erase (root: a disk image)",
    async () => {
      const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-main-wizard-'));
      const img = path.join(dir, 'disk.img');
      execFileSync('truncate', ['-s', '64M', img]);
      const loop = execFileSync('losetup', ['--find', '--partscan', '--show', img], { encoding: 'utf8' }).trim();
      const savedHome = process.env.DISKDIAL_HOME;
      process.env.DISKDIAL_HOME = path.join(dir, 'home');
      try {
        const { fake, ready } = await start();
        await ready();
        const win = fake.FakeBrowserWindow.all[0]!;
        const name = path.basename(loop);
        const started = await invoke(
          fake,
          win.webContents,
          'wizard.start',
          wizardSettings({ device: loop, identity: { path: loop, sizeBytes: 64 * 1024 * 1024 }, confirmName: name }),
        );
        expect(started).toMatchObject({ ok: true });
        // The fake dialog answers Cancel: the plan ends, and the image was never written.
        const done = await vi.waitFor(
          () => {
            const sent = win.webContents.sent.find((e) => e.channel === 'diskdial:event' && e.args[0] === 'wizard.done');
            if (!sent) throw new Error('not done yet');
            return sent.args[1] as { outcome: string; error?: { code: string } };
          },
          { timeout: 20_000 },
        );
        expect(done).toMatchObject({ outcome: 'failed', error: { code: 'ERR_ERASE_DECLINED' } });
        expect(fake.dialog.showMessageBox).toHaveBeenCalledOnce();
        const [parent, options] = fake.dialog.showMessageBox.mock.calls[0] as [unknown, { message: string; detail: string }];
        expect(parent).toBe(win);
        expect(options.message).toBe(`${name} will be erased.`);
        expect(options.detail).toContain(`Disk image: ${img}`);
        expect((await fsp.readFile(img)).every((b) => b === 0)).toBe(true);
      } finally {
        if (savedHome === undefined) delete process.env.DISKDIAL_HOME;
        else process.env.DISKDIAL_HOME = savedHome;
        execFileSync('losetup', ['-d', loop]);
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },
    30_000,
  );

  it('reopens a window on activate when none is open (macOS Dock)', async () => {
    const { fake, ready } = await start();
    await ready();
    fake.FakeBrowserWindow.all[0]!.destroyed = true;
    expect(fake.BrowserWindow.getAllWindows()).toHaveLength(0);
    fake.app.emit('activate');
    expect(fake.BrowserWindow.getAllWindows()).toHaveLength(1);
  });

  it('closes the core before quitting, then quits', async () => {
    const { fake, ready } = await start();
    await ready();
    fake.app.quit();
    await vi.waitFor(() => expect(fake.app.quitCalls).toBe(2));
  });

  it('a second instance quits at once and sets nothing up', async () => {
    const { fake } = await start((f) => {
      f.app.lock = false;
    });
    expect(fake.app.quitCalls).toBe(1);
    expect(fake.protocol.privileged).toHaveLength(0);
    expect(fake.app.listenerCount('web-contents-created')).toBe(0);
  });
});
