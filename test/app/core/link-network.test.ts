// Linux network-path probing: the parsers on recorded outputs, the interface from a fake sysfs
// tree (wired, wireless with iw, veth, loopback), rclone's server from the daemon's command line
// and config, and the real loopback interface of this machine.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeInterface,
  iniSection,
  linuxNetworkPath,
  parseIpRouteGet,
  parseIwLink,
  parseRcloneArgv,
  rcloneRemote,
} from '../../../app/src/core/link/network.js';

// Recorded on real machines (iw 5.19 on an Intel AX200; iproute2 6.1).
const IW_LINK = `Connected to 3c:84:6a:11:22:33 (on wlp2s0)
	SSID: home
	freq: 5180
	RX: 1927373 bytes (8521 packets)
	TX: 301884 bytes (1920 packets)
	signal: -52 dBm
	rx bitrate: 780.0 MBit/s VHT-MCS 8 80MHz short GI VHT-NSS 2
	tx bitrate: 866.7 MBit/s VHT-MCS 9 80MHz short GI VHT-NSS 2
`;
const ROUTE = '192.168.1.20 via 192.168.1.1 dev enp3s0 src 192.168.1.7 uid 1000 \n    cache \n';

let tmp: string;
let sys: string;
let proc: string;

async function put(file: string, text: string): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  await fsp.writeFile(file, text);
}

/** A class/net entry linking to a device folder, as the kernel lays it out. */
async function iface(name: string, device: string, files: Record<string, string>): Promise<void> {
  const dir = path.join(sys, 'devices', device, 'net', name);
  for (const [f, text] of Object.entries(files)) await put(path.join(dir, f), text);
  await fsp.mkdir(path.join(sys, 'class/net'), { recursive: true });
  await fsp.symlink(dir, path.join(sys, 'class/net', name));
}

beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-netlink-'));
  sys = path.join(tmp, 'sys');
  proc = path.join(tmp, 'proc');
  await iface('enp3s0', 'pci0000:00/0000:00:1c.0/0000:03:00.0', { speed: '2500\n', type: '1\n', mtu: '1500\n' });
  await iface('wlp2s0', 'pci0000:00/0000:00:1c.2/0000:02:00.0', { speed: '', type: '1\n', mtu: '1500\n', 'wireless/.keep': '' });
  await iface('veth1', 'virtual', { speed: '10000\n', type: '1\n', mtu: '1500\n' });
  await iface('lo', 'virtual', { speed: '', type: '772\n', mtu: '65536\n' });
  await iface('eth9', 'pci0000:00/0000:00:1f.6', { speed: '-1\n', type: '1\n' });
  const conf = path.join(tmp, 'rclone.conf');
  await put(conf, '[other]\ntype = sftp\nhost = elsewhere\n\n[nas]\ntype = smb\nhost = 192.168.1.20\nuser = me\n');
  await put(path.join(proc, '4242/cmdline'), ['/usr/bin/rclone', 'mount', 'nas:media', '/mnt/media', '--config', conf, ''].join('\0'));
  await put(path.join(proc, '77/cmdline'), ['/usr/bin/bash', ''].join('\0'));
});
afterAll(() => fsp.rm(tmp, { recursive: true, force: true }));

describe('parsers', () => {
  it('reads the interface of ip route get and the tx bitrate of iw', () => {
    expect(parseIpRouteGet(ROUTE)).toBe('enp3s0');
    expect(parseIpRouteGet('RTNETLINK answers: Network is unreachable')).toBeUndefined();
    expect(parseIwLink(IW_LINK)).toBe(866.7);
    expect(parseIwLink('Not connected.')).toBeUndefined();
  });

  it('reads an rclone remote inline or from its config section', () => {
    expect(parseRcloneArgv(['rclone', 'mount', '--config=/c', 'nas:x', '/m'], '/m')).toEqual({ remote: 'nas:x', config: '/c' });
    expect(parseRcloneArgv(['rclone', 'mount', 'nas:x', '/other'], '/m')).toBeUndefined();
    expect(rcloneRemote(':smb,host=10.0.0.2,user=me:share', undefined)).toEqual({ type: 'smb', host: '10.0.0.2' });
    expect(rcloneRemote('nas:media', '[nas]\ntype = webdav\nurl = https://dav.example:8443/x\n')).toEqual({
      type: 'webdav',
      host: 'dav.example',
    });
    expect(iniSection('[a]\nk = v\n[b]\nk = w\n', 'b')).toEqual({ k: 'w' });
  });
});

