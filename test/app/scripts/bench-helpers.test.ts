// The benchmark scripts share their method, not copies of it: reading the command line, running fio
// over files it must leave as they were, and interleaving the engine with openssl speed, are each
// written once, in scripts/bench/common.ts, so a fix to the method reaches every benchmark.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const scripts = readdirSync(path.join(root, 'scripts'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => path.join('scripts', f))
  .sort();
const text = new Map(scripts.map((f) => [f, readFileSync(path.join(root, f), 'utf8')]));
const matching = (re: RegExp): string[] => scripts.filter((f) => re.test(text.get(f)!));

describe('the benchmarks’ method is written once', () => {
  it('reads the scripts', () => expect(scripts).toContain('scripts/bench/common.ts'));

  it('runs fio and checks it left the files alone in one place (runFioJobs)', () => {
    expect(matching(/runChild\('fio'/)).toEqual(['scripts/bench/common.ts']);
    expect(matching(/fio re-created or resized/)).toEqual(['scripts/bench/common.ts']);
  });

  it('reads the command line in one place (parseArgv)', () => {
    expect(matching(/for \(let i = 0; i < argv\.length; i\+\+\)/)).toEqual(['scripts/bench/common.ts']);
    expect(matching(/fio said: /)).toEqual(['scripts/bench/common.ts']);
  });

  it('alternates the engine and openssl speed in one place (versusOpenssl)', () => {
    expect(matching(/ssl = opensslSpeed\(/)).toEqual([]);
    expect(matching(/export async function versusOpenssl\(/)).toEqual(['scripts/bench/common.ts']);
  });
});
