// The compiled core (dist/, what `npm install` builds), compiled again only when its sources
// changed since the last build made here. Tests that run bin/diskdial.js need it current; a full
// tsc in every such file's beforeAll took past the hook's time limit on a loaded machine.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** When anything under `paths` (relative to the repository; files or folders) last changed, in ms. */
export function newest(...paths: string[]): number {
  let latest = 0;
  for (const p of paths.map((x) => path.join(root, x))) {
    if (!existsSync(p)) continue;
    const st = statSync(p);
    if (!st.isDirectory()) latest = Math.max(latest, st.mtimeMs);
    else for (const name of readdirSync(p)) latest = Math.max(latest, newest(path.relative(root, path.join(p, name))));
  }
  return latest;
}

/** Runs tsc -p tsconfig.build.json unless dist is newer than every source it is built from. */
export function buildCoreIfChanged(): void {
  const stamp = path.join(root, 'dist/.core-built');
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newest('app/src', 'tsconfig.json', 'tsconfig.build.json')) return;
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'pipe',
  });
  writeFileSync(stamp, '');
}
