// macOS and Windows: the network path of a share. macOS: `mount` names type, server and share,
// `smbutil statshares` the SMB dialect, `route -n get` the interface, `ifconfig` a wired link's
// media speed, `networksetup -listallhardwareports` which port is Wi-Fi and `system_profiler
// SPAirPortDataType` its transmit rate. Windows: one PowerShell script (Get-SmbMapping,
// Get-SmbConnection, Find-NetRoute, Get-NetAdapter). Pure parsers plus the lookups; nothing throws.
import type { ReadCommand } from '../exec/commands.js';
import { text } from '../exec/json.js';
import { jsonRows, powershell } from '../exec/powershell.js';
import { interfaceCeiling, networkFromMount, type NetworkInterface, type NetworkPath } from '../../model/network.js';
import { linkRead } from './platform.js';

export interface MacMount {
  source: string;
  mountPoint: string;
  fsType: string;
  options: string[];
}

/** macOS `mount` lines: "//me@nas._smb._tcp.local/media on /Volumes/media (smbfs, nodev, …)". */
export function parseMacMounts(out: string): MacMount[] {
  const mounts: MacMount[] = [];
  for (const line of out.split('\n')) {
    const m = /^(.+) on (.+) \(([^,)]+)(?:, ([^)]*))?\)\s*$/.exec(line.trim());
    if (!m) continue;
    mounts.push({ source: m[1]!, mountPoint: m[2]!, fsType: m[3]!, options: (m[4] ?? '').split(/,\s*/).filter(Boolean) });
  }
  return mounts;
}

/** The mount a path lives on: the longest mount point that prefixes it. */
export function macMountOf(mounts: readonly MacMount[], target: string): MacMount | undefined {
  let best: MacMount | undefined;
  for (const m of mounts) {
    const mp = m.mountPoint;
    const under = mp === '/' || target === mp || target.startsWith(`${mp}/`);
    if (under && (!best || mp.length > best.mountPoint.length)) best = m;
  }
  return best;
}

/** `smbutil statshares -m MP`: "SMB_VERSION   SMB_3.1.1" → "3.1.1". */
export function parseSmbutilVersion(out: string): string | undefined {
  return /SMB_VERSION\s+SMB_([\d.]+)/.exec(out)?.[1];
}

/** `route -n get ADDR`: "  interface: en0". */
export function parseRouteGet(out: string): string | undefined {
  return /^\s*interface:\s*(\S+)/m.exec(out)?.[1];
}

