// A file server on the other end of a real network link, for tests: a network namespace joined to
// the root one by a veth pair in a private /30 (10.231.x.y), shaped with tc's tbf when asked, with
// OpenSSH's sshd (SFTP, mounted here with sshfs) and Samba's smbd (mounted here with smbnetfs,
// libsmbclient through FUSE: this kernel has no cifs module) listening only on the namespace's
// address. (rclone's smb backend mounts too, but without its VFS cache it cannot truncate a file,
// and with it the writes are timed into a local cache.)
// Every server and mount is a child of the test process, every step has a time limit, and
// cleanup() undoes all of it, also after a failed start; a lab left by a killed test run is
// removed by the next one (cleanupStaleLabs). Needs root. Debian packages: iproute2,
// openssh-server, openssh-client, sshfs, samba, smbnetfs, fuse3.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);
const PREFIX = 'ddnet';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface NetLabOptions {
  /** Shape both directions of the veth to this rate, Mbit/s (tbf); unshaped when absent. */
  rateMbit?: number;
  /** Mount the share over SFTP with sshfs (default true). */
  sshfs?: boolean;
  /** Mount the share over SMB with smbnetfs (default true). */
  smb?: boolean;
  /** The folder the servers share (a file system of its own, e.g. on a throttled loop device);
   *  default: one in the lab's folder in RAM. */
  shareDir?: string;
  /** cgroup folders (v1: blkio, memory) the servers run in: the server's disk and memory. */
  serverGroups?: readonly string[];
}

export interface NetLab {
  /** The server's namespace. */
  readonly ns: string;
  /** The veth end in the root namespace (the one DiskDial's traffic leaves by) and its address. */
  readonly hostIf: string;
  readonly hostAddr: string;
  /** The server's address, on the veth end inside the namespace. */
  readonly serverAddr: string;
  /** The folder the servers share (the namespace shares the file system, so tests can look in). */
  readonly shareDir: string;
  /** Where the SFTP share is mounted with sshfs, when asked for. */
  readonly sshfsMount?: string;
  /** The SMB share's folder (data/ in the share) under the smbnetfs mount, when asked for. */
  readonly smbMount?: string;
  /** Shapes both directions to `rateMbit` (tbf), as a different link would: a campaign's next setup. */
  shape(rateMbit: number): Promise<void>;
  /** Mounts the SFTP share once more with sshfs and extra -o options (e.g. cache=no,direct_io);
   *  cleanup() unmounts it. Needs the lab's sshfs. */
  mountSftp(options: readonly string[]): Promise<string>;
  /** Unmounts, stops the servers, deletes the namespace and the link, removes the temp folder. */
  cleanup(): Promise<void>;
}

async function run(cmd: string, args: string[], timeoutMs = 10_000): Promise<string> {
  try {
    const { stdout } = await execFileP(cmd, args, { encoding: 'utf8', timeout: timeoutMs });
    return stdout;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error(`${cmd} not found: install it (see test/helpers/netns.ts)`, { cause: err });
    throw new Error(`${cmd} ${args.join(' ')} failed: ${(e.stderr ?? '').trim() || e.message}`, { cause: err });
  }
}

const quiet = (p: Promise<unknown>): Promise<void> => p.then(() => undefined).catch(() => undefined);

function isMounted(dir: string): boolean {
  return readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .some((l) => l.split(' ')[1] === dir);
}

