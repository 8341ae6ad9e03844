// Who may authorise an erase (issue 13, point 4). The renderer's payload alone never does: in the
// desktop app main asks the person itself (a native dialog, before a plan's first erase), and
// browser mode refuses the wizard's erase steps unless `diskdial serve --allow-erase` was given.
// Here: the dialog main shows, the runner asking it before the first erase and only then, and
// `diskdial serve` (a child process, from source, over its WebSocket) with and without the flag.
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { HELP, parseCli } from '../../../../app/src/cli/args.js';
import { ERASE_REFUSED } from '../../../../app/src/cli/serve-command.js';
import { identityOf } from '../../../../app/src/model/wizard/identity.js';
import { PlanStore } from '../../../../app/src/core/wizard/plan-store.js';
import type { WizardProvider } from '../../../../app/src/core/wizard/provider.js';
import type { WizardDisk } from '../../../../app/src/model/wizard/types.js';
import type { EventChannel, EventMap, WireMessage } from '../../../../app/src/ipc/contract.js';
import { eraseConfirmer } from '../../../../app/src/main/erase-confirm.js';
import { WizardService } from '../../../../app/src/services/wizard.js';
import type { WizardDoneEvent } from '../../../../app/src/model/events.js';

import { usbDisk, wizardSettings } from '../../../helpers/wizard-plans.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const disk = usbDisk({ name: 'Portable SSD T7', serial: 'S5SXNG0R1234', sizeBytes: 1000204886016 });

let tmp: string;
beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-erase-gate-'));
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

describe("main's own confirmation", () => {
  it('is a native dialog naming the model, size and serial, saying the disk will be erased; Cancel is the default', async () => {
    const showMessageBox = vi.fn(async (..._args: unknown[]) => ({ response: 0, checkboxChecked: false }));
    const win = { id: 1 } as never;
    const confirm = eraseConfirmer({ showMessageBox } as never, () => win);
    expect(await confirm(disk)).toBe(false);
    const [parent, options] = showMessageBox.mock.calls[0] as [
      unknown,
      { message: string; detail: string; buttons: string[]; defaultId: number; cancelId: number },
    ];
    expect(parent).toBe(win);
    expect(options.message).toBe('Portable SSD T7 will be erased.');
    expect(options.detail).toContain('Model: Portable SSD T7');
    expect(options.detail).toContain('Size: 1 TB (1,000,204,886,016 bytes)');
    expect(options.detail).toContain('Serial number: S5SXNG0R1234');
    expect(options.detail).toContain('Device: /dev/sdx');
    expect(options).toMatchObject({ buttons: ['Cancel', 'Erase'], defaultId: 0, cancelId: 0 });
    expect(options.detail).toContain(
      'Everything on this disk will be erased, once for each file system of the plan. This cannot be undone.',
    );
    showMessageBox.mockImplementation(async () => ({ response: 1, checkboxChecked: false }));
    expect(await confirm(disk)).toBe(true);
    // A whole disk overwritten by a test says how.
    await confirm(disk, 'Everything on this disk will be overwritten, from its first byte to its last.');
    expect((showMessageBox.mock.calls[2] as [unknown, { detail: string }])[1].detail).toMatch(
      /\n\nEverything on this disk will be overwritten, from its first byte to its last\. This cannot be undone\.$/,
    );
  });
});

