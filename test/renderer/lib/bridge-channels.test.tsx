// The channel map, the WebSocket bridge and the Electron bridge agree: every verb the map names
// is on both bridges and reaches its own channel (or event), and nothing else is.
import { describe, expect, it, vi } from 'vitest';
import { bindBridge, bridgeVerbs, channels, events, type BridgeTransport, type RequestChannel } from '@ipc/contract';
import { createWsBridge } from '../../../renderer/src/lib/ws-bridge';
import { FakeSocket } from '../helpers/fake-socket';

/** Verbs browser mode answers in the page, with no round trip. */
const IN_PAGE = new Set(['saveFile', 'copyText', 'copyImage', 'saveReportPdf']);
const ARGS = ['a', 'b', 'utf8', 'text/plain'];

const verbs = bridgeVerbs();
const requestVerbs = verbs.filter((v) => v.channel in channels);
const eventVerbs = verbs.filter((v) => v.channel in events);

describe('the channel map', () => {
  it('names every channel and every event through at least one verb, each verb once', () => {
    expect(new Set(requestVerbs.map((v) => v.channel))).toEqual(new Set(Object.keys(channels)));
    expect(new Set(eventVerbs.map((v) => v.channel))).toEqual(new Set(Object.keys(events)));
    expect(new Set(verbs.map((v) => v.verb)).size).toBe(verbs.length);
  });
});

describe('the Electron bridge (bindBridge on the preload transport)', () => {
  it('has exactly the map verbs, each reaching its channel or event', async () => {
    const invoked: string[] = [];
    const subscribed: string[] = [];
    const transport: BridgeTransport = {
      invoke: (channel) => (invoked.push(channel), Promise.resolve({ ok: true, value: null })),
      on: (event) => (subscribed.push(event), () => undefined),
    };
    const bridge = bindBridge(transport) as unknown as Record<string, (...a: unknown[]) => unknown>;
    expect(Object.keys(bridge).sort()).toEqual(verbs.map((v) => v.verb).sort());
    for (const { verb, channel } of verbs) {
      invoked.length = 0;
      subscribed.length = 0;
      if (channel in events) bridge[verb]!(() => undefined);
      else await bridge[verb]!(...ARGS);
      expect(channel in events ? subscribed : invoked, verb).toEqual([channel]);
    }
  });
});

describe('the WebSocket bridge', () => {
  it('has every map verb, each request verb sending its own channel (in-page verbs none)', () => {
    const bridge = createWsBridge('ws://127.0.0.1:9/ws?token=t', (u) => new FakeSocket(u)) as unknown as Record<
      string,
      (...a: unknown[]) => unknown
    >;
    const sock = FakeSocket.last;
    sock.open();
    for (const { verb } of verbs) expect(typeof bridge[verb], verb).toBe('function');
    // The clipboard verbs would touch the page's clipboard; they are checked in ws-bridge.test.
    vi.stubGlobal('navigator', {});
    for (const { verb, channel } of requestVerbs) {
      if (IN_PAGE.has(verb)) continue;
      const before = sock.sent.length;
      void bridge[verb]!(...ARGS);
      expect(
        sock.sent.slice(before).map((m) => (m as { channel: RequestChannel }).channel),
        verb,
      ).toEqual([channel]);
    }
    for (const verb of ['saveReportPdf', 'copyImage']) {
      const before = sock.sent.length;
      void bridge[verb]!('x');
      expect(sock.sent.length, verb).toBe(before);
    }
    vi.unstubAllGlobals();
  });

  it('delivers every event of the map to its own verb only', () => {
    const bridge = createWsBridge('ws://127.0.0.1:9/ws?token=t', (u) => new FakeSocket(u)) as unknown as Record<
      string,
      (cb: (e: unknown) => void) => () => void
    >;
    const sock = FakeSocket.last;
    sock.open();
    const got: string[] = [];
    for (const { verb } of eventVerbs) bridge[verb]!(() => got.push(verb));
    for (const { verb, channel } of eventVerbs) {
      got.length = 0;
      sock.reply({ event: channel, data: { jobId: 'nobody' } });
      expect(got, channel).toEqual([verb]);
    }
  });
});