async function waitFor(
  what: string,
  ok: () => boolean | Promise<boolean>,
  child: ChildProcess | undefined,
  log: () => string,
  ms = 15_000,
) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited: ${log().trim() || `code ${child.exitCode}`}`);
    if (Date.now() > end) throw new Error(`${what} did not come up in ${ms / 1000} s: ${log().trim()}`);
    await sleep(50);
  }
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: 500 });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
    s.once('timeout', () => done(false));
  });
}

// Each in a process group of its own: smbd signals its whole group when it stops, and the test
// runner must not be in it.
function spawnLogged(cmd: string, args: string[], env?: NodeJS.ProcessEnv): { child: ChildProcess; log: () => string } {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...(env ? { env } : {}) });
  let text = '';
  const add = (d: Buffer) => {
    text = (text + d.toString()).slice(-4000);
  };
  child.stdout!.on('data', add);
  child.stderr!.on('data', add);
  child.on('error', (e) => add(Buffer.from(String(e))));
  return { child, log: () => text };
}

// A server in a namespace gets a private mount namespace that keeps only what it serves: `ip netns
// exec` alone copies every mount of the host, including other tests' loop and FUSE mounts, and a
// server holding such a copy pins that loop device so its test's teardown cannot detach it.
const SHED_MOUNTS = [
  'keep="$1"; shift',
  // mountinfo: mount point is field 5; after " - " come the type and the source.
  'awk \'{ split($0, p, " - "); split(p[2], t, " "); if (t[1] ~ /^fuse/ || t[2] ~ /^\\/dev\\/loop/) print $5 }\' /proc/self/mountinfo |',
  '  sort -r | while read -r m; do case "$keep/" in "$m"/*) ;; *) umount -l "$m" 2>/dev/null ;; esac; done',
  'exec "$@"',
].join('\n');

/** argv that runs `argv` inside `ns` with a private mount namespace holding none of the host's
 *  loop or FUSE mounts except the one `keep` lives on. */
export function isolatedArgv(ns: string, keep: string, argv: string[]): string[] {
  return ['ip', 'netns', 'exec', ns, 'unshare', '--mount', '--propagation', 'private', 'sh', '-c', SHED_MOUNTS, 'sh', keep, ...argv];
}

/** argv that joins each cgroup folder in `groups` (every process the server forks stays in them),
 *  then runs `argv`. */
function joined(groups: readonly string[], argv: string[]): string[] {
  if (groups.length === 0) return argv;
  const join = groups.map((g) => `echo $$ > ${path.join(g, 'cgroup.procs')}`).join(' && ');
  return ['sh', '-c', `${join} && exec "$@"`, 'sh', ...argv];
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(3000)]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(3000)]);
  }
}

async function unmount(dir: string | undefined): Promise<void> {
  if (!dir) return;
  for (let i = 0; i < 3 && isMounted(dir); i++) {
    await quiet(run('fusermount3', ['-u', '-z', dir], 5000).catch(() => run('umount', ['-l', dir], 5000)));
    if (isMounted(dir)) await sleep(100);
  }
}

/** Kills whatever still runs inside a namespace and deletes it. */
async function removeNamespace(ns: string): Promise<void> {
  const pids = (await run('ip', ['netns', 'pids', ns]).catch(() => ''))
    .split('\n')
    .map(Number)
    .filter((p) => Number.isInteger(p) && p > 0);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone already */
    }
  }
  await quiet(run('ip', ['netns', 'del', ns]));
}

/** Removes labs whose test process is gone: their mounts, servers, namespaces and folders. */
/** Where a lab keeps its share, mounts and config: RAM (/dev/shm) where there is one. A share on
 *  the CI disk measured the disk under load, not the link: with a fio job on it a 100 Mbit/s
 *  SFTP share gave 7.2 MB/s (its server's fsync waited on the disk). */
function labRoot(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
}

export async function cleanupStaleLabs(): Promise<void> {
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (const line of readFileSync('/proc/self/mounts', 'utf8').split('\n')) {
    const dir = line.split(' ')[1] ?? '';
    const m = new RegExp(`/${PREFIX}-(\\d+)-`).exec(dir);
    if (m && !alive(Number(m[1]))) await unmount(dir);
  }
  for (const line of (await run('ip', ['netns', 'list']).catch(() => '')).split('\n')) {
    const name = line.split(' ')[0] ?? '';
    const m = new RegExp(`^${PREFIX}-(\\d+)-\\d+$`).exec(name);
    if (m && !alive(Number(m[1]))) await removeNamespace(name);
  }
  for (const name of await fs.readdir(labRoot()).catch(() => [] as string[])) {
    const m = new RegExp(`^${PREFIX}-(\\d+)-`).exec(name);
    if (m && !alive(Number(m[1]))) await quiet(fs.rm(path.join(labRoot(), name), { recursive: true, force: true }));
  }
}

/** Unmounts (before and after the daemons stop: a mount can outlive its first attempt), stops the
 *  servers and clients, runs `more` (the namespace), and removes the lab's folder. */
