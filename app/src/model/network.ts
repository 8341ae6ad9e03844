// Network targets: which file systems are network shares, what protocol and client they use,
// the server and share their mount source names, and what the local link to the server can carry
// (the payload ceiling after Ethernet/IP/TCP overhead, a range for Wi-Fi). Pure: core/link/network.ts
// probes the OS and hands the facts here. Speeds: MB/s = 10^6 bytes/s; link rates in Mb/s.
import type { LinkInfo } from './link-types.js';

export type InterfaceKind = 'ethernet' | 'wireless' | 'loopback' | 'virtual' | 'unknown';

/** The local interface that routes to the server. */
export interface NetworkInterface {
  name: string;
  kind: InterfaceKind;
  /** What the OS reports as the interface's speed, Mb/s (virtual links report a nominal one). */
  speedMbps?: number;
  /** Wireless: the PHY bitrate of the association (iw's tx bitrate, macOS's Tx rate), Mb/s. */
  phyMbps?: number;
  /** The interface's MTU, bytes (1500 unless jumbo frames): it sets the share of headers. */
  mtu?: number;
  /** Where the facts came from: 'sysfs', 'iw', 'networksetup', 'powershell'. */
  source: string;
}

/** The network path of a share as the result document records it. */
export interface NetworkPath {
  /** The wire protocol: 'SMB', 'NFS', 'SFTP', 'AFP', 'WebDAV', or the client's own name. */
  protocol: string;
  /** Its version where the OS says (SMB vers=3.1.1, NFS vers=4.2). */
  version?: string;
  /** The program or driver that mounts it: 'sshfs', 'rclone', 'kernel', 'smbnetfs', 'gvfs'… */
  client: string;
  /** The server as the mount names it (host name or address), when it does. */
  server?: string;
  /** The address the server's name resolved to, when it differs from `server`. */
  address?: string;
  /** The share or exported path on the server. */
  share?: string;
  /** The mount options that decide the client cache (cache=, actimeo=, noac, direct_io…). */
  cacheOptions?: string[];
  interface?: NetworkInterface;
  /** Payload ceiling of the link, MB/s, when the link speed is known and real. */
  ceilingMBps?: number;
  /** Wireless: what the link can carry at the stated efficiencies, MB/s. */
  ceilingRangeMBps?: [number, number];
  /** Why the ceiling is missing or what it assumes, in plain words. */
  ceilingNote?: string;
  /** What the client cache did when the test looked: a file read, then read again. */
  cacheProbe?: ShareCacheProbe;
  /** The round trip to the server when the test looked (TCP connects to its port). */
  roundTrip?: RoundTrip;
}

/** The round trip to the server: the fastest of `samples` TCP connects to `port`, less a local
 *  connect's time, ms (core/link/round-trip.ts). `refused`: the port was closed and its RST timed. */
export interface RoundTrip {
  ms: number;
  port: number;
  samples: number;
  refused?: boolean;
}

/** The ports a protocol's server listens on, in the order tried. */
const SERVER_PORTS: Readonly<Record<string, readonly number[]>> = {
  SFTP: [22],
  SMB: [445, 139],
  NFS: [2049],
  AFP: [548],
  WebDAV: [443, 80],
};

/** The ports to time the round trip on; none for a protocol not listed (not guessed). */
export function serverPorts(protocol: string): readonly number[] {
  return SERVER_PORTS[protocol] ?? [];
}

/** A file on the share read twice in a row, as the test observed it (core/share-cache-probe.ts). */
export interface ShareCacheProbe {
  bytes: number;
  /** The first read, MB/s: over the link (the file was written and closed first). */
  firstMBps: number;
  /** The same read again at once, MB/s: from this computer's memory if the client cache kept it. */
  againMBps: number;
}

// A second read served from memory runs 17–160 × the first over the link (sshfs on a veth at
// 200 Mbit/s and 1 Gbit/s); without the client cache both cross the link, 0.2–1.2 × (the same
// links): 4 × lies between with room either way.
export const REREAD_RATIO = 4;

/** Whether the client cache answered: the second read ran far faster than the first, or faster
 *  than the link can carry (5 % for timer granularity, as the ceiling flag allows). */
export function shareCacheObserved(p: ShareCacheProbe, ceilingMBps?: number): 'cached' | 'uncached' {
  if (p.againMBps > REREAD_RATIO * p.firstMBps) return 'cached';
  if (ceilingMBps && p.againMBps > ceilingMBps * 1.05) return 'cached';
  return 'uncached';
}

