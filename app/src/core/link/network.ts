// Linux: the network path of a share. The mount (type, source, options) names protocol, server and
// share (model/network.ts); rclone's server is in its remote's config, found through the daemon's
// command line; the server's address goes to `ip route get` for the interface, whose speed and
// kind come from /sys/class/net and, for wireless links, `iw dev <if> link`. Nothing here throws:
// what cannot be read is left out.
import { lookup } from 'node:dns/promises';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  interfaceCeiling,
  networkFromFolder,
  networkFromMount,
  rcloneProtocol,
  type NetworkInterface,
  type NetworkPath,
} from '../../model/network.js';
import type { ReadCommand } from '../exec/commands.js';
import { exists, readTrim } from './linux.js';
import { linkRead } from './platform.js';

export interface NetworkProbeOptions {
  /** Where sysfs is mounted; tests point it at a fake tree. */
  sysRoot?: string;
  /** Where procfs is mounted (the FUSE daemons' command lines). */
  procRoot?: string;
  run?: ReadCommand;
}

/** The device `ip route get ADDR` names: "10.0.0.2 dev eth0 src 10.0.0.1 uid 0". */
export function parseIpRouteGet(text: string): string | undefined {
  return /\bdev\s+(\S+)/.exec(text)?.[1];
}

/** The tx bitrate of `iw dev IF link`: "tx bitrate: 866.7 MBit/s VHT-MCS 9 …" → 866.7. */
export function parseIwLink(text: string): number | undefined {
  const m = /tx bitrate:\s*([\d.]+)\s*MBit\/s/i.exec(text);
  const n = m ? Number(m[1]) : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** One section of an INI file (rclone.conf): its keys, or undefined when absent. */
export function iniSection(text: string, name: string): Record<string, string> | undefined {
  let current: string | undefined;
  let out: Record<string, string> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const sec = /^\[(.*)\]$/.exec(line);
    if (sec) {
      current = sec[1];
      if (current === name) out = {};
      continue;
    }
    const kv = /^([^=#;]+?)\s*=\s*(.*)$/.exec(line);
    if (kv && current === name && out) out[kv[1]!] = kv[2]!;
  }
  return out;
}

/** What an rclone mount's command line says about its remote: the remote string and the config. */
export function parseRcloneArgv(argv: readonly string[], mountPoint: string): { remote: string; config?: string } | undefined {
  const i = argv.indexOf('mount');
  if (i < 0 || !argv.includes(mountPoint)) return undefined;
  const positional: string[] = [];
  let config: string | undefined;
  for (let k = i + 1; k < argv.length; k++) {
    const a = argv[k]!;
    if (a === '--config') config = argv[++k];
    else if (a.startsWith('--config=')) config = a.slice('--config='.length);
    else if (!a.startsWith('-')) positional.push(a);
  }
  const remote = positional[0];
  if (!remote) return undefined;
  return config ? { remote, config } : { remote };
}

/** Server and protocol of an rclone remote: ":smb,host=h,port=p:share" inline, or a config section. */
export function rcloneRemote(remote: string, config: string | undefined): { type?: string; host?: string } {
  const inline = /^:([a-z0-9]+)((?:,[^:]*)?):/i.exec(remote);
  if (inline) {
    const out: { type?: string; host?: string } = { type: inline[1]! };
    const host = /,host=([^,]+)/.exec(inline[2] ?? '')?.[1];
    if (host) out.host = host.replace(/^["']|["']$/g, '');
    return out;
  }
  const name = /^([^:]+):/.exec(remote)?.[1];
  const sec = name && config ? iniSection(config, name) : undefined;
  const out: { type?: string; host?: string } = {};
  if (sec?.type) out.type = sec.type;
  if (sec?.host) out.host = sec.host;
  else if (sec?.url) out.host = /^[a-z]+:\/\/([^/:]+)/i.exec(sec.url)?.[1] ?? sec.url;
  return out;
}

async function rcloneFacts(mountPoint: string, procRoot: string): Promise<{ type?: string; host?: string }> {
  let pids: string[];
  try {
    pids = (await fsp.readdir(procRoot)).filter((p) => /^\d+$/.test(p));
  } catch {
    return {};
  }
  for (const pid of pids) {
    let argv: string[];
    try {
      argv = (await fsp.readFile(path.join(procRoot, pid, 'cmdline'), 'utf8')).split('\0').filter(Boolean);
    } catch {
      continue;
    }
    if (!argv[0] || !/rclone$/.test(argv[0])) continue;
    const parsed = parseRcloneArgv(argv, mountPoint);
    if (!parsed) continue;
    const file = parsed.config ?? path.join(os.homedir(), '.config/rclone/rclone.conf');
    const text = parsed.remote.startsWith(':') ? undefined : await readTrim(file);
    return rcloneRemote(parsed.remote, text);
  }
  return {};
}

async function resolve(host: string): Promise<string | undefined> {
  if (/^[\d.]+$/.test(host) || host.includes(':')) return host;
  try {
    const timeout = new Promise<undefined>((r) => setTimeout(() => r(undefined), 3000).unref());
    const found = await Promise.race([lookup(host), timeout]);
    return found?.address;
  } catch {
    return undefined;
  }
}

/** The interface named `name`: loopback, wireless, virtual or a wired link with its speed. */
export async function describeInterface(name: string, opts: NetworkProbeOptions = {}): Promise<NetworkInterface> {
  const root = opts.sysRoot ?? '/sys';
  const dir = path.join(root, 'class/net', name);
  const i: NetworkInterface = { name, kind: 'unknown', source: 'sysfs' };
  const speed = Number(await readTrim(path.join(dir, 'speed')));
  // Unknown speed reads as -1 (or fails with EINVAL when the link is down).
  if (Number.isFinite(speed) && speed > 0) i.speedMbps = speed;
  const mtu = Number(await readTrim(path.join(dir, 'mtu')));
  if (Number.isInteger(mtu) && mtu > 0) i.mtu = mtu;
  const type = await readTrim(path.join(dir, 'type'));
  let real = dir;
  try {
    real = await fsp.realpath(dir);
  } catch {
    /* keep the class path */
  }
  if (type === '772' || name === 'lo') i.kind = 'loopback';
  else if ((await exists(path.join(dir, 'wireless'))) || (await exists(path.join(dir, 'phy80211')))) {
    i.kind = 'wireless';
    try {
      const phy = parseIwLink(await (opts.run ?? linkRead)(['iw', 'dev', name, 'link']));
      if (phy) {
        i.phyMbps = phy;
        i.source = 'iw';
      }
    } catch {
      /* no iw: the PHY rate stays unknown */
    }
  } else if (real.includes('/devices/virtual/')) i.kind = 'virtual';
  else if (type === '1') i.kind = 'ethernet';
  return i;
}

/** The network path of a Linux mount, or undefined when its type is no network file system. */
export async function linuxNetworkPath(
  m: { fsType: string; source: string; mountPoint: string; options: readonly string[]; realPath?: string },
  opts: NetworkProbeOptions = {},
): Promise<NetworkPath | undefined> {
  const n = networkFromMount(m.fsType, m.source, m.options);
  if (!n) return undefined;
  try {
    if (m.realPath) networkFromFolder(n, path.relative(m.mountPoint, m.realPath));
    if (m.fsType === 'fuse.rclone') {
      const r = await rcloneFacts(m.mountPoint, opts.procRoot ?? '/proc');
      if (r.type) n.protocol = rcloneProtocol(r.type);
      if (r.host) n.server = r.host;
    }
    const address = n.address ?? (n.server ? await resolve(n.server) : undefined);
    if (!address) return n;
    if (address !== n.server) n.address = address;
    const dev = parseIpRouteGet(await (opts.run ?? linkRead)(['ip', 'route', 'get', address]));
    if (!dev) return n;
    n.interface = await describeInterface(dev, opts);
    Object.assign(n, interfaceCeiling(n.interface));
  } catch {
    /* best effort: what was read stays */
  }
  return n;
}