describe('describeInterface', () => {
  const fail = () => Promise.reject(new Error('no iw'));

  it('names a wired link with its speed and MTU', async () => {
    expect(await describeInterface('enp3s0', { sysRoot: sys, run: fail })).toEqual({
      name: 'enp3s0',
      kind: 'ethernet',
      speedMbps: 2500,
      mtu: 1500,
      source: 'sysfs',
    });
    expect(await describeInterface('eth9', { sysRoot: sys, run: fail })).toEqual({ name: 'eth9', kind: 'ethernet', source: 'sysfs' });
  });

  it('asks iw for a wireless link’s PHY rate, and does without it', async () => {
    const asked: string[][] = [];
    const run = (argv: string[]) => (asked.push(argv), Promise.resolve(IW_LINK));
    expect(await describeInterface('wlp2s0', { sysRoot: sys, run })).toMatchObject({ kind: 'wireless', phyMbps: 866.7, source: 'iw' });
    expect(asked).toEqual([['iw', 'dev', 'wlp2s0', 'link']]);
    expect(await describeInterface('wlp2s0', { sysRoot: sys, run: fail })).toEqual({
      name: 'wlp2s0',
      kind: 'wireless',
      mtu: 1500,
      source: 'sysfs',
    });
  });

  it('tells virtual links and loopback apart', async () => {
    expect(await describeInterface('veth1', { sysRoot: sys, run: fail })).toMatchObject({ kind: 'virtual', speedMbps: 10000 });
    expect(await describeInterface('lo', { sysRoot: sys, run: fail })).toMatchObject({ kind: 'loopback' });
  });

  it('recognises this machine’s own loopback', async () => {
    expect((await describeInterface('lo')).kind).toBe('loopback');
  });
});

describe('linuxNetworkPath', () => {
  it('follows an sshfs mount to the interface that routes to its server, with the ceiling', async () => {
    const asked: string[][] = [];
    const run = (argv: string[]) => (asked.push(argv), Promise.resolve(ROUTE));
    const n = await linuxNetworkPath(
      { fsType: 'fuse.sshfs', source: 'me@192.168.1.20:/srv/share', mountPoint: '/mnt/nas', options: ['rw'] },
      { sysRoot: sys, procRoot: proc, run },
    );
    expect(asked).toEqual([['ip', 'route', 'get', '192.168.1.20']]);
    expect(n).toEqual({
      protocol: 'SFTP',
      client: 'sshfs',
      server: '192.168.1.20',
      share: '/srv/share',
      interface: { name: 'enp3s0', kind: 'ethernet', speedMbps: 2500, mtu: 1500, source: 'sysfs' },
      ceilingMBps: 296.7,
      ceilingNote: '2.5 GbE after Ethernet, IP and TCP headers (1460 of 1538 bytes a packet)',
    });
  });

  it('finds an rclone mount’s server and protocol in its remote’s config', async () => {
    const n = await linuxNetworkPath(
      { fsType: 'fuse.rclone', source: 'nas:media', mountPoint: '/mnt/media', options: [] },
      { sysRoot: sys, procRoot: proc, run: () => Promise.resolve(ROUTE) },
    );
    expect(n).toMatchObject({ protocol: 'SMB', client: 'rclone', server: '192.168.1.20', share: 'media', interface: { name: 'enp3s0' } });
  });

  it('keeps what the mount says when the route cannot be asked', async () => {
    const n = await linuxNetworkPath(
      { fsType: 'cifs', source: '//192.168.1.20/media', mountPoint: '/mnt/m', options: ['vers=3.0'] },
      { sysRoot: sys, procRoot: proc, run: () => Promise.reject(new Error('no ip')) },
    );
    expect(n).toEqual({ protocol: 'SMB', client: 'kernel', version: '3.0', server: '192.168.1.20', share: 'media' });
    expect(await linuxNetworkPath({ fsType: 'ext4', source: '/dev/sda1', mountPoint: '/', options: [] })).toBeUndefined();
  });
});
