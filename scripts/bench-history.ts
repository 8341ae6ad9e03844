// How History scales: 1,000 / 10,000 / 50,000 saved results (copies of one real Quick Test with new
// ids, labels, dates and drives) in a temp data folder. For each size: the CLI's first page and a
// search, the cold index build from the files, the repair after 100 files are added and 100
// removed behind its back, and, in Chromium against `diskdial serve`, the History screen's time to
// its first rows, the rows in the DOM, and the frame gaps while scrolling. The method is in
// docs/benchmarks.md.
//   npm run build:ts && npm run bench:history [-- --sizes 1000,10000 --rounds 3 --no-screen]
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'bin/diskdial.js');
const INDEX = '.history-index.sqlite';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const sizes = (option('--sizes') ?? '1000,10000,50000').split(',').map(Number);
const rounds = Number(option('--rounds') ?? 3);
const screen = !process.argv.includes('--no-screen');
if (sizes.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(rounds) || rounds < 1)
  throw new Error('--sizes takes whole numbers (1000,10000) and --rounds a whole number of 1 or more');

const template = JSON.parse(readFileSync(path.join(root, 'test/fixtures/results/quick.json'), 'utf8')) as Record<string, unknown>;
const DRIVES = 20;

/** The i-th copy: a new id, a label, a date one minute apart, one of DRIVES drives by serial. */
function copyOf(i: number): { id: string; text: string } {
  const id = randomUUID();
  const target = structuredClone(template.target) as { device: Record<string, unknown> };
  target.device.serial = `BENCH${String(i % DRIVES).padStart(4, '0')}`;
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  const doc = { ...template, id, label: `Bench run ${i}`, startedAt: at, finishedAt: at, target };
  return { id, text: `${JSON.stringify(doc, null, 2)}\n` };
}

const ms = (t0: number): number => performance.now() - t0;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One CLI call's wall time in ms, or NaN when this build does not know the options (before). */
function timeCli(home: string, args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, ...args], {
    env: { ...process.env, DISKDIAL_HOME: home },
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const took = ms(t0);
  if (r.status === 2) return NaN;
  if (r.status !== 0) throw new Error(`diskdial ${args.join(' ')} exited ${r.status}: ${r.stderr.trim().split('\n').at(-1)}`);
  return took;
}

const FIRST_PAGE = ['history', '--limit', '50', '--json'];
const SEARCH = ['history', '--search', 'bench run 4242', '--limit', '50', '--json'];

interface Row {
  n: number;
  create: number;
  /** `diskdial --version`: the start-up every CLI figure includes. */
  startup: number;
  /** In this process: a new store's first page and search (open the index, reconcile, query). */
  inPage: number;
  inSearch: number;
  cold: number;
  page: number;
  search: number;
  repair: number;
  firstRows?: number;
  /** The same click once the app has settled (its target list shown, then 1 s): the History
   *  screen's own time, without the app's start-up (the engine's child process starting for its
   *  version, the target list, the dials' History lookup) competing for the two cores. */
  firstRowsSettled?: number;
  domRows?: number;
  frameP95?: number;
  lastRow?: number;
}

/** Opens History in Chromium; `oldest` is the id the list ends with once scrolled to the end. */
async function measureScreen(
  home: string,
  oldest: string,
): Promise<Pick<Row, 'firstRows' | 'firstRowsSettled' | 'domRows' | 'frameP95' | 'lastRow'>> {
  const { openApp } = await import('../test/e2e/helpers/harness.js');
  const settled = await openApp({ home });
  let firstRowsSettled: number;
  try {
    await settled.page.getByRole('button', { name: /Target:/ }).waitFor({ timeout: 60_000 });
    await settled.page.waitForTimeout(1000);
    const t0 = performance.now();
    await settled.page.getByTestId('nav-history').click();
    await settled.page.getByTestId('history-row').first().waitFor({ timeout: 600_000 });
    firstRowsSettled = ms(t0);
  } finally {
    await settled.close();
  }
  const app = await openApp({ home });
  try {
    const { page } = app;
    const t0 = performance.now();
    await page.getByTestId('nav-history').click();
    await page.getByTestId('history-row').first().waitFor({ timeout: 600_000 });
    const firstRows = ms(t0);
    const domRows = await page.getByTestId('history-row').count();
    // Scroll to the end in 40 steps, one per frame, recording the gaps between frames; then wait
    // for the oldest result to be in the page.
    const box = page.getByTestId('history-scroll');
    const scroller = (await box.count()) > 0 ? box : page.locator('#screen-history');
    const gaps = await scroller.evaluate(async (el) => {
      const scrollEl = el.scrollHeight > el.clientHeight ? el : (document.scrollingElement as HTMLElement);
      const out: number[] = [];
      let last = performance.now();
      for (let i = 1; i <= 40; i++) {
        scrollEl.scrollTop = (scrollEl.scrollHeight * i) / 40;
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        out.push(now - last);
        last = now;
      }
      return out;
    });
    const t1 = performance.now();
    await page.locator(`[data-testid="history-row"][data-id="${oldest}"]`).waitFor({ state: 'attached', timeout: 600_000 });
    const lastRow = ms(t1);
    const sorted = gaps.sort((a, b) => a - b);
    return { firstRows, firstRowsSettled, domRows, frameP95: sorted[Math.floor(sorted.length * 0.95)]!, lastRow };
  } finally {
    await app.close();
  }
}

