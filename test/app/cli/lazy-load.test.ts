// Each `diskdial` command loads only its own code (cli/main.ts imports a command's modules in its
// branch): `--help` and `history` never load the engine, the services, the wizard or the server,
// which cost every start about 0.2 s of CPU when main.ts imported them all. bin/diskdial.js runs
// the bundle (scripts/bundle-cli.mjs): each chunk it loads stands for the modules its meta.json
// says the chunk holds.
import { spawnSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { bin, root } from '../../helpers/cli.js';

let tmp: string;
let hook: string;

beforeAll(async () => {
  buildCoreIfChanged();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-lazy-'));
  // A module hook in the child: every module it loads from dist/, written out when it exits.
  hook = path.join(tmp, 'hook.mjs');
  await fsp.writeFile(
    hook,
    `import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const seen = [];
registerHooks({ load(url, ctx, next) { const at = url.indexOf('/dist/'); if (at >= 0) seen.push(url.slice(at + 6)); return next(url, ctx); } });
process.on('exit', () => writeFileSync(process.env.LOADED_OUT, JSON.stringify(seen)));
`,
  );
}, 120_000);
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

/** The dist/ modules `diskdial ...args` loaded (it must exit 0). */
function loaded(...args: string[]): string[] {
  const out = path.join(tmp, 'loaded.json');
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, bin, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, DISKDIAL_HOME: path.join(tmp, 'home'), LOADED_OUT: out },
  });
  expect(r.status, r.stderr).toBe(0);
  const chunks = JSON.parse(readFileSync(out, 'utf8')) as string[];
  expect(chunks).toContain('cli-bundle/main.js');
  const meta = JSON.parse(readFileSync(path.join(root, 'dist/cli-bundle/meta.json'), 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, unknown> }>;
  };
  return chunks.flatMap((c) => Object.keys(meta.outputs[`dist/${c}`]?.inputs ?? {}).map((m) => m.replace(/^dist\//, '')));
}

const heavy =
  /^(core\/engine|core\/runner|core\/check-run|services\/|server\/|cli\/(serve-command|wizard-commands|history-commands|check-command|table|progress))/;

describe('diskdial loads only what the command needs', () => {
  it('--help: the argument parser and the model, nothing that runs a test, a wizard or a server', () => {
    const mods = loaded('--help');
    expect(mods).toContain('cli/args.js');
    expect(mods.filter((m) => heavy.test(m))).toEqual([]);
  });

  it('history --json: the history commands and store, not the engine, the services or the server', () => {
    const mods = loaded('history', '--json');
    expect(mods).toContain('cli/history-commands.js');
    expect(mods).toContain('core/history.js');
    expect(mods.filter((m) => heavy.test(m) && m !== 'cli/history-commands.js')).toEqual([]);
  });

  it('--version: the engine (it reports its version), not the services or the server', () => {
    const mods = loaded('--version');
    expect(mods).toContain('core/engine.js');
    expect(mods.filter((m) => heavy.test(m) && m !== 'core/engine.js')).toEqual([]);
  });

  it('check: its command and the folder check, not the server, the wizard, the history commands or the report tables', async () => {
    const dir = path.join(tmp, 'check-me');
    await fsp.mkdir(dir, { recursive: true });
    await fsp.writeFile(path.join(dir, 'a'), 'a');
    const mods = loaded('check', dir, '--no-save', '--json');
    expect(mods).toContain('cli/check-command.js');
    expect(mods).toContain('core/check-run.js');
    expect(mods.filter((m) => /^(server\/|cli\/(serve-command|wizard-commands|history-commands|table|progress))/.test(m))).toEqual([]);
  });
});
