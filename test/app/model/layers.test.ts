// The layers hold (issue 15): the shared model imports only zod and itself, so every side can use
// it; core imports nothing from the IPC, services, the Electron main process, the CLI or the server.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../../app/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|cts|mts)$/.test(e.name) ? [p] : [];
  });
}

/** Every module a file imports or re-exports, dynamic imports included. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  specs.push(...[...text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!));
  specs.push(...[...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!));
  return specs;
}

/** The imports of the files under `layer` that break `allowed`, as "file → spec". */
function violations(layer: string, allowed: (spec: string, resolved: string | undefined) => boolean): string[] {
  const out: string[] = [];
  for (const file of sourceFiles(path.join(SRC, layer))) {
    for (const spec of importsOf(file)) {
      const resolved = spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : undefined;
      if (!allowed(spec, resolved)) out.push(`${path.relative(SRC, file)} → ${spec}`);
    }
  }
  return out;
}

const inside = (resolved: string | undefined, layer: string): boolean =>
  resolved !== undefined && (resolved + path.sep).startsWith(path.join(SRC, layer) + path.sep);

describe('layers', () => {
  it('the model imports only zod and other model files (no node:*, nothing of core, ipc, services, main, cli, server)', () => {
    expect(violations('model', (spec, resolved) => spec === 'zod' || inside(resolved, 'model'))).toEqual([]);
  });

  it('core imports nothing from ipc, services, main, cli or server', () => {
    const above = ['ipc', 'services', 'main', 'cli', 'server'];
    expect(violations('core', (_spec, resolved) => !above.some((layer) => inside(resolved, layer)))).toEqual([]);
  });

  it('finds imports where they are (the scan itself works)', () => {
    expect(importsOf(path.join(SRC, 'core/result.ts'))).toContain('../model/result.js');
    expect(sourceFiles(path.join(SRC, 'model')).length).toBeGreaterThan(10);
  });
});
