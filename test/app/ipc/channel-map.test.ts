// The core side of the channel map: the dispatcher answers every channel the map names (with its
// schema) and nothing else, and the preload's generic transport is all the page gets.
import { describe, expect, it } from 'vitest';
import { channels, events, eventVerb, requests, type EventSink } from '../../../app/src/ipc/contract.js';
import { createDispatcher, type DispatcherDeps } from '../../../app/src/ipc/dispatch.js';

const sink: EventSink = { alive: true, send: () => undefined };
// Never reached: every payload below fails validation first.
const d = createDispatcher({ appInfo: { appVersion: '', engineVersion: '', platform: '', shell: '' } } as unknown as DispatcherDeps);

describe('channel map → dispatcher', () => {
  it('validates every channel of the map with its own schema', async () => {
    expect(Object.keys(requests)).toEqual(Object.keys(channels));
    for (const name of Object.keys(channels) as Array<keyof typeof channels>) {
      expect(requests[name]).toBe(channels[name].request);
      const r = await d.handle(name, 42, sink);
      expect(r.ok ? 'ok' : r.error.code, name).toBe('ERR_INVALID_PAYLOAD');
    }
  });

  it('refuses names that are not in the map, events included', async () => {
    for (const name of ['quick.progress', 'toString', '__proto__', 'app.Info', ...Object.keys(events)]) {
      const r = await d.handle(name, {}, sink);
      expect(r.ok ? 'ok' : r.error.code, name).toBe('ERR_UNKNOWN_CHANNEL');
    }
  });

  it('names event verbs after their events', () => {
    expect(eventVerb('quick.progress')).toBe('onQuickProgress');
    expect(eventVerb('wizard.format')).toBe('onWizardFormat');
  });
});
