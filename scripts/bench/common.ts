// What the benchmarks share: cleanup on Ctrl-C (children stopped, the bench folder removed), the
// argv loop, host and file-system facts, fio's presence, child processes, the engine call with
// the facts it reports, and plain-text tables. The method is in docs/benchmarks.md.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AbortError, engineVersion, runTest } from '../../app/src/core/engine.js';
import type { EngineProgress, EngineResult, EngineSpec } from '../../app/src/model/engine-types.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MiB = 1 << 20;
export const GiB = 1 << 30;

// ---------------------------------------------------------------------------------------------
// Cleanup and interruption

export const abort = new AbortController();
export const children = new Set<ChildProcess>();
let benchDir: string | undefined;
let interrupted = false;

/** A fresh folder inside `parent`, removed on exit and on Ctrl-C (the handlers are set here, so
 *  a script that only borrows a helper keeps its own). */
export function makeBenchDir(parent: string): string {
  benchDir = mkdtempSync(path.join(parent, 'diskdial-bench-'));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', removeBenchDir);
  return benchDir;
}

function removeBenchDir(): void {
  if (!benchDir) return;
  try {
    rmSync(benchDir, { recursive: true, force: true });
  } catch (err) {
    process.stderr.write(`bench: could not remove ${benchDir}: ${String(err)}\n`);
  }
  benchDir = undefined;
}

function onSignal(sig: NodeJS.Signals): void {
  if (interrupted) {
    // Second Ctrl-C: do not wait for anything.
    for (const c of children) c.kill('SIGKILL');
    removeBenchDir();
    process.exit(130);
  }
  interrupted = true;
  process.stderr.write(`\nbench: ${sig}, stopping and cleaning up (again to force)...\n`);
  abort.abort(new Error(sig));
  for (const c of children) c.kill('SIGTERM');
}
export function checkAbort(): void {
  if (abort.signal.aborted) throw new AbortError();
}

/** Runs `main` and sets the exit code: 130 when interrupted, 1 with the stack on an error. Waits
 *  for the children it told to stop, so none still holds files in the folder it then removes. */
export async function runMain(main: () => Promise<number>): Promise<void> {
  let code: number;
  try {
    code = await main();
  } catch (err) {
    if (interrupted) {
      code = 130;
    } else {
      process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      code = 1;
    }
  } finally {
    await Promise.all(
      [...children].map(
        (c) => new Promise<void>((res) => (c.exitCode !== null || c.signalCode !== null ? res() : c.once('close', () => res()))),
      ),
    );
    removeBenchDir();
  }
  process.exitCode = code;
}

// ---------------------------------------------------------------------------------------------
// Options

export interface CommonOptions {
  dir: string;
  json: boolean;
  /** --quick-check (undocumented): lets a smoke run use 1 round. */
  quick: boolean;
}

/** A bench's own flags, by what they do to its options object: set a number, set a size (parsed
 *  by `size`), turn a default-on part off, or anything else (`custom`). */
export interface OwnFlags<T> {
  numbers?: Record<string, keyof T>;
  sizes?: Record<string, keyof T>;
  off?: Record<string, keyof T>;
  size?: (text: string, flag: string) => number;
  custom?: Record<string, (value: string) => void>;
}

function ownFlag<T>(opts: T, flags: OwnFlags<T>, flag: string, value: () => string): boolean {
  const set = (key: keyof T, v: unknown): void => void ((opts as Record<keyof T, unknown>)[key] = v);
  const { numbers = {}, sizes = {}, off = {}, custom = {} } = flags;
  if (flag in numbers) set(numbers[flag]!, Number(value()));
  else if (flag in sizes && flags.size) set(sizes[flag]!, flags.size(value(), flag));
  else if (flag in off) set(off[flag]!, false);
  else if (flag in custom) custom[flag]!(value());
  else return false;
  return true;
}

/** The argv loop: `--flag value` or `--flag=value`; --dir, --json, --quick-check and --help are
 *  handled here, every other flag sets `opts` as `flags` says (anything else: unknown). */
export function parseArgv<T>(argv: string[], help: string, opts: T, flags: OwnFlags<T>): CommonOptions {
  const o: CommonOptions = { dir: os.tmpdir(), json: false, quick: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--dir') o.dir = value();
    else if (flag === '--json') o.json = true;
    else if (flag === '--quick-check') o.quick = true;
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write(`${help}\n`);
      process.exit(0);
    } else if (!ownFlag(opts, flags, flag, value)) throw new Error(`unknown option ${a}\n${help}`);
  }
  return o;
}

// ---------------------------------------------------------------------------------------------
// Numbers and text

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return NaN;
  return n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
};
/** (max - min) / median, in %. */
export const spreadPct = (xs: readonly number[]): number => ((Math.max(...xs) - Math.min(...xs)) / median(xs)) * 100;
export const fInt = (x: number): string => (Number.isFinite(x) ? Math.round(x).toString() : '-');
export const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '-');
export const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '-');
export const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '-');

