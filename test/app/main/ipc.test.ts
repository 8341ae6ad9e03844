// ipc-main.ts: the sender check (checklist item 17), payloads validated in the main process,
// results instead of throws, and events only for the window that asked — with `electron`
// replaced by test/helpers/electron-fake.ts.
import type { IpcMainInvokeEvent } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Dispatcher, EventSink, IpcResult } from '../../../app/src/ipc/contract.js';
import { type FakeBrowserWindow, FakeWebContents, ipcMain, resetElectronFake } from '../../helpers/electron-fake.js';

vi.mock('electron', () => import('../../helpers/electron-fake.js'));

const { EVENT_CHANNEL, INVOKE_CHANNEL, TrustedSenders, isTrustedSender, registerIpc, sinkFor } =
  await import('../../../app/src/main/ipc-main.js');
const { createMainWindow } = await import('../../../app/src/main/window.js');
const { createDispatcher } = await import('../../../app/src/ipc/dispatch.js');
const { QuickTestService } = await import('../../../app/src/services/quick-test.js');
const { DetailedTestService } = await import('../../../app/src/services/detailed-test.js');
const { HashTestService } = await import('../../../app/src/services/hash-test.js');
const { TargetsService } = await import('../../../app/src/services/targets.js');
const { HistoryService } = await import('../../../app/src/services/history.js');

/** A dispatcher that records what reached it and answers with what it was asked. */
class RecordingDispatcher implements Dispatcher {
  readonly calls: Array<{ channel: string; payload: unknown; sink: EventSink }> = [];
  readonly released: EventSink[] = [];
  async handle(channel: string, payload: unknown, sink: EventSink): Promise<IpcResult<unknown>> {
    this.calls.push({ channel, payload, sink });
    return { ok: true, value: { channel, payload } };
  }
  async close(): Promise<void> {}
  async release(sink: EventSink): Promise<void> {
    this.released.push(sink);
  }
}

interface Frame {
  url: string;
}

function invokeEvent(sender: FakeWebContents, frame: Frame | null): IpcMainInvokeEvent {
  return { sender, senderFrame: frame, frameId: 1, processId: 1 } as unknown as IpcMainInvokeEvent;
}

async function invoke(event: IpcMainInvokeEvent, channel: unknown, payload: unknown): Promise<IpcResult<unknown>> {
  const handler = ipcMain.handlers.get(INVOKE_CHANNEL);
  if (!handler) throw new Error('no invoke handler registered');
  return (await handler(event, channel, payload)) as IpcResult<unknown>;
}

const APP_FRAME: Frame = { url: 'app://diskdial/index.html' };

let trusted: InstanceType<typeof TrustedSenders>;
let dispatcher: RecordingDispatcher;
let ours: FakeWebContents;

beforeEach(() => {
  resetElectronFake();
  trusted = new TrustedSenders();
  dispatcher = new RecordingDispatcher();
  // Our window, made the way the app makes it: createMainWindow registers it as trusted.
  const win = createMainWindow({ trusted, preload: '/x/preload.cjs' }) as unknown as FakeBrowserWindow;
  ours = win.webContents;
  registerIpc(dispatcher, trusted.isTrusted);
});

describe('sender check', () => {
  it('answers our own window: the dispatcher gets channel and payload, its result comes back', async () => {
    const payload = { path: '/mnt/ssd' };
    const result = await invoke(invokeEvent(ours, APP_FRAME), 'targets.describe', payload);
    expect(result).toEqual({ ok: true, value: { channel: 'targets.describe', payload } });
    expect(dispatcher.calls).toHaveLength(1);
    expect(dispatcher.calls[0]).toMatchObject({ channel: 'targets.describe', payload });
    expect(isTrustedSender(invokeEvent(ours, APP_FRAME), trusted)).toBe(true);
  });

  const untrusted: Array<[string, () => IpcMainInvokeEvent]> = [
    ['a frame of another origin in our window', () => invokeEvent(ours, { url: 'https://evil.example/' })],
    ['a file:// frame in our window', () => invokeEvent(ours, { url: 'file:///tmp/index.html' })],
    ['a look-alike app:// host', () => invokeEvent(ours, { url: 'app://diskdial.evil/index.html' })],
    ['a frame that has gone (senderFrame null)', () => invokeEvent(ours, null)],
    ['a web contents we did not create', () => invokeEvent(new FakeWebContents(), APP_FRAME)],
    [
      'a window we created that has since been destroyed',
      () => {
        ours.destroy();
        return invokeEvent(ours, APP_FRAME);
      },
    ],
  ];

  it.each(untrusted)('refuses %s with ERR_UNTRUSTED_SENDER and never calls the dispatcher', async (_name, make) => {
    const result = await invoke(make(), 'app.info', {});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('ERR_UNTRUSTED_SENDER');
    expect(dispatcher.calls).toHaveLength(0);
  });

  it('treats a sender check that throws as a refusal', async () => {
    ipcMain.removeHandler(INVOKE_CHANNEL);
    registerIpc(dispatcher, () => {
      throw new Error('boom');
    });
    const result = await invoke(invokeEvent(ours, APP_FRAME), 'app.info', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'ERR_UNTRUSTED_SENDER' } });
    expect(dispatcher.calls).toHaveLength(0);
  });

  it('registers exactly one handler, on the one invoke channel, and can remove it', () => {
    expect([...ipcMain.handlers.keys()]).toEqual(['diskdial:invoke']);
    ipcMain.removeHandler(INVOKE_CHANNEL);
    const unregister = registerIpc(dispatcher, trusted.isTrusted);
    unregister();
    expect(ipcMain.handlers.size).toBe(0);
  });
});