/** A new store's query in this process, `rounds` times (ms each); NaN where the store has no query (before). */
async function inProcess(dir: string, rounds: number, q: Record<string, unknown>): Promise<number[]> {
  const { HistoryStore } = (await import('../app/src/core/history.js')) as unknown as {
    HistoryStore: new (dir: string) => { query?(q: unknown): Promise<unknown>; close?(): void };
  };
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const store = new HistoryStore(dir);
    if (!store.query) return [NaN];
    const t0 = performance.now();
    await store.query(q);
    out.push(ms(t0));
    store.close?.();
  }
  return out;
}

async function main(): Promise<void> {
  if (!existsSync(path.join(root, 'dist/cli/main.js'))) throw new Error('dist/ is not built: npm run build:ts');
  const base = mkdtempSync(path.join(os.tmpdir(), 'diskdial-bench-history-'));
  const cleanup = () => rmSync(base, { recursive: true, force: true });
  process.on('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  const rows: Row[] = [];
  try {
    for (const n of sizes) {
      const home = path.join(base, String(n));
      const dir = path.join(home, 'results');
      mkdirSync(dir, { recursive: true });
      const t0 = performance.now();
      const made: string[] = [];
      for (let i = 0; i < n; i++) {
        const { id, text } = copyOf(i);
        writeFileSync(path.join(dir, `${id}.json`), text);
        made.push(id);
      }
      const create = ms(t0);
      process.stderr.write(`${n}: created in ${(create / 1000).toFixed(1)} s\n`);
      // Cold: no index (the first listing builds it, where this build has one).
      rmSync(path.join(dir, INDEX), { force: true });
      const cold = timeCli(home, FIRST_PAGE);
      const page = median(Array.from({ length: rounds }, () => timeCli(home, FIRST_PAGE)));
      const search = median(Array.from({ length: rounds }, () => timeCli(home, SEARCH)));
      // Behind its back: the oldest 100 removed, 100 newer added.
      for (const id of made.slice(0, 100)) unlinkSync(path.join(dir, `${id}.json`));
      for (let i = n; i < n + 100; i++) {
        const { id, text } = copyOf(i);
        writeFileSync(path.join(dir, `${id}.json`), text);
      }
      const repair = timeCli(home, FIRST_PAGE);
      const startup = median(Array.from({ length: rounds }, () => timeCli(home, ['--version'])));
      const inPage = median(await inProcess(dir, rounds, { limit: 50 }));
      const inSearch = median(await inProcess(dir, rounds, { search: 'bench run 4242', limit: 50 }));
      const row: Row = { n, create, startup, cold, page, search, repair, inPage, inSearch };
      if (screen) Object.assign(row, await measureScreen(home, made[Math.min(100, n - 1)]!));
      rows.push(row);
      process.stderr.write(`${n}: ${JSON.stringify(row)}\n`);
      rmSync(home, { recursive: true, force: true });
    }
  } finally {
    cleanup();
  }
  const f = (x: number | undefined, unit = 'ms'): string =>
    x === undefined ? '—' : Number.isNaN(x) ? 'n/a' : `${Math.round(x).toLocaleString('en-US')} ${unit}`;
  const head = [
    'results',
    'create files',
    'CLI start-up',
    'CLI cold (1st list)',
    'CLI first page',
    'CLI search',
    'CLI repair ±100',
    'in-process page',
    'in-process search',
    'screen: first rows (at load)',
    'first rows (settled)',
    'rows in DOM',
    'frame gap p95',
    'to last row',
  ];
  const lines = rows.map((r) =>
    [
      r.n.toLocaleString('en-US'),
      f(r.create),
      f(r.startup),
      f(r.cold),
      f(r.page),
      f(r.search),
      f(r.repair),
      f(r.inPage),
      f(r.inSearch),
      f(r.firstRows),
      f(r.firstRowsSettled),
      r.domRows === undefined ? '—' : String(r.domRows),
      f(r.frameP95),
      f(r.lastRow),
    ].join(' | '),
  );
  process.stdout.write(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|\n${lines.map((l) => `| ${l} |`).join('\n')}\n`);
  process.stdout.write(
    `\nNode ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), medians of ${rounds} CLI runs.\n`,
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench-history: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
