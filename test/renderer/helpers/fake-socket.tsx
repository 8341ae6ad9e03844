// A WebSocket in memory for browser mode's bridge: records what is sent, and lets a test open it,
// reply as the server would, or close it. `FakeSocket.last` is the newest one.
import type { WebSocketLike } from '../../../renderer/src/lib/ws-bridge';

export class FakeSocket implements WebSocketLike {
  static last: FakeSocket;
  readyState = 0;
  sent: Array<{ id: number; channel: string; payload: unknown }> = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  constructor(public url = '') {
    FakeSocket.last = this;
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as { id: number; channel: string; payload: unknown });
  }
  close() {
    this.readyState = 3;
    this.onclose?.({});
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  reply(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

/** A socket that is already open, for tests that only look at what is sent. */
export function openSocket(url = ''): FakeSocket {
  const s = new FakeSocket(url);
  s.readyState = 1;
  return s;
}
