// The layering rules hold: each dependency-cruiser rule rejects a small tree laid out like the
// repository (the same command `npm run lint:deps` runs, in a temp folder), the Electron IPC lint
// refuses ipcMain/ipcRenderer outside their wrappers, and the real tree passes both.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- the repository's plain-JS ESLint config; the test checks what it exports.
import { IPC_WRAPPERS, ipcImports } from '../../../eslint.config.js';

const root = path.resolve(import.meta.dirname, '../../..');
// Run with this test's node: depcruise refuses old ones, whatever is first on PATH.
const depcruise = realpathSync(path.join(root, 'node_modules/.bin/depcruise'));
// What CI runs: the depcruise half of `npm run lint:deps`, its config and folders as written there.
const lintDeps = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[
  'lint:deps'
]!;
const cruiseArgs = lintDeps.split('&&')[0]!.trim().split(/\s+/);
const configFile = cruiseArgs[cruiseArgs.indexOf('--config') + 1]!;
const tsConfigFile = (createRequire(import.meta.url)(path.join(root, configFile)) as { options: { tsConfig: { fileName: string } } })
  .options.tsConfig.fileName;
const cruisedFolders = cruiseArgs.slice(1).filter((a, i, all) => !a.startsWith('-') && all[i - 1] !== '--config');

interface Violation {
  rule: string;
  from: string;
  to: string;
}

interface CruiseReport {
  summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> };
  modules: Array<{ source: string; dependencies: Array<{ module: string; couldNotResolve: boolean; coreModule: boolean }> }>;
}

/** The rules broken in `cwd` (the JSON report exits 0 either way; the violations are the answer), and
 *  the imports it could not resolve: an import it cannot follow is one no rule sees. */
function cruise(cwd: string): { violations: Violation[]; unresolved: string[] } {
  expect(cruiseArgs[0]).toBe('depcruise');
  // The JSON report of the whole tree is over 1 MiB, spawnSync's default buffer: past it the
  // report comes back cut off.
  const r = spawnSync(process.execPath, [depcruise, ...cruiseArgs.slice(1), '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  expect(r.error).toBeUndefined();
  expect(r.stderr).toBe('');
  const out = JSON.parse(r.stdout) as CruiseReport;
  const violations = out.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
  const unresolved = out.modules.flatMap((m) =>
    m.dependencies.filter((d) => d.couldNotResolve && !d.coreModule).map((d) => `${m.source} → ${d.module}`),
  );
  return { violations: violations.sort((a, b) => `${a.rule} ${a.from}`.localeCompare(`${b.rule} ${b.from}`)), unresolved };
}

const exported = 'export const x = 1;\n';
const uses = (spec: string): string => `import { x } from '${spec}';\nexport const y = x;\n`;

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A temp folder laid out like the repository: its dependency-cruiser config and tsconfig, and `files`. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'layering-rules-'));
  dirs.push(dir);
  copyFileSync(path.join(root, configFile), path.join(dir, configFile));
  for (const folder of cruisedFolders) mkdirSync(path.join(dir, folder), { recursive: true });
  // The tsconfig the config resolves with (the renderer's, for its @model/@ipc paths), as it is.
  mkdirSync(path.dirname(path.join(dir, tsConfigFile)), { recursive: true });
  copyFileSync(path.join(root, tsConfigFile), path.join(dir, tsConfigFile));
  // The renderer's tsconfig wants one input under renderer/src, whatever the fixture is about.
  for (const [rel, text] of Object.entries({ 'renderer/src/main.tsx': exported, ...files })) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('dependency-cruiser rules (lint:deps)', () => {
  it('guards every folder under renderer/src/features, whatever it is named', () => {
    const dir = tree({
      'renderer/src/features/hash/panel.ts': exported,
      'renderer/src/features/campaign/screen.ts': uses('../hash/panel'),
      // Named in no list anywhere: the rule comes from the folder.
      'renderer/src/features/newscreen/screen.ts': uses('../campaign/screen'),
    });
    expect(cruise(dir)).toEqual({
      violations: [
        {
          rule: 'feature-campaign-stands-alone',
          from: 'renderer/src/features/campaign/screen.ts',
          to: 'renderer/src/features/hash/panel.ts',
        },
        {
          rule: 'feature-newscreen-stands-alone',
          from: 'renderer/src/features/newscreen/screen.ts',
          to: 'renderer/src/features/campaign/screen.ts',
        },
      ],
      unresolved: [],
    });
  });

  it('keeps components/ and lib/ below the features', () => {
    const dir = tree({
      'renderer/src/features/wizard/wizard-model.ts': exported,
      'renderer/src/components/report-view.tsx': uses('../features/wizard/wizard-model'),
      'renderer/src/lib/sizes.ts': uses('../features/wizard/wizard-model'),
      // Downward is fine: a feature uses lib/ and components/.
      'renderer/src/features/wizard/plan.ts': uses('../../lib/sizes'),
      'renderer/src/features/wizard/run.ts': uses('../../components/report-view'),
    });
    expect(cruise(dir)).toEqual({
      violations: [
        {
          rule: 'components-and-lib-below-features',
          from: 'renderer/src/components/report-view.tsx',
          to: 'renderer/src/features/wizard/wizard-model.ts',
        },
        {
          rule: 'components-and-lib-below-features',
          from: 'renderer/src/lib/sizes.ts',
          to: 'renderer/src/features/wizard/wizard-model.ts',
        },
      ],
      unresolved: [],
    });
  });

  it('keeps the services below the IPC contract: their EventSink comes from the model', () => {
    const dir = tree({
      'app/src/ipc/contract.ts': exported,
      'app/src/model/event-map.ts': exported,
      'app/src/services/quick-test.ts': uses('../ipc/contract.js'),
      'app/src/services/hash-test.ts': uses('../model/event-map.js'),
      'app/src/ipc/dispatch.ts': uses('../services/hash-test.js'),
    });
    expect(cruise(dir)).toEqual({
      violations: [{ rule: 'services-below-ipc', from: 'app/src/services/quick-test.ts', to: 'app/src/ipc/contract.ts' }],
      unresolved: [],
    });
  });

  it("follows the renderer's @model and @ipc aliases: only the model and the contract are in reach", () => {
    const dir = tree({
      'app/src/ipc/contract.ts': exported,
      'app/src/ipc/dispatch.ts': exported,
      'app/src/model/units.ts': exported,
      'renderer/src/lib/bridge.ts': uses('@ipc/contract'),
      'renderer/src/lib/sizes.ts': uses('@model/units'),
      'renderer/src/lib/reach-in.ts': uses('@ipc/dispatch'),
    });
    expect(cruise(dir)).toEqual({
      violations: [
        {
          rule: 'renderer-reaches-app-only-through-model-and-contract',
          from: 'renderer/src/lib/reach-in.ts',
          to: 'app/src/ipc/dispatch.ts',
        },
      ],
      unresolved: [],
    });
  });

  it('passes the real tree, every import resolved', () => {
    expect(cruise(root)).toEqual({ violations: [], unresolved: [] });
  });
});

