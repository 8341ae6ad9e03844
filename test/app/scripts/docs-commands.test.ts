// The commands the docs show work as written. README's `diskdial` lines run, as a shell reads
// them, in a fresh folder with `diskdial` on PATH; its npm lines are the two commands CI itself
// runs. The docs' `diskdial` lines name users' disks (/mnt/ssd, /dev/sdb) so they cannot run here:
// each is parsed by the CLI's own parser (a renamed option or a bad value fails), and every
// `npm run X` they show is a script package.json has.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../../app/src/cli/args.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { bin } from '../../helpers/cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Each command line of the ```sh blocks of a Markdown file: comments cut, `\` continuations joined. */
export function shellLines(markdown: string): string[] {
  const out: string[] = [];
  for (const block of markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)) {
    const joined = block[1]!.replace(/\\\n\s*/g, ' ');
    for (const raw of joined.split('\n')) {
      const line = raw.replace(/\s+#\s.*$/, '').trim();
      if (line && !line.startsWith('#')) out.push(line);
    }
  }
  return out;
}

/** The words of a command line's first command, as sh splits plain and quoted words (no
 *  expansions), up to a redirection or pipe. */
function words(line: string): string[] {
  const all = [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => ({ word: m[1] ?? m[2] ?? m[3]!, plain: m[3] !== undefined }));
  const end = all.findIndex((w) => w.plain && /^(\d?>>?|<|\||&&|;)$/.test(w.word));
  return (end < 0 ? all : all.slice(0, end)).map((w) => w.word);
}

function parseError(argv: string[]): string {
  try {
    parseCli(argv);
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const docs = readdirSync(path.join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => ({ file: `docs/${f}`, lines: shellLines(readFileSync(path.join(root, 'docs', f), 'utf8')) }));
const scripts = Object.keys(
  (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
);

describe("README's commands run as written", () => {
  let dir: string;
  beforeAll(() => {
    buildCoreIfChanged();
    dir = mkdtempSync(path.join(os.tmpdir(), 'diskdial-readme-'));
    mkdirSync(path.join(dir, 'bin'));
    writeFileSync(path.join(dir, 'bin/diskdial'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
    chmodSync(path.join(dir, 'bin/diskdial'), 0o755);
    mkdirSync(path.join(dir, 'work'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const lines = shellLines(readme);
  it('shows the install, start and test commands, and the CLI', () => {
    expect(lines.filter((l) => l.startsWith('npm '))).toEqual(['npm install', 'npm start', 'npm test']);
    expect(lines.filter((l) => l.startsWith('diskdial ')).length).toBeGreaterThanOrEqual(5);
    expect(lines.every((l) => l.startsWith('npm ') || l.startsWith('diskdial '))).toBe(true);
  });

  for (const line of lines.filter((l) => l.startsWith('diskdial '))) {
    it(`runs: ${line}`, () => {
      const r = spawnSync('sh', ['-c', line], {
        cwd: path.join(dir, 'work'),
        encoding: 'utf8',
        timeout: 120_000,
        killSignal: 'SIGKILL',
        env: { ...process.env, PATH: `${path.join(dir, 'bin')}:${process.env.PATH}`, DISKDIAL_HOME: path.join(dir, 'home') },
      });
      expect(r.stderr.split('\n').filter((l) => /error|refused|unknown/i.test(l))).toEqual([]);
      expect(r.status).toBe(0);
      // Nothing a test wrote is left in the folder it ran in.
      expect(readdirSync(path.join(dir, 'work'))).toEqual([]);
    });
  }
});

describe("the docs' commands parse as written", () => {
  it('finds the command blocks', () => {
    expect(docs.find((d) => d.file === 'docs/cli.md')!.lines.length).toBeGreaterThan(20);
  });
  for (const { file, lines } of docs.filter((d) => d.lines.length > 0)) {
    it(file, () => {
      for (const line of lines) {
        const argv = words(line);
        // The one refusal allowed is the example's own disk not being on this machine.
        if (argv[0] === 'diskdial') expect(parseError(argv.slice(1)), line).toMatch(/^$|^No such (folder|file)/);
        if (argv[0] === 'npm' && argv[1] === 'run') expect(scripts, line).toContain(argv[2]);
      }
    });
  }
});

describe('links in README and docs lead somewhere', () => {
  const pages = [
    { file: 'README.md', text: readme },
    ...readdirSync(path.join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => ({ file: `docs/${f}`, text: readFileSync(path.join(root, 'docs', f), 'utf8') })),
  ];
  for (const { file, text } of pages) {
    it(file, () => {
      const broken = [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((t) => !/^(https?|mailto):/.test(t))
        .filter((t) => !existsSync(path.resolve(root, path.dirname(file), t)));
      expect(broken).toEqual([]);
    });
  }
});