/** A file system type the kernel or a FUSE client uses for a network share: protocol and client. */
const NETWORK_FS: Readonly<Record<string, { protocol: string; client: string }>> = {
  nfs: { protocol: 'NFS', client: 'kernel' },
  nfs4: { protocol: 'NFS', client: 'kernel' },
  cifs: { protocol: 'SMB', client: 'kernel' },
  smb3: { protocol: 'SMB', client: 'kernel' },
  smbfs: { protocol: 'SMB', client: 'kernel' },
  afpfs: { protocol: 'AFP', client: 'afpfs' },
  davfs: { protocol: 'WebDAV', client: 'davfs2' },
  ceph: { protocol: 'Ceph', client: 'kernel' },
  glusterfs: { protocol: 'GlusterFS', client: 'kernel' },
  '9p': { protocol: '9P', client: 'kernel' },
  virtiofs: { protocol: 'virtiofs', client: 'kernel' },
  'fuse.sshfs': { protocol: 'SFTP', client: 'sshfs' },
  'fuse.rclone': { protocol: 'rclone', client: 'rclone' },
  'fuse.smbnetfs': { protocol: 'SMB', client: 'smbnetfs' },
  'fuse.gvfsd-fuse': { protocol: 'GVfs', client: 'gvfs' },
  'fuse.afpfs': { protocol: 'AFP', client: 'afpfs-ng' },
  'fuse.s3fs': { protocol: 'S3', client: 's3fs' },
  'fuse.glusterfs': { protocol: 'GlusterFS', client: 'glusterfs' },
  'fuse.ceph-fuse': { protocol: 'Ceph', client: 'ceph-fuse' },
  'fuse.davfs2': { protocol: 'WebDAV', client: 'davfs2' },
  // macOS mount(8) types (smbfs above serves both)
  webdav: { protocol: 'WebDAV', client: 'kernel' },
};

/** Whether a file system type is a network share (kernel or FUSE). */
export function isNetworkFs(fsType: string): boolean {
  return Object.hasOwn(NETWORK_FS, fsType);
}

/** Why a test that measures a network share (a kind with `networkOnly`) cannot run in `folder`: the
 *  runner's refusal, and a screen's before Start. `test` names it as its door does ("--test share"). */
export function notOnShareText(test: string, folder: string, fsType: string | undefined): string {
  return `${test} measures a network share, and ${folder} is not on one (${fsType || 'a local file system'})`;
}

// gvfs shows each mount as a folder named after its location: "smb-share:server=nas,share=media",
// "sftp:host=nas,user=me", "dav:host=nas,ssl=true,prefix=%2Fdav".
const GVFS_PROTOCOL: Readonly<Record<string, string>> = {
  'smb-share': 'SMB',
  sftp: 'SFTP',
  dav: 'WebDAV',
  davs: 'WebDAV',
  'afp-volume': 'AFP',
  ftp: 'FTP',
  nfs: 'NFS',
};

/**
 * What the path inside a FUSE mount that shows servers as folders says: smbnetfs's
 * "<server>/<share>/…" and gvfs's "smb-share:server=<server>,share=<share>/…". `inside` is the
 * target's path relative to the mount point.
 */
export function networkFromFolder(n: NetworkPath, inside: string): NetworkPath {
  const parts = inside.split('/').filter(Boolean);
  if (n.client === 'smbnetfs') {
    if (parts[0]) n.server = parts[0];
    if (parts[1]) n.share = parts[1];
  } else if (n.client === 'gvfs' && parts[0]) {
    const m = /^([a-z-]+):(.*)$/.exec(parts[0]);
    if (m) {
      n.protocol = GVFS_PROTOCOL[m[1]!] ?? m[1]!;
      const kv = new Map(m[2]!.split(',').map((x) => x.split('=') as [string, string]));
      const server = kv.get('server') ?? kv.get('host');
      if (server) n.server = decodeURIComponent(server);
      const share = kv.get('share') ?? kv.get('volume') ?? kv.get('prefix');
      if (share) n.share = decodeURIComponent(share);
    }
  }
  return n;
}

/** rclone's backends by their config `type`, as protocols. */
const RCLONE_PROTOCOL: Readonly<Record<string, string>> = { smb: 'SMB', sftp: 'SFTP', webdav: 'WebDAV', ftp: 'FTP', s3: 'S3' };

export function rcloneProtocol(type: string): string {
  return RCLONE_PROTOCOL[type] ?? type;
}

function optionValue(options: readonly string[], key: string): string | undefined {
  const o = options.find((x) => x.startsWith(`${key}=`));
  return o?.slice(key.length + 1);
}