/** Progress lines go to stderr so `--json` keeps stdout clean. */
export const log = (s: string): void => {
  process.stderr.write(`${s}\n`);
};

/** The report's lines: stdout, or stderr beside `--json` (the document then owns stdout). */
export const reportOut =
  (json: boolean) =>
  (s: string): void =>
    void (json ? process.stderr : process.stdout).write(`${s}\n`);

/** One round of the engine against `openssl speed`, each in MB/s, logged. The order alternates
 *  with the round so that neither side always runs on the CPU the other has just warmed. */
export async function versusOpenssl(
  algo: string,
  round: number,
  engine: () => Promise<number>,
  openssl: () => number,
): Promise<{ eng: number; ssl: number }> {
  let eng: number;
  let ssl: number;
  if (round % 2) {
    eng = await engine();
    ssl = openssl();
  } else {
    ssl = openssl();
    eng = await engine();
  }
  log(`  ${algo} round ${round}: engine ${f1(eng)} MB/s, openssl ${f1(ssl)} MB/s, ratio ${f3(eng / ssl)}`);
  return { eng, ssl };
}

/** A plain-text table; `head2` is an optional second header line. */
export function table(head: string[], rows: string[][], right: boolean[] = [], head2?: string[]): string {
  const heads = head2 ? [head, head2] : [head];
  const w = head.map((_, i) => Math.max(...heads.map((h) => (h[i] ?? '').length), ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (right[i] ? c.padStart(w[i]!) : c.padEnd(w[i]!)))
      .join('  ')
      .trimEnd();
  return [...heads.map(line), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------
// The machine

export interface FsInfo {
  type: string;
  device: string;
  mountPoint: string;
  options: string;
  devNumber: string;
}

function unescapeMount(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

/** The /proc/self/mounts entry holding `dir` (the longest matching mount point; the last one wins). */
export function fsInfo(dir: string): FsInfo {
  const real = realpathSync(dir);
  let best: FsInfo | undefined;
  for (const line of readFileSync('/proc/self/mounts', 'utf8').split('\n')) {
    const [dev, mnt, type, options] = line.split(' ');
    if (!dev || !mnt || !type) continue;
    const mp = unescapeMount(mnt);
    const inside = mp === '/' || real === mp || real.startsWith(`${mp}/`);
    if (inside && (!best || mp.length >= best.mountPoint.length)) {
      best = { type, device: unescapeMount(dev), mountPoint: mp, options: options ?? '', devNumber: '' };
    }
  }
  const st = statSync(real);
  const major = Math.floor(st.dev / 256) & 0xfff; // Linux dev_t: major in bits 8-19, minor in 0-7 and 20-31
  const minor = (st.dev & 0xff) | ((st.dev >> 12) & 0xfff00);
  const info = best ?? { type: 'unknown', device: 'unknown', mountPoint: '?', options: '', devNumber: '' };
  info.devNumber = `${major}:${minor}`;
  return info;
}

export function hostFacts(): { cpu: string; cores: number; kernel: string; ramBytes: number; os: string } {
  let osName = process.platform as string;
  try {
    osName = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? osName;
  } catch {
    /* not Linux */
  }
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.cpus().length,
    kernel: `${os.type()} ${os.release()}`,
    ramBytes: os.totalmem(),
    os: osName,
  };
}

export function fioVersion(): string {
  const r = spawnSync('fio', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) throw new Error('fio is not installed (Debian: apt-get install fio)');
  return r.stdout.trim();
}

// ---------------------------------------------------------------------------------------------
// Running the tools

/** Runs a child process to completion, registered for Ctrl-C. */
export function runChild(
  cmd: string,
  args: string[],
  onSpawn?: (c: ChildProcess) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const c = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(c);
    let stdout = '';
    let stderr = '';
    c.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    c.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    c.on('error', (err) => {
      children.delete(c);
      reject(err);
    });
    c.on('close', (code, signal) => {
      children.delete(c);
      resolve({ code, signal, stdout, stderr });
    });
    onSpawn?.(c);
  });
}

/** What the engine said about itself over the run (cache modes, I/O engines, notes). */
/** One direction of one fio job in its JSON output (bytes, bytes/s, ms). */
export interface FioDir {
  io_bytes: number;
  bw_bytes: number;
  iops: number;
  runtime: number;
}

export interface FioJob {
  error: number;
  job_runtime: number;
  read: FioDir;
  write: FioDir;
}

/** Runs fio (its args ask for --output-format=json) over `files`, which it must leave as they were:
 *  a file it re-created or resized would be a fresh file, not the one measured against the engine.
 *  Its warnings are kept for the report; `wallSeconds` is the fio process's own run. */
export async function runFioJobs(args: string[], files: readonly string[]): Promise<{ jobs: FioJob[]; wallSeconds: number }> {
  checkAbort();
  const before = files.map((f) => statSync(f));
  const t0 = performance.now();
  const r = await runChild('fio', args);
  const wallSeconds = (performance.now() - t0) / 1000;
  checkAbort();
  if (r.code !== 0) throw new Error(`fio failed (${r.code ?? r.signal}): ${r.stderr.trim() || r.stdout.slice(0, 500)}`);
  files.forEach((f, k) => {
    const [was, now] = [before[k]!, statSync(f)];
    if (now.ino !== was.ino || now.size !== was.size)
      throw new Error(`fio re-created or resized ${path.basename(f)} (inode ${was.ino}->${now.ino}, size ${was.size}->${now.size})`);
  });
  if (r.stderr.trim()) fioWarnings.add(r.stderr.trim());
  const doc = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { jobs: FioJob[] };
  if (!doc.jobs.length) throw new Error('fio printed no job');
  for (const job of doc.jobs) if (job.error) throw new Error(`fio job error ${job.error}`);
  return { jobs: doc.jobs, wallSeconds };
}

export const engineInfo = { cacheModes: new Set<string>(), ioEngines: new Set<string>(), notes: new Set<string>() };
/** What fio wrote on stderr, once each. */
const fioWarnings = new Set<string>();

export async function runEngine(spec: EngineSpec, onProgress?: (p: EngineProgress) => void): Promise<EngineResult> {
  checkAbort();
  const r = await runTest(spec, onProgress ? { signal: abort.signal, onProgress } : { signal: abort.signal });
  engineInfo.cacheModes.add(r.cacheMode);
  engineInfo.ioEngines.add(`${r.ioEngine} (qd ${r.qd})`);
  if (r.cacheNote) engineInfo.notes.add(r.cacheNote);
  if (r.cancelled) throw new AbortError();
  return r;
}

/** The engine spec that lays a test file out once: SEQ1M Q8T1 write of random data, kept. */
export function layoutSpec(file: string, size: number): EngineSpec {
  return { path: file, rw: 'write', bs: MiB, qd: 8, threads: 1, fileSize: size, pattern: 'random', cache: 'auto', keepFile: true };
}

// ---------------------------------------------------------------------------------------------
// The report's frame

export interface Machine {
  started: Date;
  fioVersion: string;
  engineVersion: string;
  host: ReturnType<typeof hostFacts>;
}

/** The tools' versions and the host, checked before anything is written (fio missing, --dir wrong). */
export function machine(dir: string): Machine {
  const started = new Date();
  const fio = fioVersion();
  const engine = engineVersion();
  const host = hostFacts();
  if (!existsSync(dir)) throw new Error(`--dir ${dir} does not exist`);
  return { started, fioVersion: fio, engineVersion: engine, host };
}

/** The header's lines every benchmark prints after its title: date, host, tools, folder, fs. */
export function headerLines(m: Machine, dir: string, fs: FsInfo): string[] {
  return [
    `  date       ${m.started.toISOString()}`,
    `  host       ${m.host.cpu}, ${m.host.cores} cores, ${(m.host.ramBytes / GiB).toFixed(1)} GiB RAM, ${m.host.os}`,
    `  kernel     ${m.host.kernel}`,
    `  node       ${process.version}`,
    `  fio        ${m.fioVersion} (libaio, direct=1)`,
    `  engine     ${m.engineVersion}`,
    `  folder     ${dir}`,
    `  fs         ${fs.type} on ${fs.device} (dev ${fs.devNumber}), mounted at ${fs.mountPoint} (${fs.options})`,
  ];
}

/** The --json document's common fields. */
export function docHead(benchmark: string, m: Machine, dir: string, fs: FsInfo): Record<string, unknown> {
  return {
    benchmark,
    date: m.started.toISOString(),
    host: { ...m.host, node: process.version },
    fioVersion: m.fioVersion,
    engineVersion: m.engineVersion,
    fs: { ...fs, dir },
  };
}

/** What fio printed on stderr over the run (warnings), as report lines. */
export function fioSaidLines(): string[] {
  return fioWarnings.size ? [`fio said: ${[...fioWarnings].join(' | ')}`] : [];
}

/** What the engine said about itself over the run, as report lines. */
export function engineLines(): string[] {
  return [
    `engine: cache mode ${[...engineInfo.cacheModes].join(', ')}; I/O ${[...engineInfo.ioEngines].join(', ')}`,
    ...(engineInfo.notes.size ? [`engine notes: ${[...engineInfo.notes].join('; ')}`] : []),
  ];
}

/** The closing line, and the document on stdout under --json. */
export function finish(doc: Record<string, unknown>, t0: number, out: (s: string) => void, json: boolean): number {
  const secs = (performance.now() - t0) / 1000;
  doc.durationSeconds = secs;
  out(`total ${f1(secs)} s`);
  if (json) process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  return 0;
}
