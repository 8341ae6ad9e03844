// A helper exists once and a name means one thing: each of these names is declared in one module
// of app/src and renderer/src (the twins that grew, each with its own meaning or a copy of the
// other's code, were renamed or removed), and what they do is written nowhere else.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const sources = ['app/src', 'renderer/src']
  .flatMap((dir) => readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f)))
  .filter((f) => /\.(ts|tsx|cts|mts)$/.test(f))
  .sort();
const text = new Map(sources.map((f) => [f, readFileSync(path.join(root, f), 'utf8')]));

/** The modules that declare `name` at top level (function, const, type, interface or class). */
function declaring(name: string): string[] {
  const decl = new RegExp(`^(export )?(async )?(function|const|let|type|interface|class) ${name}\\b`, 'm');
  return sources.filter((f) => decl.test(text.get(f)!));
}

/** The modules whose text contains `snippet`. */
function containing(snippet: string): string[] {
  return sources.filter((f) => text.get(f)!.includes(snippet));
}

describe('one name, one thing', () => {
  it('reads the sources', () => expect(sources.length).toBeGreaterThan(300));

  it.each([
    ['sizeText', 'app/src/model/report/figure-text.ts'],
    ['sizeLabel', 'renderer/src/lib/sizes.ts'],
    ['SeriesPoint', 'app/src/model/engine-types.ts'],
    ['parseSize', 'app/src/model/units.ts'],
    ['parseTypedSize', 'app/src/model/units.ts'],
    ['ipcErrorText', 'app/src/model/events.ts'],
    ['EngineFn', 'app/src/core/engine.ts'],
    ['HashFn', 'app/src/core/engine.ts'],
    ['withPresent', 'app/src/core/exec/json.ts'],
  ])('%s is declared once, in %s', (name, home) => {
    expect(declaring(name)).toEqual([home]);
  });

  it('spells the engine call once (EngineFn)', () => {
    expect(containing('(spec: EngineSpec, opts: RunTestOptions) => Promise<EngineResult>')).toEqual(['app/src/core/engine.ts']);
  });

  it('turns an IPC error into words in one place', () => {
    expect(containing('err?.message?.trim()')).toEqual(['app/src/model/events.ts']);
    expect(containing("ERR_BUSY: '")).toEqual(['app/src/model/events.ts']);
  });

  it('draws a field and its error under it in one place (components/fields.tsx)', () => {
    // settings-bar.tsx keeps its own until the Quick Test views settle (the sustained-kind work is
    // moving them); it is the last copy.
    expect(sources.filter((f) => /<span id=\{\w+\} className="field-error"/.test(text.get(f)!))).toEqual([
      'renderer/src/components/fields.tsx',
      'renderer/src/features/quick-test/settings-bar.tsx',
    ]);
  });

  it('keeps a tool’s optional fields one way (withPresent), in the Windows and macOS readers', () => {
    for (const f of ['app/src/core/link/win.ts', 'app/src/core/wizard/win.ts', 'app/src/core/wizard/darwin-diskutil.ts'])
      expect(text.get(f), f).not.toMatch(/const (\w+) = (text|str|num)\(.*\n +if \(\1( !== undefined)?\) \w+\.\w+ = \1;/);
  });

  it('reads a typed size in one place', () => {
    expect(containing('(gib|mib|gb|mb|g|m)')).toEqual(['app/src/model/units.ts']);
  });
});