describe('results, never throws', () => {
  it('turns a throwing dispatcher into a typed error result', async () => {
    ipcMain.removeHandler(INVOKE_CHANNEL);
    const throwing: Dispatcher = {
      handle: () => Promise.reject(new Error('disk on fire')),
      close: async () => {},
    };
    registerIpc(throwing, trusted.isTrusted);
    const result = await invoke(invokeEvent(ours, APP_FRAME), 'app.info', {});
    expect(result).toEqual({
      ok: false,
      error: { code: 'ERR_INTERNAL', message: expect.stringContaining('disk on fire') },
    });
  });

  it('turns a synchronously throwing dispatcher into a typed error result', async () => {
    ipcMain.removeHandler(INVOKE_CHANNEL);
    registerIpc(
      {
        handle: () => {
          throw new TypeError('sync');
        },
        close: async () => {},
      },
      trusted.isTrusted,
    );
    await expect(invoke(invokeEvent(ours, APP_FRAME), 'app.info', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'ERR_INTERNAL' },
    });
  });

  it('answers a non-string channel without reaching the dispatcher', async () => {
    for (const channel of [undefined, 42, { toString: () => 'app.info' }, ['app.info']]) {
      const result = await invoke(invokeEvent(ours, APP_FRAME), channel, {});
      expect(result).toMatchObject({ ok: false, error: { code: 'ERR_UNKNOWN_CHANNEL' } });
    }
    expect(dispatcher.calls).toHaveLength(0);
  });
});

describe('payloads validated in the main process (real dispatcher)', () => {
  beforeEach(() => {
    ipcMain.removeHandler(INVOKE_CHANNEL);
    const real = createDispatcher({
      quick: new QuickTestService({ engine: () => Promise.reject(new Error('no engine in this test')) }),
      detailed: new DetailedTestService({ engine: () => Promise.reject(new Error('no engine in this test')) }),
      hash: new HashTestService({
        engine: {
          runHash: () => Promise.reject(new Error('no engine in this test')),
          runTest: () => Promise.reject(new Error('no engine in this test')),
        },
      }),
      targets: new TargetsService(),
      history: new HistoryService(),
      appInfo: { appVersion: '1.2.3', engineVersion: '0.1.0', platform: 'linux', shell: 'electron' },
    });
    registerIpc(real, trusted.isTrusted);
  });

  it('answers a valid request', async () => {
    const result = await invoke(invokeEvent(ours, APP_FRAME), 'app.info', {});
    expect(result).toEqual({
      ok: true,
      value: { appVersion: '1.2.3', engineVersion: '0.1.0', platform: 'linux', shell: 'electron' },
    });
  });

  it.each([
    ['quick.start', { target: '/tmp', sizeBytes: 'lots', mode: 'runs', runs: 1 }],
    ['quick.start', { target: '/tmp', sizeBytes: 1024 ** 3, mode: 'runs', runs: 1, extra: true }],
    ['quick.start', null],
    ['quick.stop', { jobId: '' }],
    ['targets.describe', { path: 'x'.repeat(5000) }],
    ['app.info', { sneaky: 1 }],
  ])('answers %s with an invalid payload with ERR_INVALID_PAYLOAD', async (channel, payload) => {
    const result = await invoke(invokeEvent(ours, APP_FRAME), channel, payload);
    expect(result).toMatchObject({ ok: false, error: { code: 'ERR_INVALID_PAYLOAD' } });
  });

  it('answers an unknown channel with a typed error', async () => {
    const result = await invoke(invokeEvent(ours, APP_FRAME), '__proto__', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'ERR_UNKNOWN_CHANNEL' } });
  });

  it('still refuses an untrusted sender before validating anything', async () => {
    const result = await invoke(invokeEvent(new FakeWebContents(), APP_FRAME), 'quick.start', null);
    expect(result).toMatchObject({ ok: false, error: { code: 'ERR_UNTRUSTED_SENDER' } });
  });
});

