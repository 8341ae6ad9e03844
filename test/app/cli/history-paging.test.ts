// `diskdial history` over many results: pages (--limit/--offset), search (--search), drive, kind
// and date filters (--drive/--kind/--since), sorts (--sort/--reverse), the total in the table and
// the JSON, and each mistake in plain words with exit 2. The compiled CLI in a child process, on
// a history folder of its own.
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../../app/src/cli/args.js';
import type { HistoryListing } from '../../../app/src/model/history.js';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { runCli, type CliRun } from '../../helpers/cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const quick = JSON.parse(readFileSync(path.join(root, 'test/fixtures/results/quick.json'), 'utf8')) as ResultDocument;
const idOf = (i: number): string => `${i.toString(16).padStart(8, '0')}-0000-4000-8000-0000000000cc`;
let tmp: string;
let home: string;

beforeAll(async () => {
  buildCoreIfChanged();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-cli-history-paging-'));
  home = path.join(tmp, 'home');
  const dir = path.join(home, 'results');
  await fsp.mkdir(dir, { recursive: true });
  // 60 results one day apart from 2026-01-01; even ones on drive A, odd ones on drive B.
  for (let i = 0; i < 60; i++) {
    const at = new Date(Date.UTC(2026, 0, 1 + i, 12)).toISOString();
    const device = { ...quick.target.device, serial: i % 2 ? 'DRIVEB' : 'DRIVEA' };
    const doc = { ...quick, id: idOf(i), label: `Nightly ${i}${i === 42 ? ' through the hub' : ''}`, startedAt: at, finishedAt: at };
    await fsp.writeFile(path.join(dir, `${doc.id}.json`), JSON.stringify({ ...doc, target: { ...quick.target, device } }));
  }
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

const cli = (...args: string[]): CliRun => runCli(args, { cwd: tmp, home, timeout: 60_000 });
const listing = (...args: string[]): HistoryListing => {
  const r = cli('history', '--json', ...args);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as HistoryListing;
};
const labels = (l: HistoryListing): string[] => l.entries.map((e) => e.label!);

describe('diskdial history pages, searches and filters', () => {
  it('--limit and --offset page the newest-first list; the JSON says the total and every drive', () => {
    const first = listing('--limit', '20');
    expect(first.total).toBe(60);
    expect(first.offset).toBe(0);
    expect(labels(first)[0]).toBe('Nightly 59');
    expect(first.drives.map((d) => d.count)).toEqual([30, 30]);
    const third = listing('--limit', '20', '--offset', '40');
    expect(labels(third)).toEqual(Array.from({ length: 20 }, (_, i) => `Nightly ${19 - i}`));
    expect(listing('--offset', '60').entries).toEqual([]);
  });

  it('--search finds every word in any case; --kind, --drive and --since narrow; --sort and --reverse order', () => {
    expect(labels(listing('--search', 'HUB nightly'))).toEqual(['Nightly 42 through the hub']);
    expect(listing('--search', 'THROUGH the').total).toBe(1);
    expect(listing('--kind', 'cdm').total).toBe(0);
    expect(listing('--kind', 'quick').total).toBe(60);
    expect(listing('--drive', 'no such drive').total).toBe(0);
    const sinceMarch = listing('--since', '2026-03-01');
    expect(sinceMarch.total).toBe(1); // 2026-03-01 is day 59
    expect(listing('--since', '2026-02-27T12:00Z').total).toBe(3);
    expect(labels(listing('--sort', 'name', '--limit', '3'))).toEqual(['Nightly 0', 'Nightly 1', 'Nightly 10']);
    expect(labels(listing('--sort', 'name', '--reverse', '--limit', '1'))).toEqual(['Nightly 9']);
    expect(labels(listing('--reverse', '--limit', '1'))).toEqual(['Nightly 0']);
  });

  it('the table says which page it shows and how to get the next', () => {
    const r = cli('history', '--limit', '10', '--offset', '10');
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe(`Results 11–20 of 60 in ${path.join(home, 'results')} (--offset 20 for more)`);
    expect(cli('history', '--search', 'no such words').stdout).toBe(`No saved results in ${path.join(home, 'results')} match.\n`);
  });

  it('says each mistake in plain words (exit 2)', () => {
    for (const [args, words] of [
      [['--offset', 'ten'], /--offset must be a whole number of zero or more/],
      [['--limit', '0'], /--limit must be a whole number above zero/],
      [['--since', 'yesterday'], /--since takes a date \(2026-11-01\) or a date and time/],
      [['--since', '2026-13-45'], /--since takes a date/],
      [['--sort', 'speed'], /--sort must be date, name, figure, not "speed"/],
      [['--search', ' '], /--search takes some text/],
    ] as const) {
      const r = cli('history', ...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(words);
    }
  });

  it('parses to the one History query the app and browser mode use', () => {
    expect(parseCli(['history', '--search', 'hub', '--since', '2026-11-01', '--limit', '5', '--offset', '10', '--sort', 'figure'])).toEqual(
      {
        command: 'history',
        action: 'list',
        json: false,
        query: { search: 'hub', since: '2026-11-01T00:00:00.000Z', limit: 5, offset: 10, sort: 'figure' },
      },
    );
  });

  it('--help names every option', () => {
    const help = cli('history', '--help').stdout;
    for (const opt of ['--search', '--since', '--offset', '--limit', '--sort', '--reverse', '--drive', '--kind'])
      expect(help).toContain(opt);
  });
});
