// macOS and Windows network shares, end to end against fixtures shaped like the tools' output
// (test/fixtures/link/README.md) with a fake command runner standing in for the OS.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ReadCommand } from '../../../app/src/core/exec/commands.js';
import {
  macShareFor,
  parseAirportTxRate,
  parseIfconfigMedia,
  parseMacMounts,
  parseRouteGet,
  parseSmbutilVersion,
  parseWifiDevices,
  parseWindowsShare,
  windowsNetworkFor,
} from '../../../app/src/core/link/network-platform.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/link');
const fixture = (name: string): string => readFileSync(path.join(fixtures, name), 'utf8');

/** Answers by the first words of argv; anything else fails like a missing tool. */
function runner(answers: Record<string, string>, calls: string[][] = []): ReadCommand {
  return async (argv) => {
    calls.push([...argv]);
    const key = Object.keys(answers).find((k) => argv.join(' ').startsWith(k));
    if (key === undefined) throw Object.assign(new Error(`no ${argv[0]}`), { code: 'ENOENT' });
    return answers[key]!;
  };
}

describe('macOS parsers', () => {
  it('read mount, smbutil, route, ifconfig, networksetup and system_profiler', () => {
    const mounts = parseMacMounts(fixture('macos-mount.txt'));
    expect(mounts.find((m) => m.mountPoint === '/Volumes/Media')).toEqual({
      source: '//anna@DiskStation._smb._tcp.local/Media',
      mountPoint: '/Volumes/Media',
      fsType: 'smbfs',
      options: ['nodev', 'nosuid', 'mounted by anna'],
    });
    expect(parseSmbutilVersion(fixture('macos-smbutil-statshares.txt'))).toBe('3.1.1');
    expect(parseRouteGet(fixture('macos-route-get.txt'))).toBe('en0');
    expect(parseIfconfigMedia(fixture('macos-ifconfig-en8.txt'))).toBe(2500);
    expect(parseIfconfigMedia('\tmedia: autoselect (10Gbase-T <full-duplex>)\n')).toBe(10000);
    expect(parseIfconfigMedia('\tmedia: autoselect\n')).toBeUndefined();
    expect(parseWifiDevices(fixture('macos-networksetup-hardwareports.txt'))).toEqual(['en0']);
    // The current network's rate, not a neighbour's.
    expect(parseAirportTxRate(fixture('macos-system-profiler-airport.txt'))).toBe(1201);
  });
});

describe('macOS: the share behind a folder', () => {
  const base = {
    mount: fixture('macos-mount.txt'),
    'smbutil statshares': fixture('macos-smbutil-statshares.txt'),
    networksetup: fixture('macos-networksetup-hardwareports.txt'),
    'system_profiler SPAirPortDataType': fixture('macos-system-profiler-airport.txt'),
  };

  it('an SMB share over Wi-Fi: dialect, Bonjour host, the PHY rate as a range', async () => {
    const calls: string[][] = [];
    const s = await macShareFor('/Volumes/Media/Films', runner({ ...base, 'route -n get': fixture('macos-route-get.txt') }, calls));
    expect(s).toEqual({
      fsType: 'smbfs',
      mountPoint: '/Volumes/Media',
      network: {
        protocol: 'SMB',
        version: '3.1.1',
        client: 'macOS',
        server: 'DiskStation.local',
        share: 'Media',
        interface: { name: 'en0', kind: 'wireless', phyMbps: 1201, source: 'system_profiler' },
        // 1201 × 0.5 / 8 = 75.1; × 0.7 / 8 = 105.1
        ceilingMBps: 105.1,
        ceilingRangeMBps: [75.1, 105.1],
        ceilingNote: 'Wi-Fi PHY rate 1201 Mb/s × 50–70 % reaching TCP',
      },
    });
    expect(calls).toContainEqual(['smbutil', 'statshares', '-m', '/Volumes/Media']);
    expect(calls).toContainEqual(['route', '-n', 'get', 'DiskStation.local']);
  });

  it('an NFS export over a 2.5 GbE adapter gets the Ethernet ceiling', async () => {
    const s = await macShareFor(
      '/Volumes/backup',
      runner({ ...base, 'route -n get': '  interface: en8\n', 'ifconfig en8': fixture('macos-ifconfig-en8.txt') }),
    );
    expect(s?.network).toMatchObject({
      protocol: 'NFS',
      server: 'nas.lan',
      share: '/volume1/backup',
      interface: { name: 'en8', kind: 'ethernet', speedMbps: 2500 },
      ceilingMBps: 296.7,
    });
  });

  it('an AFP volume, a local disk, and no tools at all', async () => {
    expect((await macShareFor('/Volumes/Data', runner(base)))?.network).toEqual({
      protocol: 'AFP',
      client: 'macOS',
      server: 'Timecapsule.local',
      share: 'Data',
    });
    expect(await macShareFor('/Users/anna', runner(base))).toBeUndefined();
    expect(await macShareFor('/Volumes/Media', runner({}))).toBeUndefined();
  });
});

describe('Windows: the share behind a folder', () => {
  it('reads the dialect and a wired adapter’s speed (bits/s) with its ceiling', () => {
    expect(parseWindowsShare(fixture('windows-smb-share.json'))).toEqual({
      protocol: 'SMB',
      client: 'Windows',
      version: '3.1.1',
      server: 'diskstation',
      address: '192.168.1.20',
      share: 'Media',
      interface: { name: 'Ethernet', kind: 'ethernet', speedMbps: 2500, source: 'powershell' },
      ceilingMBps: 296.7,
      ceilingNote: '2.5 GbE after Ethernet, IP and TCP headers (1460 of 1538 bytes a packet)',
    });
  });

  it('takes a Wi-Fi adapter’s speed as its PHY rate', () => {
    expect(parseWindowsShare(fixture('windows-smb-share-wifi.json'))).toMatchObject({
      server: '192.168.1.20',
      interface: { name: 'Wi-Fi', kind: 'wireless', phyMbps: 866.7 },
      ceilingRangeMBps: [54.2, 75.8],
    });
  });

  it('asks PowerShell about UNC paths and drive letters only, quoting the path', async () => {
    const calls: string[][] = [];
    const n = await windowsNetworkFor(
      "\\\\diskstation\\Media\\Anna's",
      runner({ 'powershell.exe': fixture('windows-smb-share.json') }, calls),
    );
    expect(n?.server).toBe('diskstation');
    expect(calls[0]!.slice(0, 4)).toEqual(['powershell.exe', '-NoProfile', '-NonInteractive', '-Command']);
    expect(calls[0]![4]).toContain("$p = '\\\\diskstation\\Media\\Anna''s'");
    expect(await windowsNetworkFor('relative\\dir', runner({}))).toBeUndefined();
    // A local drive: the script prints nothing.
    expect(await windowsNetworkFor('C:\\Users', runner({ 'powershell.exe': '' }))).toBeUndefined();
  });
});