const CACHE_OPTION = /^(cache=|actimeo=|acregmax=|acdirmax=|noac$|direct_io$|kernel_cache$|auto_cache$|vers=|lookupcache=)/;

/**
 * What a mount's type, source and options say about a share: protocol, client, version, server and
 * share. Sources: "user@host:/path" (sshfs), "//host/share" (cifs), "host:/export" (nfs),
 * "remote:path" (rclone; the server is in its config), "davfs2"'s URL. Undefined for a type that is
 * no network file system.
 */
export function networkFromMount(fsType: string, source: string, options: readonly string[]): NetworkPath | undefined {
  const known = NETWORK_FS[fsType];
  if (!known) return undefined;
  const n: NetworkPath = { protocol: known.protocol, client: known.client };
  const vers = optionValue(options, 'vers') ?? optionValue(options, 'nfsvers');
  if (vers) n.version = vers;
  else if (fsType === 'nfs4') n.version = '4';
  const cache = options.filter((o) => CACHE_OPTION.test(o) && !o.startsWith('vers='));
  if (cache.length) n.cacheOptions = cache;
  let m: RegExpExecArray | null;
  if ((m = /^(?:https?|davs?):\/\/([^/:]+|\[[^\]]+\])(?::\d+)?(\/.*)?$/i.exec(source))) {
    n.server = m[1]!.replace(/^\[|\]$/g, '');
    n.share = m[2] ?? '/';
  } else if ((m = /^\/\/([^/]+)\/(.*)$/.exec(source))) {
    n.server = m[1]!.replace(/^.*@/, '');
    n.share = m[2]!;
  } else if (fsType !== 'fuse.rclone' && (m = /^(?:[^@/]+@)?(\[[^\]]+\]|[^:/]+):(.*)$/.exec(source))) {
    n.server = m[1]!.replace(/^\[|\]$/g, '');
    n.share = m[2] || '/';
  } else if (fsType === 'fuse.rclone' && (m = /^([^:]*):(.*)$/.exec(source))) {
    // rclone names the remote, not the server: core reads the remote's config for it.
    n.share = m[2] || '/';
  }
  const addr = optionValue(options, 'addr');
  if (addr && addr !== n.server) n.address = addr;
  return n;
}

// Ethernet framing per packet: preamble + SFD 8, header 14, FCS 4 and the inter-packet gap 12 =
// 38 bytes of wire time around each MTU; inside, IPv4 20 + TCP 20 leave MTU − 40 bytes of payload.
// At 1500: 1460 / 1538 = 94.9 % of the line rate, 1 Gb/s ≈ 118.7 MB/s. It is a ceiling, so the
// cheapest headers are assumed (TCP timestamps, on by default in Linux, take 12 more: 94.1 %).
export function ethernetEfficiency(mtu = 1500): number {
  return (mtu - 40) / (mtu + 38);
}

/** Wi-Fi: how much of the PHY rate reaches TCP (contention, ACKs, aggregation), low and high. */
export const WIFI_EFFICIENCY: readonly [number, number] = [0.5, 0.7];

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/** Payload ceiling of a wired link of `mbps` after Ethernet/IP/TCP overhead, MB/s. */
export function ethernetCeilingMBps(mbps: number, mtu = 1500): number {
  return round1((mbps * ethernetEfficiency(mtu)) / 8);
}

/** "1 GbE", "2.5 GbE", "100 Mb/s Ethernet". */
export function ethernetName(mbps: number): string {
  return mbps >= 1000 ? `${mbps / 1000} GbE` : `${mbps} Mb/s Ethernet`;
}