async function undo(mounts: string[], children: ChildProcess[], base: string, more?: () => Promise<void>): Promise<void> {
  for (const m of mounts) await unmount(m);
  for (const c of children.reverse()) await stopChild(c);
  for (const m of mounts) await unmount(m);
  await more?.();
  await fs.rm(base, { recursive: true, force: true });
}

let labCount = 0;

/** A free /30 in 10.231.0.0/16: the host end is .1 of it, the server .2. */
async function freeSubnet(): Promise<[host: string, server: string]> {
  const used = await run('ip', ['-4', '-o', 'addr', 'show']);
  for (let k = (process.pid * 7 + labCount * 13) % 16_384, tries = 0; tries < 16_384; k = (k + 1) % 16_384, tries++) {
    const third = k >> 6;
    const fourth = (k & 63) * 4;
    const host = `10.231.${third}.${fourth + 1}`;
    const server = `10.231.${third}.${fourth + 2}`;
    if (!used.includes(` ${host}/`) && !used.includes(` ${server}/`)) return [host, server];
  }
  throw new Error('no free /30 in 10.231.0.0/16');
}

/** tbf on one device: `rate` Mbit/s with a 10 ms bucket (at least 64 KiB so a 64 KiB GSO packet fits). */
async function shape(ns: string | undefined, dev: string, rateMbit: number): Promise<void> {
  const burst = Math.max(65_536 + 1514, Math.round((rateMbit * 1e6) / 8 / 100));
  const args = ['qdisc', 'replace', 'dev', dev, 'root', 'tbf', 'rate', `${rateMbit}mbit`, 'burst', String(burst), 'latency', '50ms'];
  await (ns ? run('ip', ['netns', 'exec', ns, 'tc', ...args]) : run('tc', args));
}

/**
 * Starts a lab: namespace, veth pair, optional tc shaping, sshd and smbd on the server side, the
 * share mounted here over SFTP (sshfs) and SMB (rclone). Cleans up what it made when any step fails.
 */
