// `diskdial check` as a user runs it: the built CLI in a child process, on real files, against
// the real coreutils (sha256sum -c, md5sum) and Perl's shasum.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fsp, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { bin, runCli } from '../../helpers/cli.js';
import { CheckSectionSchema, type CheckSection } from '../../../app/src/model/check.js';
import { makeFileTree, type FileTree } from '../../../scripts/bench/file-tree.js';

let tmp: string;
let home: string;

beforeAll(async () => {
  buildCoreIfChanged();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-check-'));
  home = path.join(tmp, 'home');
}, 300_000);
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

function check(...args: string[]): { status: number | null; stdout: string; stderr: string; section?: CheckSection } {
  const r = runCli(['check', ...args], { cwd: tmp, home, timeout: 300_000 });
  const json = args.includes('--json') && r.stdout.trim().startsWith('{');
  return { ...r, ...(json ? { section: CheckSectionSchema.parse((JSON.parse(r.stdout) as { check: unknown }).check) } : {}) };
}

/** sha256sum -c (or md5sum -c …) run in `dir`, as a user checks a manifest. */
function coreutilsCheck(tool: string, dir: string, manifest: string): { status: number | null; out: string } {
  const r = spawnSync(tool, ['-c', '--strict', manifest], { cwd: dir, encoding: 'utf8', timeout: 300_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Files by relative name with their mtimes: proof that a check modified nothing. */
async function snapshot(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const e of await fsp.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const p = path.join(e.parentPath, e.name);
    out.set(path.relative(dir, p), (await fsp.stat(p)).mtimeMs);
  }
  return out;
}

describe('diskdial check on 1,000 files (0 B – 64 MiB, names with spaces and UTF-8)', () => {
  let root: string;
  let tree: FileTree;
  const manifest = (): string => path.join(root, 'SHA256SUMS');

  beforeAll(async () => {
    root = path.join(tmp, 'tree');
    tree = await makeFileTree(root);
  }, 300_000);

  it('writes a SHA256SUMS that the real sha256sum -c accepts, and modifies nothing it checks', async () => {
    expect(tree.bytes).toBeGreaterThan(0.5 * 1024 ** 3);
    expect(tree.bytes).toBeLessThan(1024 ** 3);
    const before = await snapshot(root);
    const r = check(root, '--json');
    expect(r.status, r.stderr).toBe(0);
    const c = r.section!;
    expect(c.mode).toBe('create');
    expect(c.files).toBe(1000);
    expect(c.bytes).toBe(tree.bytes);
    expect(c.manifestWritten).toBe(true);
    expect(c.filesPerSecond).toBeGreaterThan(0);
    // A check has no read-alone figure: hashing is named, or no single limit (model/verdict/bottleneck.ts).
    expect(c.bound?.bound).toMatch(/^(cpu|balanced|none)$/);
    const after = await snapshot(root);
    expect([...after.keys()].sort()).toEqual([...before.keys(), 'SHA256SUMS'].sort());
    for (const [name, mtime] of before) expect(after.get(name), name).toBe(mtime);
    const sums = coreutilsCheck('sha256sum', root, 'SHA256SUMS');
    expect(sums.status, sums.out.slice(0, 500)).toBe(0);
    expect(sums.out.match(/: OK$/gm)).toHaveLength(1000);
  }, 300_000);

  it('re-checks: exactly the one changed, one missing and one new file planted', async () => {
    const same = check(root, '--json', '--no-save');
    expect(same.status, same.stderr).toBe(0);
    expect(same.section!.counts).toMatchObject({ unchanged: 1000, changed: 0, missing: 0, added: 0 });
    expect(same.section!.summary).toBe('All 1,000 files unchanged.');
    expect(same.section!.integrity?.outcome).toBe('intact');

    const changed = tree.names[507]!; // one of the large ones
    const gone = tree.names[501]!;
    const fresh = 'folder 3/neu — nouveau ファイル.bin';
    // One byte flipped in the middle of a file, its size and mtime put back as they were.
    const p = path.join(root, changed);
    const st = await fsp.stat(p);
    const h = await fsp.open(p, 'r+');
    const b = Buffer.alloc(1);
    await h.read(b, 0, 1, Math.floor(st.size / 2));
    b[0] = b[0]! ^ 0xff;
    await h.write(b, 0, 1, Math.floor(st.size / 2));
    await h.close();
    await fsp.utimes(p, st.atime, st.mtime);
    await fsp.rm(path.join(root, gone));
    await fsp.writeFile(path.join(root, fresh), 'new');

    const r = check(root, '--json', '--no-save');
    expect(r.status).toBe(1);
    const c = r.section!;
    expect(c.mode).toBe('verify');
    expect(c.changed).toEqual([changed]);
    expect(c.missing).toEqual([gone]);
    expect(c.added).toEqual([fresh]);
    expect(c.counts).toMatchObject({ unchanged: 998, changed: 1, missing: 1, added: 1, unreadable: 0 });
    expect(c.manifestWritten).toBe(false);

    const text = check(root, '--no-save');
    expect(text.status).toBe(1);
    expect(text.stdout).toContain(`✗ changed (1):\n    ${changed}\n✗ missing (1):\n    ${gone}\n`);
    expect(text.stdout).toContain(`+ new (not in the manifest) (1):\n    ${fresh}\n`);
    expect(text.stdout).toContain('Failed: 1 changed, 1 missing, 1 new; 998 unchanged.');
    expect(text.stdout).toMatch(/files\/s, \d+\.\d\d GB\/s\n(CPU-bound|No single limit): /);
  }, 300_000);

  it('Ctrl-C in the middle of --update leaves the previous manifest byte for byte, and no temp file', async () => {
    const old = await fsp.readFile(manifest());
    const child = spawn(process.execPath, [bin, 'check', root, '--update', '--streams', '1', '--no-save'], {
      env: { ...process.env, DISKDIAL_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Mid-run: once the CLI's engine process (a child of it) has one of the tree's files open
    // (not the manifest).
    const opened = (pid: number): boolean => {
      try {
        return readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(`${root}/folder `));
      } catch {
        return false;
      }
    };
    const children = (pid: number): number[] => {
      try {
        return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
      } catch {
        return [];
      }
    };
    await expect.poll(() => [child.pid!, ...children(child.pid!)].some(opened), { timeout: 60_000, interval: 5 }).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('cancelled; the manifest was left as it was');
    expect((await fsp.readFile(manifest())).equals(old)).toBe(true);
    expect((await fsp.readdir(root)).filter((n) => n.startsWith('.diskdial-manifest-'))).toEqual([]);

    // Without the Ctrl-C the same run does rewrite it: the test above could have caught a write.
    const done = check(root, '--update', '--json', '--no-save');
    expect(done.status).toBe(1);
    expect(done.section!.manifestWritten).toBe(true);
    expect((await fsp.readFile(manifest())).equals(old)).toBe(false);
    expect(coreutilsCheck('sha256sum', root, 'SHA256SUMS').status).toBe(0);
  }, 300_000);
});

describe('diskdial check with other manifests and hostile names', () => {
  // Every character a file name may hold that trips a naive tool.
  const hostile = [
    'a\nnewline',
    'back\\slash',
    'carriage\rreturn',
    ' leading space',
    'trailing space ',
    '*star',
    '-dash',
    'tab\there',
    '日本語 ファイル.txt',
    'sub dir/ü ö.bin',
  ];
  let dir: string;

  beforeAll(async () => {
    dir = path.join(tmp, 'hostile');
    await fsp.mkdir(path.join(dir, 'sub dir'), { recursive: true });
    for (const [i, n] of hostile.entries()) await fsp.writeFile(path.join(dir, n), randomBytes(1000 + i * 4099));
  });

  it('writes escaped names that sha256sum -c reads, and reads them back', async () => {
    const r = check(dir, '--json', '--no-save');
    expect(r.status, r.stderr).toBe(0);
    expect(r.section!.files).toBe(hostile.length);
    const text = await fsp.readFile(path.join(dir, 'SHA256SUMS'), 'utf8');
    expect(text).toContain('  a\\nnewline\n');
    expect(text).toContain('  back\\\\slash\n');
    const sums = coreutilsCheck('sha256sum', dir, 'SHA256SUMS');
    expect(sums.status, sums.out).toBe(0);
    const again = check(dir, '--json', '--no-save', '--verify-only');
    expect(again.status, again.stderr).toBe(0);
    expect(again.section!.counts.unchanged).toBe(hostile.length);
    // A name is printed with its control characters escaped, never raw.
    const words = check(dir, '--no-save', '--update');
    expect(words.stdout).not.toContain('\r');
    await fsp.rm(path.join(dir, 'SHA256SUMS'));
  });

  const tools: Array<[string, string[], string]> = [
    ['sha256sum -b (binary * marks)', ['sha256sum', '-b'], 'sha256'],
    ['sha256sum --tag (BSD)', ['sha256sum', '--tag'], 'sha256'],
    ['shasum -a 256', ['shasum', '-a', '256'], 'sha256'],
    ['shasum -a 512 -b', ['shasum', '-a', '512', '-b'], 'sha512'],
    ['sha512sum', ['sha512sum'], 'sha512'],
    ['md5sum', ['md5sum'], 'md5'],
  ];
  for (const [what, [tool, ...flags], algo] of tools) {
    it(`verifies a manifest written by ${what}, and finds a changed file`, async () => {
      const manifest = path.join(tmp, `${tool}${flags.join('')}.sums`);
      const made = spawnSync(tool!, [...flags, '--', ...hostile], { cwd: dir, encoding: 'utf8' });
      expect(made.status, made.stderr).toBe(0);
      await fsp.writeFile(manifest, made.stdout);
      const r = check(dir, '--manifest', manifest, '--verify-only', '--json', '--no-save');
      expect(r.status, r.stderr).toBe(0);
      expect(r.section!.algo).toBe(algo);
      expect(r.section!.counts).toMatchObject({ unchanged: hostile.length, changed: 0, missing: 0, added: 0 });
      if (algo === 'md5') expect(r.section!.provider).toMatch(/^Node\.js crypto/);

      const victim = path.join(dir, '*star');
      const keep = await fsp.readFile(victim);
      await fsp.writeFile(victim, 'changed');
      try {
        const bad = check(dir, '--manifest', manifest, '--verify-only', '--json', '--no-save');
        expect(bad.status).toBe(1);
        expect(bad.section!.changed).toEqual(['*star']);
      } finally {
        await fsp.writeFile(victim, keep);
      }
    });
  }

  it('never reads a place a manifest names outside the folder', async () => {
    const outside = path.join(tmp, 'secret.txt');
    await fsp.writeFile(outside, 'secret');
    const manifest = path.join(tmp, 'escape.sums');
    await fsp.writeFile(manifest, `${'0'.repeat(64)}  ../secret.txt\n${'0'.repeat(64)}  /etc/hostname\n`);
    const r = check(dir, '--manifest', manifest, '--verify-only', '--json', '--no-save');
    expect(r.status).toBe(1);
    expect(r.section!.skipped.map((s) => s.name).sort()).toEqual(['../secret.txt', '/etc/hostname']);
    expect(r.section!.missing).toEqual([]);
    expect(r.section!.files).toBe(0);
  });

  it('skips FIFOs and symbolic links with a note, and follows no link out of the folder', async () => {
    const odd = path.join(tmp, 'odd');
    await fsp.mkdir(odd);
    await fsp.writeFile(path.join(odd, 'real'), 'x');
    await fsp.symlink('/etc', path.join(odd, 'etc-link'));
    expect(spawnSync('mkfifo', [path.join(odd, 'pipe')]).status).toBe(0);
    const r = check(odd, '--json', '--no-save');
    expect(r.status, r.stderr).toBe(0);
    expect(r.section!.files).toBe(1);
    expect(r.section!.skipped).toEqual(
      expect.arrayContaining([
        { name: 'etc-link', why: 'symbolic link (not followed)' },
        { name: 'pipe', why: 'FIFO (named pipe): not a regular file, not read' },
      ]),
    );
  });

  it('bad input is exit 2, in words: no manifest to verify, the wrong algorithm, not a manifest, no folder', async () => {
    const empty = path.join(tmp, 'empty-dir');
    await fsp.mkdir(empty);
    const none = check(empty, '--verify-only');
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/No manifest at .*SHA256SUMS to verify against: run without --verify-only to create one/);
    const md5 = path.join(tmp, 'md5.sums');
    await fsp.writeFile(md5, `${'0'.repeat(32)}  x\n`);
    const wrong = check(empty, '--manifest', md5, '--algo', 'sha256');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('holds MD5 digests but SHA-256 was asked for');
    const junk = path.join(tmp, 'junk.sums');
    await fsp.writeFile(junk, 'not a manifest\n');
    expect(check(empty, '--manifest', junk).stderr).toMatch(/is not a checksum manifest: it holds no SHA-256, SHA-512 or MD5 digest line/);
    const missing = check(path.join(tmp, 'no-such-folder'));
    expect(missing.status).toBe(2);
    expect(check(empty, '--verify-only', '--update').status).toBe(2);
    expect(check(empty, '--streams', '0').stderr).toContain('--streams must be from 1 to 256');
  });
});
