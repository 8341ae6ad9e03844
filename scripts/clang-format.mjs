#!/usr/bin/env node
// Checks (--check) or applies (--fix) .clang-format to the C++ in native/src and native/test.
// --check fails listing every file clang-format would change (clang-format --dry-run --Werror).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIRS = ['native/src', 'native/test'];
const EXTENSIONS = new Set(['.cc', '.h']);
const binary = process.env.CLANG_FORMAT ?? 'clang-format';

const mode = process.argv.includes('--fix') ? 'fix' : process.argv.includes('--check') ? 'check' : null;
if (!mode) {
  console.error('usage: node scripts/clang-format.mjs --check | --fix');
  process.exit(2);
}

function* walk(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(p);
    else if (entry.isFile() && EXTENSIONS.has(path.extname(entry.name))) yield p;
  }
}

const files = DIRS.flatMap((d) => [...walk(path.join(root, d))]).sort();
const rel = (f) => path.relative(root, f);

const version = spawnSync(binary, ['--version'], { encoding: 'utf8' });
if (version.error || version.status !== 0) {
  console.error(
    `clang-format: cannot run ${binary} (${version.error?.message ?? version.stderr.trim()}); install it (Debian: apt-get install clang-format)`,
  );
  process.exit(1);
}
if (files.length === 0) {
  console.log(`clang-format: no C++ files under ${DIRS.join(', ')}`);
  process.exit(0);
}

if (mode === 'fix') {
  const r = spawnSync(binary, ['-i', '--style=file', ...files], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  console.log(`clang-format: formatted ${files.length} files`);
  process.exit(0);
}

// One run per file, so a failure names exactly the files that differ.
const bad = [];
for (const f of files) {
  const r = spawnSync(binary, ['--dry-run', '--Werror', '--style=file', f], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) bad.push({ file: rel(f), detail: (r.stderr || r.stdout).trim() });
}
if (bad.length) {
  for (const { file, detail } of bad) {
    const lines = detail.split('\n');
    const shown = lines.slice(0, 12).join('\n');
    console.error(`${file}: not formatted\n${shown}${lines.length > 12 ? `\n… (${lines.length - 12} more lines)` : ''}`);
  }
  console.error(`\nclang-format: ${bad.length} of ${files.length} files not formatted: ${bad.map((b) => b.file).join(', ')}`);
  console.error('Run `npm run format:cpp` to fix them.');
  process.exit(1);
}
console.log(`clang-format: ${files.length} files formatted correctly (${version.stdout.trim()})`);