const ipcBlocks = ipcImports as Linter.Config[];
const wrappers = IPC_WRAPPERS as Record<'ipcMain' | 'ipcRenderer', string>;

/** The IPC rule alone (no type information, so a file need not be in the TypeScript project). */
const ipcLint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.{ts,tsx,cts,mts}'], languageOptions: { parser: tseslint.parser as Linter.Parser } }, ...ipcBlocks],
});

function refusedLines(r: ESLint.LintResult): number[] {
  expect(
    r.messages.filter((m) => m.fatal),
    r.filePath,
  ).toEqual([]);
  return r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.line);
}

async function refusals(text: string, file: string): Promise<number[]> {
  const [r] = await ipcLint.lintText(text, { filePath: path.join(root, file) });
  return refusedLines(r!);
}

describe('ipcMain and ipcRenderer only inside their wrappers (eslint)', () => {
  const text = [
    "import { ipcMain } from 'electron';",
    "import { ipcRenderer as r } from 'electron';",
    "import electron from 'electron';",
    "import * as all from 'electron';",
    "export { ipcMain as m } from 'electron';",
    "import { BrowserWindow, type WebContents } from 'electron';",
    '',
  ].join('\n');

  it('refuses every way of reaching them elsewhere in app/src and renderer/src, and nothing else', async () => {
    for (const file of ['app/src/services/x.ts', 'app/src/main/window.ts', 'app/src/main/preload-2.cts', 'renderer/src/lib/bridge.ts']) {
      expect(await refusals(text, file), file).toEqual([1, 2, 3, 4, 5]);
    }
  });

  it('lets each wrapper import its own object and not the other one', async () => {
    expect(await refusals(text, wrappers.ipcMain)).toEqual([2, 3, 4]);
    expect(await refusals(text, wrappers.ipcRenderer)).toEqual([1, 3, 4, 5]);
  });

  it('says where IPC goes instead', async () => {
    const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: ipcBlocks });
    const [r] = await eslint.lintText("import { ipcMain } from 'electron';\n", { filePath: path.join(root, 'app/src/main/x.ts') });
    expect(r!.messages[0]?.message).toMatch(/Only app\/src\/main\/ipc-main\.ts imports ipcMain.*app\/src\/ipc\/contract\.ts/);
  });

  it('is part of the repository config, and each wrapper still is one', async () => {
    const eslint = new ESLint({ cwd: root });
    const restricted = async (file: string): Promise<string[]> => {
      const rule = ((await eslint.calculateConfigForFile(path.join(root, file))) as Linter.Config).rules?.['no-restricted-imports'];
      return (rule as [unknown, { paths: Array<{ importNames: string[] }> }])[1].paths.flatMap((p) => p.importNames).sort();
    };
    expect(await restricted('app/src/services/quick-test.ts')).toEqual(['default', 'ipcMain', 'ipcRenderer']);
    expect(await restricted('renderer/src/lib/bridge.ts')).toEqual(['default', 'ipcMain', 'ipcRenderer']);
    expect(await restricted(wrappers.ipcMain)).toEqual(['default', 'ipcRenderer']);
    expect(await restricted(wrappers.ipcRenderer)).toEqual(['default', 'ipcMain']);
    // An exception for a file that no longer needs it is a hole kept open for nobody.
    for (const [name, file] of Object.entries(wrappers)) {
      expect(readFileSync(path.join(root, file), 'utf8'), file).toMatch(new RegExp(`import \\{[^}]*\\b${name}\\b[^}]*\\} from 'electron'`));
    }
  });

  // Only a file that names the module can break the rule: those are linted (all of main/, today).
  it('passes the real tree', async () => {
    const files = ['app/src', 'renderer/src']
      .flatMap((dir) => readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f)))
      .filter((f) => /\.(ts|tsx|cts|mts)$/.test(f) && /['"]electron['"]/.test(readFileSync(path.join(root, f), 'utf8')));
    expect(files).toEqual(expect.arrayContaining(Object.values(wrappers)));
    const refused = await Promise.all(files.map(async (f) => [f, await refusals(readFileSync(path.join(root, f), 'utf8'), f)] as const));
    expect(refused.filter(([, lines]) => lines.length > 0)).toEqual([]);
  });
});