describe('the runner asks before the first erase of a plan', () => {
  function setup(answer: boolean | 'refused' | 'swapped'): { svc: WizardService; prepared: string[]; asked: WizardDisk[] } {
    const prepared: string[] = [];
    const asked: WizardDisk[] = [];
    let listed = disk;
    const provider: WizardProvider = {
      platform: 'linux',
      listDisks: async () => [listed],
      formats: async () => [
        { id: 'ext4', label: 'ext4', encrypted: false, available: true },
        { id: 'xfs', label: 'XFS', encrypted: false, available: true },
      ],
      prepare: async (_d, format) => {
        prepared.push(format);
        throw new Error(`stop here: ${format} would be made now`);
      },
    };
    const svc = new WizardService({
      provider,
      engine: async () => {
        throw new Error('no test runs here');
      },
      history: { save: async () => undefined, delete: async () => undefined },
      plans: new PlanStore(path.join(tmp, `plans-${String(answer)}`)),
      workRoot: path.join(tmp, 'wizard'),
      run: async () => ({ stdout: '', stderr: '' }),
      ...(answer === 'refused'
        ? { eraseRefused: ERASE_REFUSED }
        : {
            authorizeErase: async (d: WizardDisk) => {
              asked.push(d);
              // Another disk plugged in at the same path while the question was open.
              if (answer === 'swapped') listed = { ...disk, serial: 'OTHER-DISK' };
              return answer !== false;
            },
          }),
    });
    return { svc, prepared, asked };
  }
  const settings = wizardSettings({ device: disk.path, identity: identityOf(disk), confirmName: disk.name, formats: ['ext4', 'xfs'] });
  const run = (svc: WizardService, state: Parameters<WizardService['start']>[0]): Promise<WizardDoneEvent> =>
    new Promise((resolve) => {
      svc.start(state, {
        alive: true,
        send<C extends EventChannel>(channel: C, data: EventMap[C]) {
          if (channel === 'wizard.done') resolve(data as WizardDoneEvent);
        },
      });
    });

  it('declined: nothing is erased, the plan says why and can be resumed', async () => {
    const { svc, prepared, asked } = setup(false);
    const state = await svc.begin(settings);
    // The start verb got this far: a plan, checked and saved — and not one erase.
    const done = await run(svc, state);
    expect(asked.map((d) => d.serial)).toEqual(['S5SXNG0R1234']);
    expect(prepared).toEqual([]);
    expect(done).toMatchObject({
      outcome: 'failed',
      error: { code: 'ERR_ERASE_DECLINED', message: 'Nothing was erased: erasing Portable SSD T7 (/dev/sdx) was not confirmed.' },
    });
    expect((await svc.unfinished()).map((p) => p.id)).toContain(state.id);
  });

  it('confirmed: asked once, with the disk as just checked, and only then erased', async () => {
    const { svc, prepared, asked } = setup(true);
    const done = await run(svc, await svc.begin(settings));
    expect(asked).toHaveLength(1);
    expect(prepared).toEqual(['ext4']);
    expect(done.error?.message).toBe('stop here: ext4 would be made now');
  });

  it('the disk is checked again after the answer: one swapped while the question was open is not erased', async () => {
    const { svc, prepared } = setup('swapped');
    const done = await run(svc, await svc.begin(settings));
    expect(prepared).toEqual([]);
    expect(done).toMatchObject({
      outcome: 'failed',
      error: {
        code: 'ERR_DISK_CHANGED',
        message: expect.stringContaining('its serial number changed from "S5SXNG0R1234" to "OTHER-DISK"'),
      },
    });
  });

  it('browser mode without --allow-erase: start and resume are refused with how to enable it', async () => {
    const { svc, prepared } = setup('refused');
    await expect(svc.begin(settings)).rejects.toMatchObject({ code: 'ERR_ERASE_NOT_ALLOWED', message: ERASE_REFUSED });
    await expect(svc.resume('00000000-0000-4000-8000-000000000000', disk.name)).rejects.toMatchObject({ code: 'ERR_ERASE_NOT_ALLOWED' });
    expect(prepared).toEqual([]);
    expect(ERASE_REFUSED).toContain('diskdial serve --allow-erase');
  });

  it('a whole disk overwritten by a test (proveDevice) goes through the same gate and dialog', async () => {
    await expect(setup('refused').svc.proveDevice(disk.path, disk.name)).rejects.toMatchObject({
      code: 'ERR_ERASE_NOT_ALLOWED',
      message: ERASE_REFUSED,
    });
    const declined = setup(false);
    await expect(declined.svc.proveDevice(disk.path, disk.name)).rejects.toMatchObject({
      code: 'ERR_ERASE_DECLINED',
      message: 'Nothing was erased: erasing Portable SSD T7 (/dev/sdx) was not confirmed.',
    });
    expect(declined.asked).toHaveLength(1);
    await expect(setup('swapped').svc.proveDevice(disk.path, disk.name)).rejects.toMatchObject({ code: 'ERR_DISK_CHANGED' });
    const confirmed = setup(true);
    expect(await confirmed.svc.proveDevice(disk.path, disk.name)).toEqual({
      path: disk.path,
      sizeBytes: disk.sizeBytes,
      name: disk.name,
      bus: disk.bus,
      model: disk.model,
      serial: disk.serial,
    });
    expect(confirmed.prepared).toEqual([]);
  });
});

