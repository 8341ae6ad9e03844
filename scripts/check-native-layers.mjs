// The addon's layers, held in CI beside dependency-cruiser (which reads only TypeScript): no #include cycle,
// and each layer includes only what is below it (addon → bindings → engine → platform). The platform layer may
// include the engine's plain data headers, which describe what it fills in, never the engine's code.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ORDER = ['platform', 'engine', 'bindings', 'addon'];
const DATA_HEADERS = new Set(['engine/status.h', 'engine/result.h', 'engine/spec.h', 'engine/hash_spec.h', 'engine/cipher_spec.h']);

const layerOf = (rel) => (rel.includes('/') ? rel.split('/')[0] : 'addon');

export function checkNativeLayers(root) {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(cc|h)$/.test(e.name)) files.push(path.relative(root, p).split(path.sep).join('/'));
    }
  };
  walk(root);
  files.sort();
  const graph = new Map();
  const problems = [];
  for (const f of files) {
    const deps = [...readFileSync(path.join(root, f), 'utf8').matchAll(/^\s*#\s*include\s+"([^"]+)"/gm)].map((m) => m[1]);
    graph.set(f, deps);
    for (const d of deps) {
      const from = ORDER.indexOf(layerOf(f));
      const to = ORDER.indexOf(layerOf(d));
      const allowed = to <= from || (layerOf(f) === 'platform' && DATA_HEADERS.has(d));
      if (!allowed) problems.push(`${f} includes ${d}: ${layerOf(f)} may not include ${layerOf(d)}`);
    }
  }
  // Depth-first search for a cycle among the files' includes.
  const state = new Map();
  const visit = (f, trail) => {
    if (state.get(f) === 'done') return;
    if (state.get(f) === 'open') {
      problems.push(`include cycle: ${[...trail.slice(trail.indexOf(f)), f].join(' → ')}`);
      return;
    }
    state.set(f, 'open');
    for (const d of graph.get(f) ?? []) visit(d, [...trail, f]);
    state.set(f, 'done');
  };
  for (const f of files) visit(f, []);
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2] ?? path.join(import.meta.dirname, '..', 'native', 'src');
  const problems = checkNativeLayers(root);
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
  console.log(`native layers: ${root} has no include cycle and no upward include`);
}
