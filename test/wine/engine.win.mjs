// The Windows engine under Wine, through the app's own wrapper (dist/core/engine.js) exactly as
// the CLI loads it: run by node.exe from scripts/wine-tests.mjs, which builds the addon, makes the
// folders below and checks afterwards that nothing was left in them. Wine makes no disk uncached:
// these tests prove the Windows code's logic (alignment, error mapping, cancel, flush, CNG
// digests), not its speed.
//
// Env (Windows paths): DD_PKG the package root holding dist/ and the Windows diskdial.node;
// DD_Z_DIR a folder on Z:, DD_C_DIR one on C:, DD_FULL_DIR one on a small full-able drive,
// DD_RO_DIR a read-only folder, DD_HASH_DIR the hash fixtures with expected.json.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

const env = (name) => {
  const v = process.env[name];
  assert.ok(v, `${name} is not set (run this through scripts/wine-tests.mjs)`);
  return v;
};
const pkg = env('DD_PKG');
const engine = await import(pathToFileURL(path.join(pkg, 'dist/core/engine.js')).href);
const { toPlainError } = await import(pathToFileURL(path.join(pkg, 'dist/model/errors.js')).href);

const MiB = 1 << 20;
const spec = (dir, rw, bs, qd, extra = {}) => ({
  path: path.join(dir, `t-${rw}-${bs}-q${qd}.dat`),
  rw,
  bs,
  qd,
  threads: 1,
  fileSize: 8 * MiB,
  pattern: 'random',
  cache: 'auto',
  progressIntervalMs: 20,
  ...extra,
});

/** Runs a test and checks what every run must leave behind: nothing. */
async function run(s, opts) {
  try {
    return await engine.runTest(s, opts);
  } finally {
    assert.equal(existsSync(s.path), false, `${s.path} was left behind`);
  }
}

async function rejectsWith(promise, code, words) {
  const err = await promise.then(
    () => assert.fail(`expected ${code}, the test succeeded`),
    (e) => e,
  );
  assert.equal(err.code, code, `expected ${code}, got ${err.code}: ${err.message}`);
  if (words) assert.match(toPlainError(err, { path: process.env.DD_FULL_DIR }).message, words);
  return err;
}

test('the addon loads under node.exe and hashes with CNG', () => {
  assert.equal(process.platform, 'win32');
  assert.match(engine.engineVersion(), /^\d+\.\d+\.\d+$/);
  assert.equal(engine.cryptoProvider(), 'Windows CNG (BCrypt)');
});

for (const [drive, dir] of [
  ['Z:', env('DD_Z_DIR')],
  ['C:', env('DD_C_DIR')],
]) {
  test(`${drive} the alignment is the volume's sector size`, () => {
    assert.match(dir, new RegExp(`^${drive}\\\\`, 'i'));
    const a = engine.ioAlignment(dir);
    assert.equal(a.source, 'sector size');
    assert.ok(a.offset >= 512 && (a.offset & (a.offset - 1)) === 0, `offset ${a.offset}`);
  });

  for (const [rw, bs] of [
    ['write', MiB],
    ['read', MiB],
    ['randwrite', 4096],
    ['randread', 4096],
  ]) {
    for (const qd of [1, 32]) {
      test(`${drive} ${rw} ${bs / 1024} KiB QD${qd}: uncached, aligned, every byte accounted`, async () => {
        const bytes = rw.startsWith('rand') ? 2 * MiB : 8 * MiB;
        const phases = new Set();
        const r = await run(spec(dir, rw, bs, qd, { bytes }), { onProgress: (p) => phases.add(p.phase) });
        assert.equal(r.cancelled, false);
        assert.equal(r.cacheMode, 'direct', r.cacheNote);
        assert.equal(r.alignment % 512, 0);
        assert.equal(r.bytes, bytes);
        assert.equal(r.ios, bytes / bs);
        assert.equal(r.ioEngine, qd === 1 ? 'sync' : 'threads');
        assert.ok(r.mbps > 0 && r.iops > 0 && r.latencyUs.p50 > 0);
        if (rw.includes('write')) {
          // The flush ends every write, inside the timed region.
          assert.ok(phases.has('flush'), [...phases].join());
          assert.ok(r.flushSeconds > 0 && r.flushSeconds < r.seconds);
          assert.equal(r.bytesWritten, bytes);
        } else {
          assert.ok(phases.has('prepare'), 'a read test lays its file out first');
          assert.equal(r.bytesRead, bytes);
        }
      });
    }
  }

  test(`${drive} a one-sector block is still uncached`, async () => {
    // The engine accepts blocks in 512 B steps; the platform test covers a block that is not a
    // sector multiple (it falls back to buffered, and says so).
    const r = await run(spec(dir, 'randwrite', 512, 1, { bytes: 256 * 1024, fileSize: MiB }));
    assert.equal(r.cacheMode, 'direct', r.cacheNote);
    assert.equal(r.ios, 512);
  });
}