/** The ceiling the interface allows, and the note that says what it assumes or why there is none. */
export function interfaceCeiling(i: NetworkInterface): Pick<NetworkPath, 'ceilingMBps' | 'ceilingRangeMBps' | 'ceilingNote'> {
  if (i.kind === 'loopback')
    return { ceilingNote: 'loopback: no network link between client and server, only the two programs and the CPU' };
  if (i.kind === 'virtual')
    return {
      ceilingNote:
        i.speedMbps !== undefined
          ? `the virtual link reports ${i.speedMbps} Mb/s, a nominal figure, not a limit: no ceiling assumed`
          : 'the virtual link reports no speed: no ceiling assumed',
    };
  if (i.kind === 'wireless') {
    if (!i.phyMbps) return { ceilingNote: 'wireless link: the OS did not report the PHY rate' };
    const lo = round1((i.phyMbps * WIFI_EFFICIENCY[0]) / 8);
    const hi = round1((i.phyMbps * WIFI_EFFICIENCY[1]) / 8);
    return {
      ceilingMBps: hi,
      ceilingRangeMBps: [lo, hi],
      ceilingNote: `Wi-Fi PHY rate ${i.phyMbps} Mb/s × ${WIFI_EFFICIENCY[0] * 100}–${WIFI_EFFICIENCY[1] * 100} % reaching TCP`,
    };
  }
  if (i.speedMbps && i.speedMbps > 0) {
    const mtu = i.mtu && i.mtu >= 576 ? i.mtu : 1500;
    return {
      ceilingMBps: ethernetCeilingMBps(i.speedMbps, mtu),
      ceilingNote: `${ethernetName(i.speedMbps)} after Ethernet, IP and TCP headers (${mtu - 40} of ${mtu + 38} bytes a packet)`,
    };
  }
  return { ceilingNote: `${i.name} reports no link speed` };
}

/** The interface in a few words: "1 GbE (eth0)", "Wi-Fi 866 Mb/s (wlan0)", "loopback (lo)", "veth ddv0". */
export function interfaceLabel(i: NetworkInterface): string {
  if (i.kind === 'loopback') return `loopback (${i.name})`;
  if (i.kind === 'wireless') return i.phyMbps ? `Wi-Fi ${i.phyMbps} Mb/s (${i.name})` : `Wi-Fi (${i.name})`;
  if (i.kind === 'virtual') return `virtual link ${i.name}`;
  if (i.speedMbps) return `${ethernetName(i.speedMbps)} (${i.name})`;
  return i.name;
}

/** The share in one line: "sshfs (SFTP) · 127.0.0.1:/srv/share · via lo". */
export function networkLabel(n: NetworkPath): string {
  const proto = n.version ? `${n.protocol} ${n.version}` : n.protocol;
  const parts = [n.client === 'kernel' || n.client === 'macOS' || n.client === 'Windows' ? proto : `${n.client} (${proto})`];
  const server = n.address && n.server ? `${n.server} (${n.address})` : (n.server ?? n.address);
  if (server || n.share) parts.push(server ? `${server}:${n.share ?? ''}` : (n.share ?? ''));
  if (n.interface) parts.push(`via ${n.interface.name}`);
  return parts.join(' · ');
}

/** The network path as a link: what the flags judge against and the charts draw. */
export function networkLink(n: NetworkPath): LinkInfo {
  const link: LinkInfo = {
    kind: 'network',
    label: n.interface ? interfaceLabel(n.interface) : 'network (interface unknown)',
    source: n.interface?.source ?? 'mount',
  };
  if (n.interface?.speedMbps && n.interface.kind !== 'virtual') link.rawMbps = n.interface.speedMbps;
  if (n.ceilingMBps !== undefined) link.ceilingMBps = n.ceilingMBps;
  if (n.ceilingRangeMBps) link.typicalMBps = [n.ceilingRangeMBps[0], n.ceilingRangeMBps[1]];
  return link;
}

/** How to make this share's client skip its cache, in the words of its own options. */
export function uncachedAdvice(n: Pick<NetworkPath, 'protocol' | 'client'>): string {
  if (n.client === 'sshfs') return 'mount it with sshfs -o cache=no,direct_io (the client cache then holds nothing)';
  if (n.client === 'smbnetfs' || n.client === 'gvfs')
    return `mount it with the kernel's client instead (mount -t cifs -o cache=none), which can skip the cache; ${n.client} cannot`;
  if (n.client === 'rclone')
    return 'mount it with rclone mount --vfs-cache-mode off --dir-cache-time 0 and --direct-io where your rclone has it';
  if (n.client === 'macOS')
    return 'macOS shares take F_NOCACHE per file (DiskDial sets it with --cache auto); mount with nobrowse,noowners to avoid Finder caching';
  if (n.client === 'Windows')
    return 'keep --cache auto (DiskDial opens the file unbuffered) and turn off Offline Files for the share in Sync Center, which caches it locally';
  if (n.protocol === 'SMB')
    return 'mount it with cache=none (or actimeo=0), e.g. mount -t cifs -o cache=none,vers=3.1.1 //server/share /mnt';
  if (n.protocol === 'NFS') return 'mount it with noac (and lookupcache=none), e.g. mount -t nfs -o noac,vers=4.2 server:/export /mnt';
  return 'mount it with the client’s no-cache option (cache=none, noac or direct_io, as the client names it)';
}