/** `ifconfig IF` media line → Mb/s: "(1000baseT <full-duplex>)" 1000, "(10Gbase-T …)" 10000. */
export function parseIfconfigMedia(out: string): number | undefined {
  const m = /media:.*\((\d+(?:\.\d+)?)(G?)base/i.exec(out);
  if (!m) return undefined;
  return Number(m[1]) * (m[2] ? 1000 : 1);
}

/** `networksetup -listallhardwareports`: the devices whose port is Wi-Fi (or AirPort). */
export function parseWifiDevices(out: string): string[] {
  const devices: string[] = [];
  for (const block of out.split(/\n\s*\n/)) {
    const port = /Hardware Port:\s*(.+)/.exec(block)?.[1]?.trim();
    const dev = /Device:\s*(\S+)/.exec(block)?.[1];
    if (port && dev && /wi-?fi|airport/i.test(port)) devices.push(dev);
  }
  return devices;
}

/** `system_profiler SPAirPortDataType`: the current network's "Transmit Rate: 866" → 866 Mb/s. */
export function parseAirportTxRate(out: string): number | undefined {
  const m = /Current Network Information:[\s\S]*?Transmit Rate:\s*([\d.]+)/.exec(out);
  const n = m ? Number(m[1]) : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

// macOS names its share clients by mount type; the kernel's own are all "macOS".
const MAC_FS: Readonly<Record<string, string>> = { smbfs: 'smbfs', nfs: 'nfs', afpfs: 'afpfs', webdav: 'webdav' };

/** macOS server and share from a mount source: "//me@nas/media", "afp_xx@nas/media", "nas:/export". */
function macShare(m: MacMount): NetworkPath | undefined {
  if (m.fsType === 'afpfs') {
    const a = /^(?:[^@]*@)?([^/]+)\/(.*)$/.exec(m.source);
    return { protocol: 'AFP', client: 'macOS', ...(a ? { server: a[1]!, share: a[2]! } : {}) };
  }
  const n = networkFromMount(MAC_FS[m.fsType] ?? '', m.source, m.options);
  if (!n) return undefined;
  n.client = 'macOS';
  // Bonjour names: "nas._smb._tcp.local" is the host "nas.local".
  if (n.server) n.server = n.server.replace(/\._[a-z]+\._tcp\./i, '.');
  return n;
}

async function tryRun(run: ReadCommand, argv: string[]): Promise<string> {
  try {
    return await run(argv);
  } catch {
    return '';
  }
}

export interface MacShare {
  network: NetworkPath;
  /** The mount's type and point as `mount` says (smbfs, /Volumes/media). */
  fsType: string;
  mountPoint: string;
}

/** The share a macOS folder is on, with its network path; undefined when it is on no share. */
export async function macShareFor(target: string, run: ReadCommand = linkRead): Promise<MacShare | undefined> {
  const m = macMountOf(parseMacMounts(await tryRun(run, ['mount'])), target);
  const n = m ? macShare(m) : undefined;
  if (!m || !n) return undefined;
  return { network: await macNetworkPath(n, m, run), fsType: m.fsType, mountPoint: m.mountPoint };
}

async function macNetworkPath(n: NetworkPath, m: MacMount, run: ReadCommand): Promise<NetworkPath> {
  if (n.protocol === 'SMB') {
    const v = parseSmbutilVersion(await tryRun(run, ['smbutil', 'statshares', '-m', m.mountPoint]));
    if (v) n.version = v;
  }
  const dev = n.server ? parseRouteGet(await tryRun(run, ['route', '-n', 'get', n.server])) : undefined;
  if (!dev) return n;
  const i: NetworkInterface = { name: dev, kind: 'unknown', source: 'ifconfig' };
  if (/^lo\d*$/.test(dev)) i.kind = 'loopback';
  else if (parseWifiDevices(await tryRun(run, ['networksetup', '-listallhardwareports'])).includes(dev)) {
    i.kind = 'wireless';
    const rate = parseAirportTxRate(await tryRun(run, ['system_profiler', 'SPAirPortDataType']));
    if (rate) {
      i.phyMbps = rate;
      i.source = 'system_profiler';
    }
  } else if (/^(utun|bridge|vmenet|feth|gif|stf)\d*/.test(dev)) i.kind = 'virtual';
  else {
    const speed = parseIfconfigMedia(await tryRun(run, ['ifconfig', dev]));
    if (speed) {
      i.kind = 'ethernet';
      i.speedMbps = speed;
    }
  }
  n.interface = i;
  return Object.assign(n, interfaceCeiling(i));
}

/** The PowerShell that describes the share a path is on: its mapping or UNC, the SMB connection
 *  (dialect), the route's interface and that adapter. `{0}` stands for the path. */
export const WINDOWS_SHARE_SCRIPT = `$p = '{0}'
$unc = $p
if ($p -match '^([A-Za-z]:)') { $m = Get-SmbMapping -LocalPath $Matches[1] -ErrorAction SilentlyContinue; if ($m) { $unc = $m.RemotePath } }
if ($unc -notmatch '^\\\\\\\\([^\\\\]+)\\\\([^\\\\]+)') { exit }
$server = $Matches[1]; $share = $Matches[2]
$c = Get-SmbConnection -ServerName $server -ShareName $share -ErrorAction SilentlyContinue | Select-Object -First 1
$addr = ([System.Net.Dns]::GetHostAddresses($server) | Select-Object -First 1).IPAddressToString
$r = Find-NetRoute -RemoteIPAddress $addr -ErrorAction SilentlyContinue | Select-Object -First 1
$a = if ($r) { Get-NetAdapter -InterfaceIndex $r.InterfaceIndex -ErrorAction SilentlyContinue }
[pscustomobject]@{ Server = $server; Share = $share; Dialect = $c.Dialect; Address = $addr; InterfaceAlias = $a.Name; TransmitLinkSpeed = $a.TransmitLinkSpeed; PhysicalMediaType = $a.PhysicalMediaType; Virtual = $a.Virtual; InterfaceDescription = $a.InterfaceDescription } | ConvertTo-Json`;

/** WINDOWS_SHARE_SCRIPT's output → the share's network path (bits/s → Mb/s). */
export function parseWindowsShare(json: string): NetworkPath | undefined {
  const o = jsonRows(json)?.[0];
  const server = text(o?.Server);
  if (!o || !server) return undefined;
  const n: NetworkPath = { protocol: 'SMB', client: 'Windows', server };
  const share = text(o.Share);
  if (share) n.share = share;
  const dialect = text(o.Dialect);
  if (dialect) n.version = dialect;
  const address = text(o.Address);
  if (address && address !== server) n.address = address;
  const alias = text(o.InterfaceAlias);
  if (!alias) return n;
  const media = text(o.PhysicalMediaType) ?? '';
  const bps = typeof o.TransmitLinkSpeed === 'number' ? o.TransmitLinkSpeed : NaN;
  const i: NetworkInterface = { name: alias, kind: 'unknown', source: 'powershell' };
  if (/loopback/i.test(`${media} ${text(o.InterfaceDescription) ?? ''}`)) i.kind = 'loopback';
  else if (o.Virtual === true) i.kind = 'virtual';
  else if (/802\.11|wireless/i.test(media)) i.kind = 'wireless';
  else if (/802\.3/.test(media)) i.kind = 'ethernet';
  if (Number.isFinite(bps) && bps > 0) {
    if (i.kind === 'wireless') i.phyMbps = bps / 1e6;
    else i.speedMbps = bps / 1e6;
  }
  n.interface = i;
  return Object.assign(n, interfaceCeiling(i));
}

/** The network path of a Windows folder on a share (a UNC path or a mapped drive letter). */
export async function windowsNetworkFor(target: string, run: ReadCommand = linkRead): Promise<NetworkPath | undefined> {
  if (!/^(\\\\|[A-Za-z]:)/.test(target)) return undefined;
  const script = WINDOWS_SHARE_SCRIPT.replace('{0}', target.replace(/'/g, "''"));
  return parseWindowsShare(await tryRun(run, powershell(script)));
}