// The contract is a quarter second; under Wine on a shared 2-core CI machine a wineserver round
// trip can take longer than on Windows, so the bound here is looser: it proves the stop, not its speed.
test('cancel mid-test stops promptly and removes the file', async () => {
  const dir = env('DD_Z_DIR');
  const ac = new AbortController();
  let abortedAt = 0;
  const s = spec(dir, 'write', MiB, 4, { fileSize: 64 * MiB, seconds: 30 });
  const p = run(s, {
    signal: ac.signal,
    onProgress: (pr) => {
      if (pr.phase === 'run' && pr.bytesDone > 0 && !abortedAt) {
        abortedAt = performance.now();
        ac.abort();
      }
    },
  });
  const err = await p.then(
    () => assert.fail('a cancelled test must reject'),
    (e) => e,
  );
  assert.equal(err.name, 'AbortError');
  assert.ok(abortedAt > 0, 'never reached the run phase');
  const took = performance.now() - abortedAt;
  assert.ok(took < 1000, `stopped ${took.toFixed(0)} ms after the abort`);
});

test('a full drive is ENOSPC in plain words, and the file is removed', async () => {
  const dir = env('DD_FULL_DIR');
  const err = await rejectsWith(run(spec(dir, 'write', MiB, 4, { fileSize: 64 * MiB })), 'ENOSPC', /ran out of free space/);
  assert.match(err.message, /no space left on device/);
  // A read test lays its file out first: it fills the drive the same way.
  await rejectsWith(run(spec(dir, 'read', MiB, 1, { fileSize: 64 * MiB })), 'ENOSPC', /ran out of free space/);
});

// Windows says ERROR_ACCESS_DENIED for a folder it may not write to (ERROR_WRITE_PROTECT is for
// write-protected media); Wine says the same for a read-only mount.
test('a read-only folder is refused as access denied, in plain words', async () => {
  const dir = env('DD_RO_DIR');
  const err = await rejectsWith(run(spec(dir, 'write', MiB, 1)), 'EACCES');
  assert.match(toPlainError(err, { path: dir }).message, /^Permission denied writing to .*ro\. Choose a folder you can write to/);
  assert.equal(err.syscall, 'CreateFileW');
});

test('a missing folder is ENOENT', async () => {
  const dir = path.join(env('DD_Z_DIR'), 'no such folder');
  const err = await rejectsWith(run(spec(dir, 'write', MiB, 1)), 'ENOENT');
  assert.match(toPlainError(err, { path: dir }).message, /^No such folder: .*no such folder\. Check the path/);
});

// ---- hashing ---------------------------------------------------------------------------------

const hashDir = env('DD_HASH_DIR');
const expected = JSON.parse(readFileSync(path.join(hashDir, 'expected.json'), 'utf8'));

for (const [name, digests] of Object.entries(expected)) {
  for (const algo of ['sha256', 'sha512']) {
    test(`CNG ${algo} of ${name} equals ${algo}sum`, async () => {
      const file = path.join(hashDir, name);
      const r = await engine.runHash({ mode: 'read-hash', algo, path: file });
      assert.equal(r.provider, 'Windows CNG (BCrypt)');
      assert.equal(r.digest, digests[algo]);
      assert.equal(r.bytes, digests.size);
      assert.equal(r.cacheMode, 'direct', r.cacheNote);
    });
  }
}

test('hash: read mode streams the whole file; memory mode hashes for its time', async () => {
  const [name, { size }] = Object.entries(expected).find(([, d]) => d.size > MiB && d.size < 64 * MiB);
  const read = await engine.runHash({ mode: 'read', algo: 'sha256', path: path.join(hashDir, name) });
  assert.equal(read.bytes, size);
  const mem = await engine.runHash({ mode: 'memory', algo: 'sha512', seconds: 0.3, threads: 2 });
  assert.ok(mem.bytes > 0 && mem.mbps > 0 && mem.threads === 2);
});

test('hash: a folder and a missing file are refused in plain words', async () => {
  const folder = await rejectsWith(engine.runHash({ mode: 'read-hash', algo: 'sha256', path: hashDir }), 'EISDIR');
  assert.match(folder.message, /is a folder, not a file/);
  await rejectsWith(engine.runHash({ mode: 'read-hash', algo: 'sha256', path: path.join(hashDir, 'missing.bin') }), 'ENOENT');
});

test('nothing is left in the test folders', () => {
  for (const dir of [env('DD_Z_DIR'), env('DD_C_DIR'), env('DD_FULL_DIR')]) {
    assert.deepEqual(
      readdirSync(dir).filter((f) => f !== 'lost+found'),
      [],
      `${dir} is not empty`,
    );
  }
});
