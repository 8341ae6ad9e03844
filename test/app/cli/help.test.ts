// Each command's own help: `diskdial <command> --help`, `-h` and `diskdial help <command>`, as a
// user runs them (the compiled CLI), and the kinds registry's flags under `run --help`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../../app/src/cli/args.js';
import { HELP_TOPICS, commandHelp, fullHelp } from '../../../app/src/cli/help.js';
import { WIZARD_PLATFORMS } from '../../../app/src/core/wizard/platforms.js';
import { platformProvider } from '../../../app/src/core/wizard/platform.js';
import { DEVICE_COMMANDS, RUN_KINDS } from '../../../app/src/model/kinds/registry.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { runCli } from '../../helpers/cli.js';

let home: string;
beforeAll(() => {
  buildCoreIfChanged();
  home = mkdtempSync(path.join(os.tmpdir(), 'dd-help-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(args, { cwd: home, home, timeout: 30_000 });

describe('diskdial <command> --help', () => {
  const commands = [
    'run',
    'hash',
    'check',
    'cipher',
    'serve',
    'history',
    'export',
    'share',
    'import',
    'disks',
    'compare',
    'campaign',
    'report',
    // The whole-disk commands of the kinds that have one (verify --device).
    ...DEVICE_COMMANDS.keys(),
  ];

  it('has a help for every command the CLI parses', () => {
    expect([...HELP_TOPICS].sort()).toEqual([...commands].sort());
  });

  for (const name of commands) {
    it(`${name}: its own usage and examples on stdout, exit 0, with --help, -h and help ${name}`, () => {
      const long = cli(name, '--help');
      expect(long.status).toBe(0);
      expect(long.stderr).toBe('');
      expect(long.stdout.startsWith(`Usage: diskdial ${name}`)).toBe(true);
      expect(long.stdout).toMatch(/\nExamples:\n {2}diskdial /);
      // Not the global help: that one lists every command.
      expect(long.stdout).not.toContain('diskdial --version');
      // -h and `help <command>` parse to the very same help, printed as is (in-process: a CLI
      // started for each of the 26 would cost ~10 s of CI's CPU; `run`'s are started below).
      const parsed = parseCli([name, '--help']);
      expect(parsed).toEqual({ command: 'help', text: expect.any(String) as string });
      expect(long.stdout.trimEnd()).toBe((parsed as { text: string }).text.trimEnd());
      expect(parseCli([name, '-h'])).toEqual(parsed);
      expect(parseCli(['help', name])).toEqual(parsed);
    });
  }

  it('-h and help <command> print what --help prints, as the CLI runs them', () => {
    const long = cli('run', '--help').stdout;
    expect(cli('run', '-h').stdout).toBe(long);
    expect(cli('help', 'run').stdout).toBe(long);
  });

  it('run --help lists every test and every flag a kind claims, with its tests and defaults', () => {
    const text = commandHelp('run');
    for (const k of RUN_KINDS) expect(text).toMatch(new RegExp(`\\n {2}${k.id} +\\S`));
    for (const k of RUN_KINDS)
      for (const f of Object.keys(k.cli?.flags ?? {}))
        expect(text).toMatch(new RegExp(`--${f}( [A-Z]+)? .*\\n(.*\\n)*?.*\\(--test [^)]*${k.id}`));
    expect(text).toContain('--loop');
    expect(text).toContain('(default 1GB for quick, 1GiB otherwise)');
    expect(text).toMatch(/\n {25}cdm: default, nvme, peak, realworld, fast\n {25}files: quick, standard, custom\n/);
    // No line much past a terminal's 80 columns (the option texts run to 97).
    for (const line of fullHelp().split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
  });

  it('a flag several kinds share gives each kind’s bounds from the kind itself, and help.ts names no kind for it', () => {
    const text = commandHelp('run');
    const takers = RUN_KINDS.filter((k) => 'files' in (k.cli?.flags ?? {}));
    expect(takers.length).toBeGreaterThan(1);
    const bounds = takers.map((k) => {
      const range = k.cli?.flagRange?.files;
      expect(range, `${k.id} says what --files it takes`).toMatch(/^\d+-\d+$/);
      return `${k.id}: ${range}`;
    });
    expect(text).toContain(`--files N          how many files (${bounds.join('; ')})`);
    // The words are the parser's own bounds: each end taken, one past it refused.
    for (const k of takers) {
      const [lo, hi] = k.cli!.flagRange!.files!.split('-').map(Number) as [number, number];
      const parse = (n: number) => () =>
        k.cli?.parse?.(
          (f) => (f === 'files' ? String(n) : undefined),
          (f) => f === 'files',
        );
      expect(parse(lo)).not.toThrow();
      expect(parse(hi)).not.toThrow();
      expect(parse(lo - 1)).toThrow();
      expect(parse(hi + 1)).toThrow();
    }
    const source = readFileSync(new URL('../../../app/src/cli/help.ts', import.meta.url), 'utf8');
    // "share" is also a command of its own (the share card), which help.ts describes: for that
    // kind, the words it could name it with as a kind (its --test and its files flag) are checked.
    for (const k of takers.filter((t) => t.id !== 'files')) {
      if (k.id === 'share') expect(source).not.toMatch(/--test share|share: \d|share files/);
      else expect(source).not.toContain(k.id);
    }
  });

  it('options given to a command still show that command’s help', () => {
    const r = cli('run', home, '--size', '1GB', '--help');
    expect(r.status).toBe(0);
    expect(r.stdout.startsWith('Usage: diskdial run')).toBe(true);
  });

  it('an unknown command’s help is an error on stderr, exit 2', () => {
    for (const args of [
      ['frob', '--help'],
      ['help', 'frob'],
    ]) {
      const r = cli(...args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^diskdial: no command "frob"; commands: run, hash, check, cipher, serve, .*\n$/);
    }
  });

  it('--help and help alone print the full help', () => {
    const r = cli('help');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(fullHelp());
    expect(cli('--help').stdout).toBe(fullHelp());
    expect(fullHelp()).toContain('diskdial <command> --help');
  });
});

describe('the format-and-compare line says where the wizard runs', () => {
  it('names every platform with a provider, and no other', async () => {
    const line = /Format and compare \((.*)\):\n/.exec(fullHelp())?.[1] ?? '';
    expect(line).toBe('Linux; macOS and Windows tested on recorded tool output only');
    for (const p of WIZARD_PLATFORMS) expect(await platformProvider(p.platform)).toBeDefined();
    expect(await platformProvider('freebsd')).toBeUndefined();
    expect(commandHelp('compare')).toContain('Format and compare (Linux; macOS and Windows');
  });
});
