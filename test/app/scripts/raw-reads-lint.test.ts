// The lint rule that keeps every file read on a user's behalf going through core/safe-read.ts:
// it refuses each form of a raw read in app/src (test/fixtures/lint/raw-reads.ts), lets the
// allowlisted files be, and the allowlist holds only files that still need it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- the repository's plain-JS ESLint config; the test checks what it exports.
import { RAW_READ_ALLOWED, rawReads } from '../../../eslint.config.js';

const root = path.resolve(import.meta.dirname, '../../..');
const fixture = readFileSync(path.join(root, 'test/fixtures/lint/raw-reads.ts'), 'utf8');
const allowed = RAW_READ_ALLOWED as Record<string, string>;
const block = rawReads as Linter.Config;

/** The rule alone (no type information, so a file need not be in the TypeScript project). */
function linter(config: Linter.Config): ESLint {
  return new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.{ts,tsx,cts,mts}'], languageOptions: { parser: tseslint.parser as Linter.Parser } }, config],
  });
}

async function errorLines(config: Linter.Config, text: string, filePath: string): Promise<number[]> {
  const [r] = await linter(config).lintText(text, { filePath: path.join(root, filePath) });
  expect(r!.messages.filter((m) => m.fatal)).toEqual([]);
  return r!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.line);
}

describe('raw file reads in app/src', () => {
  it('refuses every form of a raw read in the fixture, and nothing else in it', async () => {
    const expected = fixture.split('\n').flatMap((line, i) => {
      const m = /\/\/ refused(?: ×(\d+))?$/.exec(line);
      return m ? Array<number>(Number(m[1] ?? 1)).fill(i + 1) : [];
    });
    expect(expected).toHaveLength(11);
    expect((await errorLines(block, fixture, 'app/src/core/some-reader.ts')).sort((a, b) => a - b)).toEqual(expected);
  });

  it('says what to use instead', async () => {
    const [r] = await linter(block).lintText("import { readFile } from 'node:fs/promises';\n", {
      filePath: path.join(root, 'app/src/cli/x.ts'),
    });
    expect(r!.messages[0]?.message).toMatch(/through app\/src\/core\/safe-read\.ts .* RAW_READ_ALLOWED/);
  });

  it('applies to app/src only, and not to the allowlisted files', async () => {
    expect(await errorLines(block, fixture, 'test/app/core/x.test.ts')).toEqual([]);
    expect(await errorLines(block, fixture, 'app/src/core/host.ts')).toEqual([]);
  });

  it('is part of the repository config, on for app/src and off for each allowlisted file', async () => {
    const eslint = new ESLint({ cwd: root });
    const rule = async (file: string): Promise<unknown> =>
      ((await eslint.calculateConfigForFile(path.join(root, file))) as Linter.Config).rules?.['no-restricted-syntax'];
    expect(await rule('app/src/core/history.ts')).toEqual(expect.arrayContaining([2]));
    for (const file of Object.keys(allowed)) expect(await rule(file), file).toBeUndefined();
  });

  // An entry that no longer reads anything raw is a hole kept open for nobody.
  it('allows only files that still read raw, each with its reason', async () => {
    const everywhere: Linter.Config = { ...block, ignores: [] };
    for (const [file, why] of Object.entries(allowed)) {
      expect(existsSync(path.join(root, file)), file).toBe(true);
      expect(why.length, file).toBeGreaterThan(10);
      expect(await errorLines(everywhere, readFileSync(path.join(root, file), 'utf8'), file), file).not.toEqual([]);
    }
  });
});
