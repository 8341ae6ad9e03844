#!/usr/bin/env node
// Builds the native addon with node-gyp. Offline-friendly: when the running Node ships its own
// headers (Debian's nodejs, official tarballs), they are used instead of downloading them.
// `--electron` builds against the installed Electron's headers (fetched from electronjs.org), as
// `npm run dist` does; the addon is N-API, so either build loads in both runtimes.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const debug = process.argv.includes('--debug');
const electron = process.argv.includes('--electron');

function nodeGypBin() {
  try {
    return require.resolve('node-gyp/bin/node-gyp.js', { paths: [root] });
  } catch {
    const bundled = path.join(path.dirname(process.execPath), '../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js');
    if (existsSync(bundled)) return bundled;
    throw new Error('node-gyp not found: run `npm install` first');
  }
}

const args = [nodeGypBin(), 'rebuild', '--directory', path.join(root, 'native'), `-j`, 'max'];
if (debug) args.push('--debug');
const localHeaders = path.resolve(path.dirname(process.execPath), '..');
if (electron) {
  const { version } = require('electron/package.json');
  args.push(`--target=${version}`, '--dist-url=https://electronjs.org/headers');
} else if (!process.env.npm_config_nodedir && existsSync(path.join(localHeaders, 'include/node/node_api.h'))) {
  args.push(`--nodedir=${localHeaders}`);
}
// On Linux, ccache (when installed) lets a fresh clone (CI's) reuse earlier compiles; it keys them
// by the preprocessed source and flags, so nothing stale is reused. DD_NO_CCACHE=1 turns it off.
const env = { ...process.env };
const ccache =
  process.platform === 'linux' && env.DD_NO_CCACHE !== '1' && spawnSync('ccache', ['--version'], { stdio: 'ignore' }).status === 0;
if (ccache) {
  env.CC = `ccache ${env.CC ?? 'gcc'}`;
  env.CXX = `ccache ${env.CXX ?? 'g++'}`;
}
const r = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root, env });
if (r.status !== 0) {
  console.error(`diskdial: building the native addon failed (node-gyp exit ${r.status}).`);
  process.exit(r.status ?? 1);
}
