// `diskdial history`, `export`, `share` and `import` as a user runs them (the compiled
// bin/diskdial.js in a child process), on a history folder of their own ($DISKDIAL_HOME).
import { execFileSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../../app/src/cli/args.js';
import type { ResultDocument } from '../../../app/src/model/result.js';
import type { HistoryListing } from '../../../app/src/model/history.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { runCli, type CliRun } from '../../helpers/cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixture = (kind: string): ResultDocument =>
  JSON.parse(readFileSync(path.join(root, 'test/fixtures/results', `${kind}.json`), 'utf8')) as ResultDocument;
let tmp: string;
let home: string;

beforeAll(async () => {
  buildCoreIfChanged();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-cli-history-'));
  home = path.join(tmp, 'home');
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

const cliIn = (dataHome: string, timeout: number, ...args: string[]): CliRun => runCli(args, { cwd: tmp, home: dataHome, timeout });
const cli = (...args: string[]): CliRun => cliIn(home, 60_000, ...args);

describe('diskdial run saves, history lists', () => {
  let runId: string;

  it('a finished run is saved and says so; --no-save keeps it out; --json stays one document', async () => {
    const target = path.join(tmp, 'target');
    await fsp.mkdir(target);
    const r = cli('run', target, '--size', '16MiB', '--label', 'From the CLI');
    expect(r.status).toBe(0);
    const id = /Saved to history as ([0-9a-f]{8})/.exec(r.stdout)?.[1];
    expect(id).toBeDefined();
    const json = cli('run', target, '--size', '16MiB', '--json', '--no-save');
    expect(json.status).toBe(0);
    expect((JSON.parse(json.stdout) as ResultDocument).kind).toBe('quick');
    const listing = JSON.parse(cli('history', '--json').stdout) as HistoryListing;
    expect(listing.entries).toHaveLength(1);
    expect(listing.entries[0]).toMatchObject({ name: 'From the CLI', kind: 'quick', origin: 'local' });
    expect(listing.entries[0]!.id.startsWith(id!)).toBe(true);
    runId = listing.entries[0]!.id;
    expect(listing.dir).toBe(path.join(home, 'results'));
  });

  it('imports exported files, lists them with the table, filters by kind and drive', async () => {
    for (const kind of ['cdm', 'hash']) await fsp.writeFile(path.join(tmp, `${kind}.json`), `${JSON.stringify(fixture(kind), null, 2)}\n`);
    const r = cli('import', path.join(tmp, 'cdm.json'), path.join(tmp, 'hash.json'));
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`cdm.json: imported ${fixture('cdm').id.slice(0, 8)}\nhash.json: imported ${fixture('hash').id.slice(0, 8)}\n`);
    expect(cli('import', path.join(tmp, 'cdm.json')).stdout).toBe('cdm.json: already in history\n');

    const table = cli('history');
    expect(table.status).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+Date \(UTC\)\s+Name\s+Test\s+Drive\s+Figures$/);
    expect(table.stdout).toContain('From the CLI');
    expect(table.stdout).toContain('(imported)');
    expect(table.stdout).toContain('CrystalDiskMark grid');
    expect(lines.at(-1)).toBe(`3 results in ${path.join(home, 'results')}`);
    const cdmOnly = JSON.parse(cli('history', '--json', '--kind', 'cdm').stdout) as HistoryListing;
    expect(cdmOnly.entries.map((e) => e.kind)).toEqual(['cdm']);
    expect((JSON.parse(cli('history', '--json', '--drive', 'no such drive').stdout) as HistoryListing).entries).toEqual([]);
  });

  it('labels and deletes by a short id', () => {
    const short = fixture('hash').id.slice(0, 8);
    const r = cli('history', 'label', short, 'Linux ISO');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${short}  Linux ISO\n`);
    expect(cli('history', 'delete', short).stdout).toBe('Deleted 1 result.\n');
    expect(cli('history', 'delete', short)).toMatchObject({
      status: 2,
      stderr: `diskdial: No saved result has the id "${short}". [ENOENT]\n`,
    });
  });

  it('exports one result or several side by side, to stdout or a file', async () => {
    const md = cli('export', runId.slice(0, 8), '--format', 'md');
    expect(md.status).toBe(0);
    expect(md.stdout).toContain('From the CLI');
    expect(md.stdout).toMatch(/^\|.*\|$/m);
    const out = path.join(tmp, 'both.csv');
    const csv = cli('export', runId.slice(0, 8), fixture('cdm').id.slice(0, 8), '--out', out);
    expect(csv).toMatchObject({ status: 0, stdout: '', stderr: `diskdial: wrote ${out}\n` });
    const rows = (await fsp.readFile(out, 'utf8')).trim().split(/\r?\n/);
    // The Quick Test's "Will it work?" rows (test "will it work") follow its test rows.
    expect(rows.filter((r) => !r.includes(',will it work,')).length).toBe(1 + 2 + fixture('cdm').tests.length);
    expect(rows.filter((r) => r.includes(',will it work,')).length).toBeGreaterThan(80);
    // An exported file works as a reference too, and JSON round-trips exactly.
    const json = cli('export', path.join(tmp, 'cdm.json'), '--format', 'json');
    expect(JSON.parse(json.stdout)).toEqual(fixture('cdm'));
  });

  it('share writes the card as a 2× PNG (or SVG)', async () => {
    const out = path.join(tmp, 'card.png');
    const r = cli('share', runId.slice(0, 8), '--out', out);
    expect(r).toMatchObject({ status: 0, stdout: `${out} (1600 × 900 PNG)\n` });
    const png = PNG.sync.read(await fsp.readFile(out));
    expect([png.width, png.height]).toEqual([1600, 900]);
    const svg = path.join(tmp, 'card.svg');
    expect(cli('share', path.join(tmp, 'cdm.json'), '--out', svg, '--scale', '1').status).toBe(0);
    expect(await fsp.readFile(svg, 'utf8')).toMatch(/^<svg[^>]+width="800" height="450"/);
    // No --out: the card's own name in the current folder.
    const plain = cli('share', runId.slice(0, 8));
    expect(plain.stdout).toMatch(new RegExp(`^${tmp}/diskdial-quick-\\d{4}-\\d\\d-\\d\\d\\.png \\(1600 × 900 PNG\\)\\n$`));
  });

  // Eleven CLI processes one after another: the budget is per process start, not the default per test.
  it('answers mistakes with one line and exit 2', { timeout: 11 * 15_000 }, async () => {
    await fsp.writeFile(path.join(tmp, 'future.json'), JSON.stringify({ ...fixture('quick'), schema: 2 }));
    const cases: Array<[string[], string]> = [
      [['export', runId.slice(0, 8)], '--format must be one of md, txt, csv, json, html'],
      [['export', runId.slice(0, 8), '--format', 'pdf'], '--format must be one of md, txt, csv, json, html, not "pdf"'],
      [['export'], 'export needs a result: an id from diskdial history, or an exported .json file'],
      [['share', 'abc', '--out', 'card.jpg'], '--out must end in .png or .svg'],
      [['share', 'abc', '--scale', '9'], '--scale must be 1, 2, 3 or 4, not "9"'],
      [
        ['share', path.join(tmp, 'future.json')],
        `${path.join(tmp, 'future.json')}: It was made by a newer DiskDial (result schema 2); this version reads schema 1. Update DiskDial to open it.`,
      ],
      [['share', './missing.json'], `No such file: ${path.join(tmp, 'missing.json')}. Check the path, or choose another file. [ENOENT]`],
      [
        ['import', path.join(tmp, 'future.json')],
        'future.json cannot be imported: It was made by a newer DiskDial (result schema 2); this version reads schema 1. Update DiskDial to open it.',
      ],
      [['history', 'rename'], 'unknown history action "rename"; use list, label or delete'],
      [['history', '--bogus'], 'unknown option --bogus; see diskdial --help'],
      [['--json', 'history'], 'options go after "history": diskdial history …'],
    ];
    for (const [args, message] of cases) {
      const r = cli(...args);
      expect({ args, status: r.status, stderr: r.stderr }).toEqual({ args, status: 2, stderr: `diskdial: ${message}\n` });
    }
  });

  it('lists with a warning, not a crash, when a file in history is damaged', async () => {
    await fsp.writeFile(path.join(home, 'results', 'broken.json'), '{"schema": 1, "id": "broken"');
    const r = cli('history');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      `diskdial: skipped ${path.join(home, 'results', 'broken.json')}: The file ends too soon: it is not complete JSON (cut short?).\n`,
    );
    expect(r.stdout).toContain('From the CLI');
  });
});

describe('a hostile history folder', () => {
  // Control characters a terminal acts on (ESC, the one-byte CSI, BEL, …); line breaks are fine.
  // eslint-disable-next-line no-control-regex -- the test looks for control characters
  const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/;
  let hostile: string;
  let results: string;
  const doc = (): ResultDocument => {
    const d = fixture('quick');
    // Written straight into the folder (not imported, so not cleaned): what a crafted file holds.
    d.label = '\x1b[2J\x1b[31mRed\x1b[0m name\x07\x01';
    d.target.device.model = '\x1b]0;pwned\x07Disk\x9b6n';
    return d;
  };

  beforeAll(async () => {
    hostile = path.join(tmp, 'hostile-home');
    results = path.join(hostile, 'results');
    await fsp.mkdir(results, { recursive: true });
    await fsp.writeFile(path.join(results, `${doc().id}.json`), JSON.stringify(doc()));
    execFileSync('mkfifo', [path.join(results, 'pipe.json')]);
    await fsp.symlink('/dev/zero', path.join(results, 'zero.json'));
    await fsp.writeFile(path.join(results, '\x1b[31mname.json'), 'root:*:20250:0:99999:7:::');
  });

  it('history lists at once, past a FIFO and a link to /dev/zero, and prints no control character', () => {
    const r = cliIn(hostile, 20_000, 'history');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Red name');
    expect(r.stdout).not.toMatch(CONTROL);
    expect(r.stderr).not.toMatch(CONTROL);
    expect(r.stderr).not.toContain('root:');
    expect(r.stderr).toContain(`skipped ${path.join(results, 'pipe.json')}: It is not a regular file`);
    expect(r.stderr).toContain(`skipped ${path.join(results, 'zero.json')}: It is a symbolic link`);
    expect(r.stderr).toContain(`skipped ${path.join(results, 'name.json')}: It is not JSON.`);
    const json = cliIn(hostile, 20_000, 'history', '--json');
    expect(json.stdout).not.toMatch(CONTROL);
    expect((JSON.parse(json.stdout) as HistoryListing).entries[0]!.label).toBe(doc().label);
  });

  it('a short id is found past them; its exports and its card work', () => {
    const short = doc().id.slice(0, 8);
    for (const format of ['md', 'txt', 'csv']) {
      const r = cliIn(hostile, 20_000, 'export', short, '--format', format);
      expect({ format, status: r.status }).toEqual({ format, status: 0 });
      expect(r.stdout).toContain('Red');
      expect(r.stdout).not.toMatch(CONTROL);
    }
    const svg = path.join(tmp, 'hostile.svg');
    expect(cliIn(hostile, 60_000, 'share', short, '--out', svg, '--scale', '1').status).toBe(0);
  });

  it('label: over 200 characters is refused with the limit; a kept label is plain', () => {
    const short = doc().id.slice(0, 8);
    expect(cliIn(hostile, 20_000, 'history', 'label', short, 'x'.repeat(201))).toMatchObject({
      status: 2,
      stderr: 'diskdial: A label holds at most 200 characters; this one has 201.\n',
    });
    expect(cliIn(hostile, 20_000, 'history', 'label', short, '\x1b[1mBold\x1b[0m move')).toMatchObject({
      status: 0,
      stdout: `${short}  Bold move\n`,
    });
  });

  it('run --label follows the same rule: at most 200 characters, made plain', () => {
    expect(() => parseCli(['run', tmp, '--label', 'x'.repeat(201)])).toThrow(
      '--label: A label holds at most 200 characters; this one has 201.',
    );
    expect(parseCli(['run', tmp, '--label', '\x1b[31mOn the\x07 hub'])).toMatchObject({ label: 'On the hub' });
  });

  it('import of a bundle whose second result conflicts imports nothing and names it', async () => {
    const fresh = fixture('hash');
    const clash = { ...doc(), tests: doc().tests.slice(1) };
    const file = path.join(tmp, 'clash.json');
    await fsp.writeFile(file, JSON.stringify({ format: 'diskdial-comparison', schema: 1, results: [fresh, clash] }));
    const r = cliIn(hostile, 20_000, 'import', file);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `diskdial: clash.json holds a result whose id (${clash.id}) is already in history with different figures: result 2 of 2 (id ${clash.id}). Nothing was imported.\n`,
    );
    const listing = JSON.parse(cliIn(hostile, 20_000, 'history', '--json').stdout) as HistoryListing;
    expect(listing.entries.map((e) => e.id)).toEqual([doc().id]);
  });
});