describe('diskdial serve --allow-erase', () => {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const mainTs = pathToFileURL(path.join(root, 'app/src/cli/main.ts')).href;
  const script = `const m = await import(${JSON.stringify(mainTs)}); process.exitCode = await m.main(process.argv.slice(1));`;

  it('is parsed, shown in the help, and for serve only', () => {
    expect(parseCli(['serve', '--allow-erase'])).toEqual({ command: 'serve', port: 0, allowErase: true });
    expect(parseCli(['serve'])).toEqual({ command: 'serve', port: 0 });
    expect(HELP).toContain('--allow-erase');
    expect(() => parseCli(['run', '/tmp', '--allow-erase'])).toThrow('--allow-erase applies to diskdial serve only');
  });

  /** Starts serve with `args`, asks wizard.start over the WebSocket, returns the reply. */
  async function startOver(
    args: string[],
  ): Promise<{ result: { ok: boolean; error?: { code: string; message: string } }; stdout: string }> {
    const ui = path.join(tmp, 'ui');
    await fsp.mkdir(ui, { recursive: true });
    await fsp.writeFile(path.join(ui, 'index.html'), '<!doctype html><title>UI</title>');
    const child: ChildProcess = spawn(process.execPath, ['--import', tsx, '--input-type=module', '-e', script, 'serve', ...args], {
      env: { ...process.env, DISKDIAL_RENDERER_DIR: ui, DISKDIAL_HOME: path.join(tmp, 'home') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((r) => child.on('exit', () => r()));
    try {
      let stdout = '';
      const url = await new Promise<URL>((resolve, reject) => {
        child.stdout!.on('data', (c: Buffer) => {
          stdout += c.toString();
          const m = /running at (\S+)/.exec(stdout);
          if (m && stdout.includes('Ctrl-C')) resolve(new URL(m[1]!));
        });
        void exited.then(() => reject(new Error(`serve exited: ${stdout}`)));
      });
      const ws = new WebSocket(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`, { headers: { origin: `http://${url.host}` } });
      await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
      const reply = new Promise<WireMessage>((r) => ws.on('message', (d) => r(JSON.parse(String(d)) as WireMessage)));
      // The page's payload names a disk that is not there: only the erase policy decides the answer.
      ws.send(
        JSON.stringify({
          id: 1,
          channel: 'wizard.start',
          payload: wizardSettings({
            device: '/dev/diskdial-none',
            identity: { path: '/dev/diskdial-none', sizeBytes: 1e9 },
            confirmName: 'x',
          }),
        }),
      );
      const msg = (await reply) as { result: { ok: boolean; error?: { code: string; message: string } } };
      ws.close();
      return { result: msg.result, stdout };
    } finally {
      child.kill('SIGINT');
      await exited;
    }
  }

  it('without it, the wizard is refused and the page is told how to enable it; with it, the disk is what decides', async () => {
    const off = await startOver([]);
    expect(off.result).toEqual({ ok: false, error: { code: 'ERR_ERASE_NOT_ALLOWED', message: ERASE_REFUSED } });
    const on = await startOver(['--allow-erase']);
    expect(on.stdout).toContain('The format-and-compare wizard may erase disks (--allow-erase).');
    expect(on.result.ok).toBe(false);
    expect(on.result.error?.code).not.toBe('ERR_ERASE_NOT_ALLOWED');
  }, 60_000);
});
