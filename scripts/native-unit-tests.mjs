#!/usr/bin/env node
// Builds and runs the engine's C++ unit tests (GoogleTest) without Node or N-API: native/test/*.cc
// + native/src/engine/*.cc + this OS's platform files, linked with the libraries (-lcrypto) that
// native/binding.gyp lists for Linux, in Debug with ASan and UBSan; any sanitizer report fails the run. Objects are cached in
// native/build/unit/ and rebuilt when a source or a header it includes changes.
//
// Usage: node scripts/native-unit-tests.mjs [gtest flags, e.g. --gtest_filter=Histogram.*]
// Env:   DD_NATIVE_TEST_DIR (default native/test), DD_BINDING_GYP (default native/binding.gyp),
//        CXX (default g++), DD_NO_CCACHE=1 (compile without ccache even where it is installed).
// With ccache on PATH, a fresh clone (CI's) reuses the objects of earlier runs: ccache keys them by
// the preprocessed source and the flags, so a changed header or flag still recompiles.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (p) => path.relative(root, p) || '.';
const testDir = path.resolve(root, process.env.DD_NATIVE_TEST_DIR ?? 'native/test');
const srcDir = path.join(root, 'native/src');
const outDir = path.join(root, 'native/build/unit');
const objDir = path.join(outDir, 'obj');
const binary = path.join(outDir, 'engine-tests');
const cxx = process.env.CXX ?? 'g++';
const gypFile = path.resolve(root, process.env.DD_BINDING_GYP ?? 'native/binding.gyp');

const CXXFLAGS = [
  '-std=c++17',
  '-O1',
  '-g',
  '-Wall',
  '-Wextra',
  '-Werror',
  '-Wno-unused-parameter',
  '-DDD_DEBUG=1',
  '-fsanitize=address,undefined',
  '-fno-omit-frame-pointer',
  '-pthread',
  '-I',
  srcDir,
];

function fail(message) {
  console.error(`native-unit-tests: ${message}`);
  process.exit(1);
}

const ccFiles = (dir) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.cc'))
        .sort()
        .map((f) => path.join(dir, f))
    : [];

// ---- sources --------------------------------------------------------------------------------

const tests = ccFiles(testDir);
if (tests.length === 0) {
  fail(`no C++ tests found: ${rel(testDir)}/*.cc does not exist yet. Add GoogleTest files there.`);
}

/**
 * What binding.gyp builds on Linux: the files under src/platform/ and the libraries to link
 * (-pthread, -lcrypto); posix.cc + linux.cc + crypto_linux.cc and -lcrypto if it cannot be read.
 */
function linuxBuild() {
  const script = `
import ast, json, sys
doc = ast.literal_eval(open(sys.argv[1]).read())
t = doc["targets"][0]
out = list(t.get("sources", []))
libs = list(t.get("libraries", []))
for cond in t.get("conditions", []):
    branch = cond[1] if eval(cond[0], {"__builtins__": {}}, {"OS": "linux"}) else (cond[2] if len(cond) > 2 else {})
    out += branch.get("sources", [])
    libs += branch.get("libraries", [])
print(json.dumps({"sources": out, "libraries": libs}))`;
  const r = spawnSync('python3', ['-c', script, gypFile], { encoding: 'utf8' });
  let listed = { sources: ['src/platform/posix.cc', 'src/platform/linux.cc', 'src/platform/crypto_linux.cc'], libraries: ['-lcrypto'] };
  if (r.status === 0) listed = JSON.parse(r.stdout);
  else console.warn(`native-unit-tests: could not read ${rel(gypFile)} (${r.stderr.trim()}); using ${listed.sources.join(', ')}`);
  const files = listed.sources
    .map((s) => path.join(root, 'native', s))
    .filter((f) => f.startsWith(path.join(srcDir, 'platform') + path.sep));
  for (const f of files.filter((x) => !existsSync(x))) console.warn(`native-unit-tests: note: ${rel(f)} does not exist yet`);
  return { files: files.filter((x) => existsSync(x)), libraries: listed.libraries.filter((l) => l !== '-pthread') };
}

const linux = process.platform === 'linux' ? linuxBuild() : { files: [], libraries: [] };
const platform = linux.files;
const sources = [...tests, ...ccFiles(path.join(srcDir, 'engine')), ...platform];

// ---- GoogleTest -----------------------------------------------------------------------------

