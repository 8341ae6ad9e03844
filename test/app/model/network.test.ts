// Network targets, the pure half: what a mount's type, source and options say about a share, the
// ceilings a link allows after Ethernet/IP/TCP overhead (hand-computed below), and the one-line label.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkResult } from '../../../app/src/model/result-parse.js';
import {
  ethernetCeilingMBps,
  interfaceCeiling,
  isNetworkFs,
  networkFromFolder,
  networkFromMount,
  networkLabel,
  networkLink,
  uncachedAdvice,
  type NetworkPath,
} from '../../../app/src/model/network.js';

describe('networkFromMount', () => {
  it('reads sshfs, cifs, nfs, davfs and rclone sources', () => {
    expect(networkFromMount('fuse.sshfs', 'me@nas.local:/srv/share', ['rw', 'user_id=0'])).toEqual({
      protocol: 'SFTP',
      client: 'sshfs',
      server: 'nas.local',
      share: '/srv/share',
    });
    expect(networkFromMount('cifs', '//nas/media', ['rw', 'vers=3.1.1', 'cache=strict', 'addr=192.168.1.20', 'actimeo=1'])).toEqual({
      protocol: 'SMB',
      client: 'kernel',
      version: '3.1.1',
      server: 'nas',
      address: '192.168.1.20',
      share: 'media',
      cacheOptions: ['cache=strict', 'actimeo=1'],
    });
    expect(networkFromMount('nfs4', '[fd00::5]:/export/home', ['rw', 'vers=4.2', 'noac'])).toMatchObject({
      protocol: 'NFS',
      version: '4.2',
      server: 'fd00::5',
      share: '/export/home',
      cacheOptions: ['noac'],
    });
    expect(networkFromMount('nfs4', 'nas:/', [])).toMatchObject({ version: '4', server: 'nas', share: '/' });
    expect(networkFromMount('davfs', 'https://cloud.example.org:8443/remote.php/dav', [])).toMatchObject({
      protocol: 'WebDAV',
      server: 'cloud.example.org',
      share: '/remote.php/dav',
    });
    // rclone names its remote, not the server (core reads the remote's config for that).
    expect(networkFromMount('fuse.rclone', 'nas-smb:media/photos', [])).toEqual({
      protocol: 'rclone',
      client: 'rclone',
      share: 'media/photos',
    });
  });

  it('is undefined for disk file systems, and names the FUSE network clients', () => {
    expect(networkFromMount('ext4', '/dev/sda1', [])).toBeUndefined();
    expect(isNetworkFs('fuseblk')).toBe(false);
    for (const t of ['fuse.sshfs', 'fuse.rclone', 'fuse.smbnetfs', 'fuse.gvfsd-fuse', 'davfs', 'nfs', 'cifs', 'smb3'])
      expect(isNetworkFs(t)).toBe(true);
  });

  it('finds server and share in the folders of smbnetfs and gvfs mounts', () => {
    const smb = networkFromMount('fuse.smbnetfs', 'smbnetfs', [])!;
    expect(networkFromFolder(smb, '10.0.0.5/media/films')).toMatchObject({ protocol: 'SMB', server: '10.0.0.5', share: 'media' });
    const gvfs = networkFromMount('fuse.gvfsd-fuse', 'gvfsd-fuse', [])!;
    expect(networkFromFolder(gvfs, 'smb-share:server=nas.local,share=media/films')).toMatchObject({
      protocol: 'SMB',
      server: 'nas.local',
      share: 'media',
    });
    const dav = networkFromMount('fuse.gvfsd-fuse', 'gvfsd-fuse', [])!;
    expect(networkFromFolder(dav, 'dav:host=cloud,ssl=true,prefix=%2Fdav')).toMatchObject({
      protocol: 'WebDAV',
      server: 'cloud',
      share: '/dav',
    });
  });
});

