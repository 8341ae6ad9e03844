// The `diskdial` command as a bundle (dist/cli-bundle/), made from the compiled core after tsc: a
// start then reads a few dozen files instead of ~250 modules (resolving them cost about a third of
// its start-up; docs/benchmarks.md, "CLI start-up"). Each command's own code stays a chunk loaded in
// its branch; the engine's child and the card worker are entries beside the chunks, where
// engine-host.ts and card-png.ts look for them. meta.json says which modules each chunk holds.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_DIR = 'dist/cli-bundle';

export async function bundleCli() {
  const out = await build({
    absWorkingDir: root,
    entryPoints: {
      main: 'dist/cli/main.js',
      'engine-host-child': 'dist/services/engine-host-child.js',
      'card-worker': 'dist/core/card-worker.js',
    },
    outdir: BUNDLE_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // CommonJS packages stay in node_modules (an ES bundle cannot require() them); zod is ES.
    external: ['ws', '@resvg/resvg-js'],
    metafile: true,
    logLevel: 'warning',
  });
  writeFileSync(path.join(root, BUNDLE_DIR, 'meta.json'), JSON.stringify(out.metafile));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await bundleCli();
