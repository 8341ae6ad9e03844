// An event sink for a wizard job in tests: every event kept, the progress messages, and a promise
// of the wizard.done event.
import type { EventChannel, EventMap } from '../../app/src/ipc/contract.js';
import type { WizardDoneEvent } from '../../app/src/model/events.js';

export interface WizardSink {
  send<C extends EventChannel>(channel: C, data: EventMap[C]): void;
  alive: boolean;
  events: Array<{ channel: EventChannel; data: unknown }>;
  /** The progress events' messages, in order. */
  messages: string[];
  done: Promise<WizardDoneEvent>;
}

export function wizardSink(): WizardSink {
  let finish!: (e: WizardDoneEvent) => void;
  const done = new Promise<WizardDoneEvent>((r) => (finish = r));
  const events: WizardSink['events'] = [];
  const messages: string[] = [];
  return {
    events,
    messages,
    done,
    alive: true,
    send(channel, data) {
      events.push({ channel, data });
      if (channel === 'wizard.progress') messages.push((data as EventMap['wizard.progress']).message);
      if (channel === 'wizard.done') finish(data as WizardDoneEvent);
    },
  };
}
