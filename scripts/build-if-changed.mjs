// Builds the compiled core (dist/) and the UI (dist/renderer) only when a source changed since the
// last build here. `npm install`, `npm start` and the tests all build through it: a rebuild rewrites
// files that other processes are running or serving (vite empties dist/renderer first; a test
// chain's page then gets 404s for its fonts), so nothing may rebuild what is already current.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORE_STAMP = path.join(root, 'dist/.core-built');
const UI_INDEX = path.join(root, 'dist/renderer/index.html');

/** When anything under `paths` (relative to the repository; files or folders) last changed, in ms. */
export function newest(...paths) {
  let latest = 0;
  for (const p of paths.map((x) => path.join(root, x))) {
    if (!existsSync(p)) continue;
    const st = statSync(p);
    if (!st.isDirectory()) latest = Math.max(latest, st.mtimeMs);
    else for (const name of readdirSync(p)) latest = Math.max(latest, newest(path.relative(root, path.join(p, name))));
  }
  return latest;
}

const stale = (output, ...sources) => !existsSync(output) || statSync(output).mtimeMs < newest(...sources);

function run(script, args, env = process.env) {
  execFileSync(process.execPath, [path.join(root, 'node_modules', script), ...args], { cwd: root, stdio: 'pipe', env });
}

/** tsc -p tsconfig.build.json and the CLI's bundle, unless dist is newer than every source it is
 *  built from. */
export function buildCoreIfChanged() {
  if (!stale(CORE_STAMP, 'app/src', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle-cli.mjs')) return;
  run('typescript/bin/tsc', ['-p', 'tsconfig.build.json']);
  execFileSync(process.execPath, [path.join(root, 'scripts/bundle-cli.mjs')], { cwd: root, stdio: 'pipe' });
  writeFileSync(CORE_STAMP, '');
}

/** vite build of the renderer, unless dist/renderer is newer than every source it is built from. */
export function buildRendererIfChanged() {
  if (!stale(UI_INDEX, 'app/src', 'renderer')) return;
  // Production whoever asks: under vitest NODE_ENV is "test", and vite then bundles React's
  // development build (jsxDEV, checks on every render: a Quick Test ran at 47 fps, not 59).
  run('vite/bin/vite.js', ['build', '--logLevel', 'warn', '--config', 'renderer/vite.config.ts'], {
    ...process.env,
    NODE_ENV: 'production',
  });
}

// `node scripts/build-if-changed.mjs`: both; a failed build prints the compiler's words and exits 1.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    buildCoreIfChanged();
    buildRendererIfChanged();
  } catch (e) {
    process.stderr.write(`${e.stdout ?? ''}${e.stderr ?? ''}`);
    process.stderr.write(`The build failed: ${e.message.split('\n')[0]}\n`);
    process.exit(1);
  }
}