export async function startNetLab(opts: NetLabOptions = {}): Promise<NetLab> {
  const n = labCount++;
  const ns = `${PREFIX}-${process.pid}-${n}`;
  const tag = `${(process.pid % 100_000).toString(36)}${n}`;
  const hostIf = `ddh${tag}`.slice(0, 15);
  const peerIf = `dds${tag}`.slice(0, 15);
  const base = await fs.mkdtemp(path.join(labRoot(), `${PREFIX}-${process.pid}-`));
  const shareDir = opts.shareDir ?? path.join(base, 'share');
  const groups = opts.serverGroups ?? [];
  const children: ChildProcess[] = [];
  const mounts: string[] = [];
  let nsMade = false;
  const cleanup = () =>
    undo(mounts, children, base, async () => {
      if (nsMade) await removeNamespace(ns);
      await quiet(run('ip', ['link', 'del', hostIf]));
    });
  try {
    const [hostAddr, serverAddr] = await freeSubnet();
    await run('ip', ['netns', 'add', ns]);
    nsMade = true;
    await run('ip', ['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', peerIf]);
    await run('ip', ['link', 'set', peerIf, 'netns', ns]);
    await run('ip', ['addr', 'add', `${hostAddr}/30`, 'dev', hostIf]);
    await run('ip', ['link', 'set', hostIf, 'up']);
    await run('ip', ['-n', ns, 'addr', 'add', `${serverAddr}/30`, 'dev', peerIf]);
    await run('ip', ['-n', ns, 'link', 'set', peerIf, 'up']);
    await run('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
    const reshape = async (rateMbit: number): Promise<void> => {
      await shape(undefined, hostIf, rateMbit);
      await shape(ns, peerIf, rateMbit);
    };
    if (opts.rateMbit) await reshape(opts.rateMbit);
    await fs.mkdir(path.join(shareDir, 'data'), { recursive: true });
    let extraMounts = 0;
    const mountSftp = async (options: readonly string[]): Promise<string> => {
      if (!lab.sshfsMount) throw new Error('mountSftp: the lab was started without sshfs');
      return mountSshfs(base, serverAddr, SSH_PORT, shareDir, children, mounts, `sftp-${++extraMounts}`, options);
    };
    const lab: { -readonly [K in keyof NetLab]: NetLab[K] } = {
      ns,
      hostIf,
      hostAddr,
      serverAddr,
      shareDir,
      shape: reshape,
      mountSftp,
      cleanup,
    };
    if (opts.sshfs !== false) lab.sshfsMount = await startSftp(base, ns, serverAddr, shareDir, children, mounts, SSH_PORT, groups);
    if (opts.smb !== false) lab.smbMount = await startSmb(base, ns, serverAddr, shareDir, children, mounts, groups);
    return lab;
  } catch (err) {
    await cleanup();
    throw err;
  }
}

// The namespace has ports of its own: the servers take their usual ones there.
const SSH_PORT = 22;
const SMB_PORT = 445;

/** sshd on `addr` (inside `ns`, or in this namespace when there is none) and sshfs mounting it here. */
async function startSftp(
  base: string,
  ns: string | undefined,
  addr: string,
  shareDir: string,
  children: ChildProcess[],
  mounts: string[],
  port = SSH_PORT,
  groups: readonly string[] = [],
) {
  const dir = path.join(base, 'ssh');
  await fs.mkdir(dir);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host_key')]);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'client_key')]);
  await fs.copyFile(path.join(dir, 'client_key.pub'), path.join(dir, 'authorized_keys'));
  await fs.writeFile(
    path.join(dir, 'sshd_config'),
    [
      `ListenAddress ${addr}:${port}`,
      `HostKey ${dir}/host_key`,
      `PidFile ${dir}/sshd.pid`,
      `AuthorizedKeysFile ${dir}/authorized_keys`,
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'StrictModes no',
      'UsePAM no',
      'Subsystem sftp internal-sftp',
      '',
    ].join('\n'),
  );
  await fs.mkdir('/run/sshd', { recursive: true }); // sshd's privilege-separation folder
  const sshdArgv = ['/usr/sbin/sshd', '-D', '-e', '-f', path.join(dir, 'sshd_config')];
  const argv = joined(groups, ns ? isolatedArgv(ns, shareDir, sshdArgv) : sshdArgv);
  const sshd = spawnLogged(argv[0]!, argv.slice(1));
  children.push(sshd.child);
  await waitFor('sshd', () => canConnect(addr, port), sshd.child, sshd.log);
  return mountSshfs(base, addr, port, shareDir, children, mounts, ns ? 'sftp' : 'sftp-lo');
}

/** sshfs mounting the share served on `addr`:`port` at base/<name>, with the lab's client key and
 *  any extra -o options. */
async function mountSshfs(
  base: string,
  addr: string,
  port: number,
  shareDir: string,
  children: ChildProcess[],
  mounts: string[],
  name: string,
  options: readonly string[] = [],
): Promise<string> {
  const dir = path.join(base, 'ssh');
  const mnt = path.join(base, name);
  await fs.mkdir(mnt);
  mounts.push(mnt);
  const sshfs = spawnLogged('sshfs', [
    '-f',
    '-p',
    String(port),
    '-o',
    [
      `IdentityFile=${dir}/client_key,StrictHostKeyChecking=no,UserKnownHostsFile=/dev/null,BatchMode=yes,ConnectTimeout=5`,
      ...options,
    ].join(','),
    `root@${addr}:${shareDir}`,
    mnt,
  ]);
  children.push(sshfs.child);
  await waitFor('sshfs', () => isMounted(mnt), sshfs.child, sshfs.log);
  return mnt;
}

async function startSmb(
  base: string,
  ns: string,
  addr: string,
  shareDir: string,
  children: ChildProcess[],
  mounts: string[],
  groups: readonly string[] = [],
) {
  const dir = path.join(base, 'smb');
  for (const d of ['private', 'lock', 'state', 'cache', 'pid', 'ncalrpc']) await fs.mkdir(path.join(dir, d), { recursive: true });
  const conf = path.join(dir, 'smb.conf');
  await fs.writeFile(
    conf,
    [
      '[global]',
      `  interfaces = ${addr}/30`,
      '  bind interfaces only = yes',
      `  smb ports = ${SMB_PORT}`,
      `  private dir = ${dir}/private`,
      `  lock directory = ${dir}/lock`,
      `  state directory = ${dir}/state`,
      `  cache directory = ${dir}/cache`,
      `  pid directory = ${dir}/pid`,
      `  ncalrpc dir = ${dir}/ncalrpc`,
      `  passdb backend = tdbsam:${dir}/private/passdb.tdb`,
      '  server role = standalone server',
      '  server min protocol = SMB2',
      '  map to guest = never',
      '  load printers = no',
      '  printing = bsd',
      '  printcap name = /dev/null',
      '  disable spoolss = yes',
      '  log level = 1',
      '[share]',
      `  path = ${shareDir}`,
      '  read only = no',
      '  force user = root',
      '',
    ].join('\n'),
  );
  const password = `dd-${process.pid}-pw`;
  await new Promise<void>((resolve, reject) => {
    const p = spawn('smbpasswd', ['-c', conf, '-s', '-a', 'root'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    p.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`smbpasswd failed: ${err.trim()}`))));
    p.stdin!.end(`${password}\n${password}\n`);
  });
  const smbArgv = joined(groups, isolatedArgv(ns, shareDir, ['smbd', '--foreground', '--no-process-group', '--debug-stdout', '-s', conf]));
  const smbd = spawnLogged(smbArgv[0]!, smbArgv.slice(1));
  children.push(smbd.child);
  await waitFor('smbd', () => canConnect(addr, SMB_PORT), smbd.child, smbd.log);
  // smbnetfs (libsmbclient through FUSE) reads ~/.smb: a home of its own keeps the user's out.
  const home = path.join(dir, 'client-home');
  await fs.mkdir(path.join(home, '.smb'), { recursive: true });
  await fs.writeFile(path.join(home, '.smb/smb.conf'), '[global]\n  client min protocol = SMB2\n');
  await fs.writeFile(
    path.join(home, '.smb/smbnetfs.conf'),
    `smb_query_browsers false\nshow_hidden_hosts true\nauth "${addr}" "root" "${password}"\n`,
  );
  await fs.chmod(path.join(home, '.smb/smbnetfs.conf'), 0o600);
  const mnt = path.join(base, 'smb-mnt');
  await fs.mkdir(mnt);
  mounts.push(mnt);
  // smbnetfs reports free space only as told (free_space_size, in 4 KiB pages: 8 GiB here).
  const client = spawnLogged('smbnetfs', [mnt, '-f', '-o', 'smb_timeout=10000,free_space_size=2097152'], { ...process.env, HOME: home });
  children.push(client.child);
  await waitFor('smbnetfs', () => isMounted(mnt), client.child, client.log);
  // smbnetfs shows every server as a folder and its shares inside: the share is reached by path.
  const folder = path.join(mnt, addr, 'share', 'data');
  await waitFor('the SMB share', () => existsSync(folder), client.child, client.log);
  return folder;
}

