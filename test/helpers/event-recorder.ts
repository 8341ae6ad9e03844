// An EventSink for service tests: records what it is sent, calls an optional hook on each event,
// and resolves `done` with the job's final event (quick.done, detailed.done or hash.done).
import type { EventChannel, EventMap, EventSink } from '../../app/src/ipc/contract.js';

export type Recorded = { [C in EventChannel]: { channel: C; data: EventMap[C] } }[EventChannel];
type DoneChannel = 'quick.done' | 'detailed.done' | 'hash.done' | 'campaign.done';

export function recorder<D extends DoneChannel>(
  doneChannel: D,
  onEvent?: (e: Recorded) => void,
): EventSink & { events: Recorded[]; done: Promise<EventMap[D]>; alive: boolean } {
  let finish!: (e: EventMap[D]) => void;
  const done = new Promise<EventMap[D]>((r) => (finish = r));
  const sink = {
    events: [] as Recorded[],
    done,
    alive: true,
    send<C extends EventChannel>(channel: C, data: EventMap[C]): void {
      const e = { channel, data } as Recorded;
      sink.events.push(e);
      onEvent?.(e);
      if ((channel as string) === doneChannel) finish(data as unknown as EventMap[D]);
    },
  };
  return sink;
}
