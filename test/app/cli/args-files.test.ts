// cli/args.ts is the shared dispatch and `run`'s parser; every other command's arguments are
// parsed in a file of its own beside it (issue 32: no source file over 500 lines).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const cliDir = path.resolve(import.meta.dirname, '../../../app/src/cli');
const source = (f: string): string => readFileSync(path.join(cliDir, f), 'utf8');

describe('the CLI parses each command in its own file', () => {
  it('args.ts declares no other command’s parser and stays well under 500 lines', () => {
    const args = source('args.ts');
    expect(args.split('\n').length).toBeLessThanOrEqual(400);
    expect(args).not.toMatch(/^function parse(Hash|Check|Cipher|Serve)\b/m);
    for (const name of ['hash', 'check', 'cipher', 'serve']) {
      const own = source(`args-${name}.ts`);
      expect(own, name).toMatch(new RegExp(`^export function parse${name[0]!.toUpperCase()}${name.slice(1)}\\(`, 'm'));
    }
  });

  it('no file of the CLI is over 500 lines', () => {
    for (const f of readdirSync(cliDir).filter((n) => n.endsWith('.ts'))) expect(source(f).split('\n').length, f).toBeLessThanOrEqual(500);
  });
});