function multiarch() {
  const r = spawnSync(cxx, ['-print-multiarch'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

/** libgtest.a and libgtest_main.a: the distro's, or built once from /usr/src/googletest. */
function gtestLibs() {
  const dirs = [`/usr/lib/${multiarch()}`, '/usr/lib', '/usr/local/lib', '/usr/lib64'];
  for (const d of dirs) {
    const lib = path.join(d, 'libgtest.a');
    const main = path.join(d, 'libgtest_main.a');
    if (existsSync(lib) && existsSync(main)) return { libs: [main, lib], includes: [] };
  }
  const src = '/usr/src/googletest/googletest';
  if (!existsSync(path.join(src, 'src/gtest-all.cc'))) {
    fail('GoogleTest not found: install it (Debian: apt-get install libgtest-dev)');
  }
  const dir = path.join(outDir, 'gtest');
  const lib = path.join(dir, 'libgtest.a');
  const main = path.join(dir, 'libgtest_main.a');
  if (!existsSync(lib) || !existsSync(main)) {
    console.log(`native-unit-tests: building GoogleTest from ${src}`);
    mkdirSync(dir, { recursive: true });
    for (const [name, archive] of [
      ['gtest-all', lib],
      ['gtest_main', main],
    ]) {
      const obj = path.join(dir, `${name}.o`);
      const cc = spawnSync(
        cxx,
        [
          '-std=c++17',
          '-O1',
          '-g',
          '-pthread',
          '-isystem',
          path.join(src, 'include'),
          '-I',
          src,
          '-c',
          path.join(src, 'src', `${name}.cc`),
          '-o',
          obj,
        ],
        { stdio: 'inherit' },
      );
      if (cc.status !== 0) fail(`building GoogleTest (${name}.cc) failed`);
      const ar = spawnSync('ar', ['rcs', archive, obj], { stdio: 'inherit' });
      if (ar.status !== 0) fail(`ar for ${archive} failed`);
    }
  }
  return { libs: [main, lib], includes: ['-isystem', path.join(src, 'include')] };
}

const gtest = gtestLibs();

// ---- compile (incremental, parallel) ---------------------------------------------------------

const flagsStamp = JSON.stringify([cxx, ...CXXFLAGS, ...gtest.includes]);
const objectFor = (src) => path.join(objDir, rel(src).replace(/[\\/]/g, '__').replace(/\.cc$/, '.o'));
const mtime = (p) => {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return -1;
  }
};

/** Up to date when the object is newer than the source, every header in its .d file, and the flags. */
function upToDate(src, obj) {
  const objTime = mtime(obj);
  if (objTime < 0) return false;
  const stamp = `${obj}.flags`;
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== flagsStamp) return false;
  let deps;
  try {
    deps = readFileSync(`${obj}.d`, 'utf8').replace(/\\\n/g, ' ').split(/:\s/)[1]?.trim().split(/\s+/) ?? [src];
  } catch {
    return false;
  }
  return deps.every((d) => {
    const t = mtime(d);
    return t >= 0 && t <= objTime;
  });
}

const ccache =
  process.env.DD_NO_CCACHE === '1' ? null : spawnSync('ccache', ['--version'], { stdio: 'ignore' }).status === 0 ? 'ccache' : null;

function compile(src, obj) {
  const args = [...CXXFLAGS, ...gtest.includes, '-MMD', '-MF', `${obj}.d`, '-c', src, '-o', obj];
  return new Promise((resolve) => {
    const child = ccache ? spawn(ccache, [cxx, ...args], { cwd: root }) : spawn(cxx, args, { cwd: root });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (err) => resolve({ ok: false, output: `${cxx}: ${err.message}` }));
    child.on('close', (code) => resolve({ ok: code === 0, output }));
  });
}

mkdirSync(objDir, { recursive: true });
const work = sources.map((src) => ({ src, obj: objectFor(src) })).filter(({ src, obj }) => !upToDate(src, obj));
console.log(
  `native-unit-tests: ${tests.length} test files, ${sources.length - tests.length} engine/platform files; ` +
    `compiling ${work.length} (${ccache ? `ccache ${cxx}` : cxx}, ASan+UBSan)`,
);

let failed = null;
const queue = [...work];
const jobs = Math.max(1, Math.min(queue.length, os.availableParallelism?.() ?? os.cpus().length));
await Promise.all(
  Array.from({ length: jobs }, async () => {
    for (let item = queue.shift(); item && !failed; item = queue.shift()) {
      const r = await compile(item.src, item.obj);
      if (!r.ok) {
        rmSync(item.obj, { force: true });
        failed ??= { src: item.src, output: r.output };
      } else {
        writeFileSync(`${item.obj}.flags`, flagsStamp);
        if (r.output.trim()) process.stdout.write(r.output);
      }
    }
  }),
);
if (failed) {
  process.stderr.write(failed.output);
  fail(`compiling ${rel(failed.src)} failed`);
}

// ---- link and run ---------------------------------------------------------------------------

const objects = sources.map(objectFor);
const link = spawnSync(cxx, ['-fsanitize=address,undefined', '-pthread', ...objects, ...gtest.libs, ...linux.libraries, '-o', binary], {
  stdio: 'inherit',
});
if (link.status !== 0) fail('linking the test binary failed');

const env = {
  ...process.env,
  // Any sanitizer finding fails the run (UBSan only prints by default).
  ASAN_OPTIONS: process.env.ASAN_OPTIONS ?? 'detect_leaks=1:abort_on_error=0:strict_string_checks=1',
  UBSAN_OPTIONS: process.env.UBSAN_OPTIONS ?? 'print_stacktrace=1:halt_on_error=1',
};
console.log(`native-unit-tests: running ${rel(binary)}`);
const run = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit', env, cwd: root });
if (run.error) fail(`could not run ${rel(binary)}: ${run.error.message}`);
if (run.signal) fail(`${rel(binary)} was killed by ${run.signal}`);
process.exit(run.status ?? 1);
