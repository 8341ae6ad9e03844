#!/usr/bin/env node
// `npm start`: build the TypeScript and the renderer if they changed, then run the desktop app. When Electron's
// binary is missing (its download skipped or failed), say so in one line with the fix and offer
// the same UI in the browser instead of Electron's stack trace.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The Electron executable, or null when its binary is not on disk. Electron 42+ has no
 *  postinstall: the binary is fetched on first use, by its own install.js, which we call. */
function electronBinary() {
  const pkg = path.join(root, 'node_modules', 'electron');
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(pkg, 'dist');
  let rel = process.platform === 'win32' ? 'electron.exe' : 'electron';
  try {
    rel = readFileSync(path.join(pkg, 'path.txt'), 'utf8');
  } catch {
    // Not downloaded yet: path.txt is written with the binary.
  }
  const bin = path.join(distDir, rel);
  return existsSync(bin) ? bin : null;
}

function downloadElectron() {
  const installer = path.join(root, 'node_modules', 'electron', 'install.js');
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD || !existsSync(installer)) return;
  console.error('Downloading Electron for the first run (about 100 MB)…');
  // Its failure is a stack trace: the one line below says it better, with the way out.
  const r = spawnSync(process.execPath, [installer], { stdio: ['ignore', 'inherit', 'pipe'], cwd: root, encoding: 'utf8' });
  if (r.status !== 0) console.error(`The download failed: ${r.stderr.trim().split('\n')[0] || `exit ${r.status}`}`);
}

/** The core and the UI, rebuilt only if a source changed since their last build (never under a
 *  running `serve` or test that is using them). */
function build() {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-changed.mjs')], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** Runs a child in the foreground, passing its exit code on and Ctrl-C through to it. */
function foreground(cmd, args) {
  const child = spawn(cmd, args, { stdio: 'inherit', cwd: root });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
}

let electron = electronBinary();
if (!electron) {
  downloadElectron();
  electron = electronBinary();
}
if (electron) {
  build();
  foreground(electron, ['.']);
} else {
  console.error(
    "DiskDial: the desktop app cannot start because Electron's binary is not installed (its download was skipped or failed). " +
      'Fix: connect to the internet and run `npm start` again. The same UI runs in your browser: `npx diskdial serve`.',
  );
  let answer = 'n';
  if (process.stdin.isTTY) {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    answer = (await rl.question('Open DiskDial in your browser instead? [Y/n] ')).trim().toLowerCase() || 'y';
    rl.close();
  }
  if (answer.startsWith('y')) {
    build();
    foreground(process.execPath, [path.join(root, 'bin/diskdial.js'), 'serve']);
  } else {
    process.exit(1);
  }
}