describe('events', () => {
  const progress = {
    jobId: 'j1',
    cycle: 1,
    cycles: 1,
    phase: 'write',
    stage: 'run',
    instMBps: 1000,
    avgMBps: 990,
    bytesDone: 1,
    bytesTotal: 2,
    elapsed: 0.5,
  } as const;

  it('reach only the web contents that made the request', async () => {
    const other = createMainWindow({ trusted, preload: '/x/preload.cjs' }) as unknown as FakeBrowserWindow;
    await invoke(invokeEvent(ours, APP_FRAME), 'quick.start', {});
    const sink = dispatcher.calls[0]!.sink;
    expect(sink.alive).toBe(true);
    sink.send('quick.progress', progress);
    expect(ours.sent).toEqual([{ channel: EVENT_CHANNEL, args: ['quick.progress', progress] }]);
    expect(other.webContents.sent).toEqual([]);
  });

  it('stop after the web contents is destroyed, and its jobs are released', async () => {
    await invoke(invokeEvent(ours, APP_FRAME), 'quick.start', {});
    const sink = dispatcher.calls[0]!.sink;
    ours.destroy();
    expect(sink.alive).toBe(false);
    expect(() => sink.send('quick.done', { jobId: 'j1', outcome: 'stopped' })).not.toThrow();
    expect(ours.sent).toEqual([]);
    expect(dispatcher.released).toEqual([sink]);
  });

  it('one window keeps one sink across requests (so release finds its jobs)', async () => {
    await invoke(invokeEvent(ours, APP_FRAME), 'quick.start', {});
    await invoke(invokeEvent(ours, APP_FRAME), 'quick.stop', { jobId: 'j1' });
    expect(dispatcher.calls[0]!.sink).toBe(dispatcher.calls[1]!.sink);
  });

  it('a crashed renderer releases its jobs too', async () => {
    await invoke(invokeEvent(ours, APP_FRAME), 'quick.start', {});
    ours.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    expect(dispatcher.released).toHaveLength(1);
  });

  it('sinkFor drops events for a destroyed web contents', () => {
    const wc = new FakeWebContents();
    const sink = sinkFor(wc as never);
    sink.send('quick.progress', progress);
    wc.destroy();
    sink.send('quick.progress', progress);
    expect(wc.sent).toHaveLength(1);
  });
});

describe('clipboard.write needs a user gesture in the sending window', () => {
  beforeEach(() => {
    ipcMain.handlers.delete(INVOKE_CHANNEL);
    registerIpc(dispatcher, trusted.isTrusted, trusted.hadGesture);
  });
  const refused = {
    ok: false,
    error: { code: 'ERR_NO_USER_GESTURE', message: 'Copying needs a click or a key press in DiskDial just before it.' },
  };

  it('refuses a write the page makes on its own, answers one right after a click or a key press', async () => {
    const event = invokeEvent(ours, APP_FRAME);
    expect(await invoke(event, 'clipboard.write', { text: 'x' })).toEqual(refused);
    // Moving the mouse is not a gesture.
    ours.emit('input-event', {}, { type: 'mouseMove' });
    expect(await invoke(event, 'clipboard.write', { text: 'x' })).toEqual(refused);
    expect(dispatcher.calls).toEqual([]);
    ours.emit('input-event', {}, { type: 'mouseDown' });
    expect(await invoke(event, 'clipboard.write', { text: 'x' })).toMatchObject({ ok: true });
    ours.emit('input-event', {}, { type: 'keyDown' });
    expect(await invoke(event, 'clipboard.write', { pngBase64: 'iVBO' })).toMatchObject({ ok: true });
    expect(dispatcher.calls.map((c) => c.channel)).toEqual(['clipboard.write', 'clipboard.write']);
    // Other requests need no gesture.
    expect(await invoke(event, 'app.info', {})).toMatchObject({ ok: true });
  });

  it('a gesture in another window does not count, and one goes stale after 5 s', async () => {
    const other = createMainWindow({ trusted, preload: '/x/preload.cjs' }) as unknown as FakeBrowserWindow;
    other.webContents.emit('input-event', {}, { type: 'mouseDown' });
    expect(await invoke(invokeEvent(ours, APP_FRAME), 'clipboard.write', { text: 'x' })).toEqual(refused);
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      ours.emit('input-event', {}, { type: 'mouseUp' });
      vi.advanceTimersByTime(5_001);
      expect(await invoke(invokeEvent(ours, APP_FRAME), 'clipboard.write', { text: 'x' })).toEqual(refused);
    } finally {
      vi.useRealTimers();
    }
  });

  it('without a gesture check, the clipboard is never written', async () => {
    ipcMain.handlers.delete(INVOKE_CHANNEL);
    registerIpc(dispatcher, trusted.isTrusted);
    ours.emit('input-event', {}, { type: 'mouseDown' });
    expect(await invoke(invokeEvent(ours, APP_FRAME), 'clipboard.write', { text: 'x' })).toEqual(refused);
  });
});
