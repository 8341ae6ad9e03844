// The round trip to a share's server, timed as TCP connects to its protocol's port: a connect is
// one SYN and its SYN-ACK (or the RST of a closed port), so it costs one round trip and nothing of
// the server's file service. Needs nothing on the server and no privileges (ping would need a raw
// socket). What a connect costs this computer itself (the syscalls, the event loop: 0.1–0.3 ms
// under load, as much as a LAN's round trip) is taken off: the same connects to a listener of our
// own on loopback time only that. model/verdict/share.ts sets a small file's operations against it.
import net from 'node:net';
import { serverPorts, type NetworkPath, type RoundTrip } from '../../model/network.js';

/** Connects timed; the fastest is kept, as ping's minimum is: a busy machine only ever adds to a
 *  connect's time (a median over 7 read 3.9 ms on a 100 Mbit/s link at a load of 10). Each gives
 *  up after TIMEOUT_MS. */
const SAMPLES = 9;
const TIMEOUT_MS = 1000;

/** One connect's time, ms: to the SYN-ACK (connected) or the RST (refused); undefined when
 *  nothing answered in time. */
function connectMs(host: string, port: number): Promise<{ ms: number; refused: boolean } | undefined> {
  return new Promise((resolve) => {
    const t = performance.now();
    const s = net.connect({ host, port, timeout: TIMEOUT_MS });
    const done = (v: { ms: number; refused: boolean } | undefined): void => {
      s.destroy();
      resolve(v);
    };
    s.once('connect', () => done({ ms: performance.now() - t, refused: false }));
    s.once('error', (e: NodeJS.ErrnoException) =>
      done(e.code === 'ECONNREFUSED' ? { ms: performance.now() - t, refused: true } : undefined),
    );
    s.once('timeout', () => done(undefined));
  });
}

/** SAMPLES connects to host:port: the fastest and whether any was refused; undefined when one
 *  got no answer. */
async function timeConnects(host: string, port: number): Promise<{ ms: number; refused: boolean } | undefined> {
  const times: number[] = [];
  let refused = false;
  for (let i = 0; i < SAMPLES; i++) {
    const c = await connectMs(host, port);
    if (!c) return undefined;
    refused ||= c.refused;
    times.push(c.ms);
  }
  return { ms: Math.min(...times), refused };
}

/** What a connect costs this computer alone: connects to a listener of our own on loopback. */
async function localCostMs(): Promise<number> {
  const server = net.createServer((s) => s.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  try {
    return (await timeConnects('127.0.0.1', (server.address() as net.AddressInfo).port))?.ms ?? 0;
  } finally {
    server.close();
  }
}

/** The round trip to the share's server: the fastest of a few connects to the first of its
 *  protocol's ports that answers, less what a connect costs here. Undefined when the server or
 *  its ports cannot be reached. */
export async function probeRoundTrip(n: NetworkPath): Promise<RoundTrip | undefined> {
  const host = n.address ?? n.server;
  if (!host) return undefined;
  for (const port of serverPorts(n.protocol)) {
    const t = await timeConnects(host, port);
    if (!t) continue;
    const local = await localCostMs().catch(() => 0);
    const ms = Math.round(Math.max(0, t.ms - local) * 1000) / 1000;
    return { ms, port, samples: SAMPLES, ...(t.refused ? { refused: true } : {}) };
  }
  return undefined;
}