/** Every file and folder under `dir`, relative to it, sorted (what a test left on a share). */
export async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const rel = path.relative(dir, path.join(d, e.name));
      out.push(rel);
      if (e.isDirectory()) await walk(path.join(d, e.name));
    }
  };
  if (existsSync(dir)) await walk(dir);
  return out.sort();
}

/** A free TCP port on 127.0.0.1 (the kernel picks it; sshd takes it a moment later). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface LoopbackShare {
  /** Where the share is mounted with sshfs (server 127.0.0.1, interface lo). */
  readonly mount: string;
  readonly shareDir: string;
  cleanup(): Promise<void>;
}

/** sshd on 127.0.0.1 (a free port) in this namespace, its folder mounted here with sshfs: a share
 *  whose route is the loopback interface. */
export async function startLoopbackSftp(): Promise<LoopbackShare> {
  const base = await fs.mkdtemp(path.join(labRoot(), `${PREFIX}-${process.pid}-`));
  const shareDir = path.join(base, 'share');
  const children: ChildProcess[] = [];
  const mounts: string[] = [];
  const cleanup = () => undo(mounts, children, base);
  try {
    await fs.mkdir(shareDir);
    const mount = await startSftp(base, undefined, '127.0.0.1', shareDir, children, mounts, await freeLoopbackPort());
    return { mount, shareDir, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