describe('ceilings', () => {
  it('takes Ethernet, IP and TCP headers off the line rate: 1460 of 1538 bytes at MTU 1500', () => {
    // 125 MB/s × 1460 / 1538 = 118.66; 312.5 × … = 296.65; 1250 × … = 1186.6.
    expect(ethernetCeilingMBps(1000)).toBe(118.7);
    expect(ethernetCeilingMBps(2500)).toBe(296.7);
    expect(ethernetCeilingMBps(10000)).toBe(1186.6);
    // Jumbo frames: 1250 × 8960 / 9038 = 1239.2.
    expect(ethernetCeilingMBps(10000, 9000)).toBe(1239.2);
    expect(interfaceCeiling({ name: 'eth0', kind: 'ethernet', speedMbps: 1000, mtu: 1500, source: 'sysfs' })).toEqual({
      ceilingMBps: 118.7,
      ceilingNote: '1 GbE after Ethernet, IP and TCP headers (1460 of 1538 bytes a packet)',
    });
  });

  it('gives Wi-Fi a range: the PHY rate × 50–70 %', () => {
    // 866.7 Mb/s × 0.5 / 8 = 54.2; × 0.7 / 8 = 75.8.
    expect(interfaceCeiling({ name: 'wlan0', kind: 'wireless', phyMbps: 866.7, source: 'iw' })).toEqual({
      ceilingMBps: 75.8,
      ceilingRangeMBps: [54.2, 75.8],
      ceilingNote: 'Wi-Fi PHY rate 866.7 Mb/s × 50–70 % reaching TCP',
    });
    expect(interfaceCeiling({ name: 'wlan0', kind: 'wireless', source: 'sysfs' }).ceilingMBps).toBeUndefined();
  });

  it('invents none for loopback, virtual links or a link without a speed', () => {
    const veth = interfaceCeiling({ name: 'veth0', kind: 'virtual', speedMbps: 10000, source: 'sysfs' });
    expect(veth.ceilingMBps).toBeUndefined();
    expect(veth.ceilingNote).toBe('the virtual link reports 10000 Mb/s, a nominal figure, not a limit: no ceiling assumed');
    expect(interfaceCeiling({ name: 'lo', kind: 'loopback', speedMbps: 10000, source: 'sysfs' }).ceilingMBps).toBeUndefined();
    expect(interfaceCeiling({ name: 'eth1', kind: 'ethernet', source: 'sysfs' })).toEqual({ ceilingNote: 'eth1 reports no link speed' });
  });
});

describe('networkLabel and networkLink', () => {
  const sshfs: NetworkPath = {
    protocol: 'SFTP',
    client: 'sshfs',
    server: '127.0.0.1',
    share: '/srv/share',
    interface: { name: 'lo', kind: 'loopback', source: 'sysfs' },
  };

  it('says client, protocol, server:share and the interface in one line', () => {
    expect(networkLabel(sshfs)).toBe('sshfs (SFTP) · 127.0.0.1:/srv/share · via lo');
    expect(
      networkLabel({ protocol: 'SMB', version: '3.1.1', client: 'kernel', server: 'nas', address: '192.168.1.20', share: 'media' }),
    ).toBe('SMB 3.1.1 · nas (192.168.1.20):media');
  });

  it('is a network link carrying the ceiling, or none', () => {
    expect(networkLink(sshfs)).toEqual({ kind: 'network', label: 'loopback (lo)', source: 'sysfs' });
    const gbe: NetworkPath = {
      ...sshfs,
      interface: { name: 'eth0', kind: 'ethernet', speedMbps: 1000, source: 'sysfs' },
      ceilingMBps: 118.7,
    };
    expect(networkLink(gbe)).toEqual({ kind: 'network', label: '1 GbE (eth0)', rawMbps: 1000, ceilingMBps: 118.7, source: 'sysfs' });
  });

  it('tells each client how to skip its cache', () => {
    expect(uncachedAdvice({ protocol: 'SFTP', client: 'sshfs' })).toContain('sshfs -o cache=no,direct_io');
    expect(uncachedAdvice({ protocol: 'SMB', client: 'kernel' })).toContain('cache=none');
    expect(uncachedAdvice({ protocol: 'NFS', client: 'kernel' })).toContain('noac');
    expect(uncachedAdvice({ protocol: 'SMB', client: 'macOS' })).toContain('F_NOCACHE');
  });
});

describe('a result with a network path', () => {
  const doc = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../fixtures/results/quick.json'), 'utf8')) as Record<
    string,
    unknown
  > & {
    target: Record<string, unknown>;
  };

  it('is read back as it was, and refused when its network path lacks the protocol', () => {
    const network = { protocol: 'SFTP', client: 'sshfs', server: '127.0.0.1', share: '/srv/share' };
    const ok = { ...doc, target: { ...doc.target, network } };
    expect(checkResult(ok).target.network).toEqual(network);
    expect(() => checkResult({ ...doc, target: { ...doc.target, network: { client: 'sshfs' } } })).toThrow(
      'It looks like a DiskDial result but is damaged: target.network.protocol is missing.',
    );
  });
});
