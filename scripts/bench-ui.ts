// DiskDial UI smoothness benchmark (not a test: figures measured in one run, never fails the build).
// `npm run bench:ui -- --help`; method and results in docs/benchmarks.md (UI smoothness).
//
// Drives the served UI (`diskdial serve`, the real engine) in Debian's Chromium at 1440×900 and,
// for each scenario, records every animation frame's interval (requestAnimationFrame), every long
// task (PerformanceObserver 'longtask') and a DevTools trace: each task over 50 ms on the page's
// main thread is split into what ran inside it (script by function, style and layout, paint, GC).
// The reference is the same page idle for the same time, measured first in the same run: the
// ratios say what a running test costs the page, on this machine as it is right now.
//
// Scenarios: idle (the reference), a continuous Quick Test, a CrystalDiskMark grid (16 MiB, 1 s a
// test) and a transfer-size sweep (0.5 s a step), each on a folder of --dir.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { log, makeBenchDir, parseArgv, runMain, table } from './bench/common.js';

const HELP = `usage: npm run bench:ui -- [options]

  --dir DIR        where the test files go (a fresh folder inside DIR; default /var/tmp)
  --seconds N      how long the idle reference and the continuous Quick Test are recorded (default 15)
  --profile        also a JS CPU profile of each scenario: the functions with the most time inside
                   them (React components are the capitalised names; build the UI unminified
                   first for readable names: npx vite build --config renderer/vite.config.ts --minify false)
  --only LIST      the scenarios to run besides the idle reference, comma-separated: quick, cdm,
                   sweep (default all three)
  --css TEXT       a stylesheet added to the page before recording: what a part costs, by hiding it
                   or dropping an effect (--css '.chart-card{display:none}')
  --json           the figures as JSON on stdout
  --help`;

interface Options {
  seconds: number;
  profile: boolean;
  only: string;
  css: string;
}

const SCENARIOS = ['quick', 'cdm', 'sweep'] as const;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** The functions with the most samples inside them (inclusive), capitalised ones (components)
 *  and the rest, each counted once per sample even when it recurses. */
function topFunctions(nodes: ProfileNode[], samples: number[], intervalMs: number): string[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  for (const id of samples) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)!.callFrame.functionName;
      if (name && !seen.has(name)) seen.add(name);
    }
    for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + intervalMs);
  }
  const rank = (keep: (n: string) => boolean): string =>
    [...inclusive.entries()]
      .filter(([n]) => keep(n))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([n, ms]) => `${n} ${ms.toFixed(0)} ms`)
      .join(', ');
  // Self time by the module a sample's own function came from: an unminified build marks each
  // module with a `// path` line, so react-dom's reconciling is told apart from recharts' and ours.
  const self = new Map<string, number>();
  for (const id of samples) {
    const f = byId.get(id)!.callFrame;
    const m = moduleAt(f.url, f.lineNumber);
    self.set(m, (self.get(m) ?? 0) + intervalMs);
  }
  const modules = [...self.entries()]
    .filter(([m]) => m !== '')
    .sort((a, b) => b[1] - a[1])
    .slice(0, 14)
    .map(([m, ms]) => `${m} ${ms.toFixed(0)} ms`)
    .join(', ');
  return [
    `components: ${rank((n) => /^[A-Z][a-z]/.test(n))}`,
    `functions: ${rank((n) => !/^[A-Z][a-z]/.test(n))}`,
    `modules (self): ${modules}`,
  ];
}

const moduleLines = new Map<string, Array<[number, string]>>();
/** The module a line of the served bundle belongs to ('' outside the bundle, '?' minified). */
function moduleAt(url: string, line: number): string {
  if (!/\/assets\/[^/]+\.js$/.test(url)) return '';
  const file = path.join(process.cwd(), 'dist/renderer/assets', path.basename(url));
  if (!moduleLines.has(file)) {
    const marks: Array<[number, string]> = [];
    try {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((l, i) => {
          const m = /^\/\/ ((?:node_modules|app|renderer)\/\S+)/.exec(l);
          if (m) marks.push([i, m[1]!.replace(/^node_modules\/((?:@[^/]+\/)?[^/]+)\/.*/, '$1')]);
        });
    } catch {
      // a bundle built elsewhere: no module names
    }
    moduleLines.set(file, marks);
  }
  const marks = moduleLines.get(file)!;
  let name = '?';
  for (const [at, m] of marks) {
    if (at > line) break;
    name = m;
  }
  return name;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { name?: string; data?: { functionName?: string; url?: string; lineNumber?: number; columnNumber?: number } };
}

interface Scenario {
  name: string;
  frames: number;
  fps: number;
  p99Ms: number;
  worstMs: number;
  longTasks: number;
  longestTaskMs: number;
  /** Tasks over 50 ms once Stop was pressed (the test's end), apart from those while it ran. */
  afterEnd: number[];
  /** For each task over 50 ms: its length and the three biggest things inside it. */
  attribution: string[];
  /** What the page's threads did during the worst frame. */
  worstFrame: string;
  /** The main thread's time, by what it did. */
  busy: string;
  /** With --profile: where the page's script time went. */
  profile?: string[];
  /** Elements that moved while recording (layout-shift sources): when, what, from and to y. */
  shifts: string[];
}

/** What a trace event inside a long task is, for the attribution: a function, or a kind of work. */
function label(e: TraceEvent): string {
  const d = e.args?.data;
  if (e.name === 'FunctionCall' && d)
    return `script ${d.functionName || '(anonymous)'} @${path.basename(d.url ?? '')}:${d.lineNumber ?? 0}`;
  if (e.name === 'EventDispatch' || e.name === 'TimerFire' || e.name === 'FireAnimationFrame') return '';
  if (/GC/.test(e.name)) return 'garbage collection';
  if (e.name === 'Layout') return 'layout';
  if (e.name === 'UpdateLayoutTree' || e.name === 'RecalculateStyles') return 'style';
  if (e.name === 'Paint' || e.name === 'PaintImage' || e.name === 'Layerize' || e.name === 'UpdateLayer') return 'paint';
  return '';
}

/** Where the page's main thread spent a scenario, by self time: script, style, layout, paint and
 *  GC, and the rest by the trace's own names (Commit, PrePaint, HitTest…; a task's own overhead
 *  is "task"). Parts under 5 ms are left out. */
function breakdown(events: TraceEvent[]): string {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return '';
  const list = events.filter((e) => e.tid === main.tid && e.pid === main.pid && e.ph === 'X' && e.dur !== undefined);
  const sums = new Map<string, number>();
  const kind = (e: TraceEvent): string => {
    if (e.name === 'RunTask') return 'task';
    if (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || /^v8|^V8/.test(e.name)) return 'script';
    return label(e) || e.name;
  };
  // Self time: each event less the events nested directly inside it.
  list.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const stack: Array<{ e: TraceEvent; child: number }> = [];
  const close = (until: number): void => {
    while (stack.length > 0 && stack.at(-1)!.e.ts + stack.at(-1)!.e.dur! <= until) {
      const top = stack.pop()!;
      const k = kind(top.e);
      sums.set(k, (sums.get(k) ?? 0) + (top.e.dur! - top.child) / 1000);
      if (stack.length > 0) stack.at(-1)!.child += top.e.dur!;
    }
  };
  for (const e of list) {
    close(e.ts);
    stack.push({ e, child: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  return [...sums.entries()]
    .filter(([, ms]) => ms >= 5)
    .sort((a, b) => b[1] - a[1])
    .map(([l, ms]) => `${l} ${ms.toFixed(0)} ms`)
    .join(', ');
}

/** What each of the page's threads was busy with during the worst frame (a trace mark at a known
 *  page time maps the page's clock onto the trace's). */
function inWorstFrame(events: TraceEvent[], rec: { frames: number[]; ends: number[]; sync: number }): string {
  const mark = events.find((e) => e.name === 'dd-sync' || (e.name === 'TimeStamp' && JSON.stringify(e.args ?? {}).includes('dd-sync')));
  if (!mark || rec.frames.length === 0) return '';
  const i = rec.frames.indexOf(Math.max(...rec.frames));
  const toTrace = (ms: number): number => mark.ts + (ms - rec.sync) * 1000;
  const [a, b] = [toTrace(rec.ends[i]! - rec.frames[i]!), toTrace(rec.ends[i]!)];
  const names = new Map<string, string>();
  for (const e of events) if (e.name === 'thread_name' && e.args?.name) names.set(`${e.pid}:${e.tid}`, e.args.name);
  const byThread = new Map<string, Map<string, number>>();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined || e.ts + e.dur < a || e.ts > b) continue;
    const t = names.get(`${e.pid}:${e.tid}`) ?? `${e.tid}`;
    const m = byThread.get(t) ?? new Map<string, number>();
    byThread.set(t, m);
    m.set(e.name, (m.get(e.name) ?? 0) + (Math.min(b, e.ts + e.dur) - Math.max(a, e.ts)) / 1000);
  }
  const parts = [...byThread.entries()].map(([t, m]) => {
    const top = [...m.entries()].sort((x, y) => y[1] - x[1]).slice(0, 3);
    return `${t}: ${top.map(([n, ms]) => `${n} ${ms.toFixed(0)} ms`).join(', ')}`;
  });
  return `${rec.frames[i]!.toFixed(0)} ms at ${((rec.ends[i]! - rec.sync) / 1000).toFixed(1)} s; ${parts.join('; ') || 'no thread busy'}`;
}

/** [start, end] in µs of each task over 50 ms on the page's main thread. */
function longTaskWindows(events: TraceEvent[]): Array<[number, number]> {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return [];
  return events
    .filter((e) => e.tid === main.tid && e.pid === main.pid && e.name === 'RunTask' && e.ph === 'X' && (e.dur ?? 0) > 50_000)
    .map((e) => [e.ts, e.ts + e.dur!]);
}

/** The long tasks of the page's main thread in a trace, each split into its largest parts. */
function attribute(events: TraceEvent[]): string[] {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return [];
  const mine = events.filter((e) => e.tid === main.tid && e.pid === main.pid && e.ph === 'X' && e.dur !== undefined);
  const tasks = mine.filter((e) => e.name === 'RunTask' && e.dur! > 50_000);
  return tasks.map((t) => {
    const parts = new Map<string, number>();
    for (const e of mine) {
      if (e === t || e.ts < t.ts || e.ts + e.dur! > t.ts + t.dur!) continue;
      const l = label(e);
      if (l) parts.set(l, (parts.get(l) ?? 0) + e.dur! / 1000);
    }
    const top = [...parts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
    return `${(t.dur! / 1000).toFixed(0)} ms: ${top.map(([l, ms]) => `${l} ${ms.toFixed(0)} ms`).join('; ') || 'nothing attributed'}`;
  });
}

/** The recorder the page runs, as text: tsx would wrap named functions in a helper the page lacks. */
const RECORDER = `(() => {
  const b = (window.ddBench = { frames: [], ends: [], longTasks: [], afterEnd: [], stop: false, endAt: Infinity, sync: 0, shifts: [] });
  let last = 0;
  function tick(now) {
    if (b.stop) return;
    if (last && now <= b.endAt) (b.frames.push(now - last), b.ends.push(now));
    last = now;
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) (e.startTime <= b.endAt ? b.longTasks : b.afterEnd).push(e.duration);
  }).observe({ type: 'longtask' });
  // What moved on the page: a shift re-rasterises everything it moves (the worst frames at Start).
  const describe = (n) => {
    if (!n || !n.nodeType) return '(gone)';
    const el = n.nodeType === 1 ? n : n.parentElement;
    if (!el) return '(text)';
    const id = el.getAttribute('data-testid') || el.id;
    return el.tagName.toLowerCase() + (id ? '#' + id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).slice(0, 2).join('.') : '');
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      for (const s of e.sources || [])
        b.shifts.push({ at: e.startTime, what: describe(s.node), from: s.previousRect.y, to: s.currentRect.y, h: s.currentRect.height, w: s.currentRect.width });
  }).observe({ type: 'layout-shift' });
})()`;

async function startRecording(page: Page, cdp: CDPSession, profile: boolean): Promise<void> {
  await page.evaluate(RECORDER);
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
  }
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink.user_timing',
    transferMode: 'ReturnAsStream',
  });
  // A mark in the trace at a known page time: the worst frame is then found in the trace.
  await page.evaluate(() => {
    (window as unknown as { ddBench: { sync: number } }).ddBench.sync = performance.now();
    performance.mark('dd-sync');
  });
}

async function stopRecording(page: Page, cdp: CDPSession, name: string, profile: boolean): Promise<Scenario> {
  let prof: string[] | undefined;
  let cpu: { nodes: ProfileNode[]; samples?: number[]; startTime: number; timeDeltas?: number[] } | undefined;
  if (profile) {
    cpu = ((await cdp.send('Profiler.stop')) as unknown as { profile: NonNullable<typeof cpu> }).profile;
    prof = topFunctions(cpu.nodes, cpu.samples ?? [], 0.5);
  }
  const done = new Promise<string>((resolve) => cdp.once('Tracing.tracingComplete', (e: { stream?: string }) => resolve(e.stream ?? '')));
  await cdp.send('Tracing.end');
  const stream = await done;
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text) as TraceEvent[] | { traceEvents: TraceEvent[] };
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  if (cpu && prof) {
    // The samples inside the long tasks alone (the profile and the trace share one clock, in µs).
    const windows = longTaskWindows(events);
    let t = cpu.startTime;
    const inside = (cpu.samples ?? []).filter((_, i) => {
      t += cpu!.timeDeltas?.[i] ?? 0;
      return windows.some(([a, b]) => t >= a && t <= b);
    });
    if (inside.length > 0) prof.push(...topFunctions(cpu.nodes, inside, 0.5).map((x) => `inside the tasks over 50 ms, ${x}`));
  }
  const rec = await page.evaluate(() => {
    const w = window as unknown as {
      ddBench: {
        frames: number[];
        ends: number[];
        longTasks: number[];
        afterEnd: number[];
        stop: boolean;
        sync: number;
        shifts: Array<{ at: number; what: string; from: number; to: number; h: number; w: number }>;
      };
    };
    w.ddBench.stop = true;
    const { frames, ends, longTasks, afterEnd, sync, shifts } = w.ddBench;
    return { frames, ends, longTasks, afterEnd, sync, shifts };
  });
  const sorted = [...rec.frames].sort((a, b) => a - b);
  const total = rec.frames.reduce((a, b) => a + b, 0);
  return {
    name,
    frames: rec.frames.length,
    fps: total > 0 ? (rec.frames.length / total) * 1000 : 0,
    p99Ms: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0,
    worstMs: sorted.at(-1) ?? 0,
    longTasks: rec.longTasks.length,
    longestTaskMs: Math.max(0, ...rec.longTasks),
    afterEnd: rec.afterEnd,
    attribution: attribute(events),
    busy: breakdown(events),
    worstFrame: inWorstFrame(events, rec),
    shifts: rec.shifts.map(
      (x) =>
        `${((x.at - rec.sync) / 1000).toFixed(1)} s ${x.what} y ${x.from.toFixed(0)} → ${x.to.toFixed(0)} (${x.w.toFixed(0)}×${x.h.toFixed(0)})`,
    ),
    ...(prof ? { profile: prof } : {}),
  };
}

/** Waits until the panel's Start button says Start again (the job ended). */
async function waitIdle(page: Page, testId: string): Promise<void> {
  await page.waitForFunction((id) => /Start/.test(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''), testId, {
    timeout: 300_000,
  });
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  // A switch without a value: parseArgv's flags all take one.
  const opts: Options = { seconds: 15, profile: argv.includes('--profile'), only: SCENARIOS.join(','), css: '' };
  const common = parseArgv(
    argv.filter((a) => a !== '--profile'),
    HELP,
    opts,
    { numbers: { '--seconds': 'seconds' }, custom: { '--only': (v) => void (opts.only = v), '--css': (v) => void (opts.css = v) } },
  );
  const only = new Set(opts.only.split(',').map((x) => x.trim()));
  for (const x of only)
    if (!(SCENARIOS as readonly string[]).includes(x)) throw new Error(`--only: "${x}" is not a scenario (${SCENARIOS.join(', ')})`);
  if (common.dir === (await import('node:os')).tmpdir()) common.dir = '/var/tmp';
  const dir = makeBenchDir(common.dir);
  const { chooseShortCdm, openApp } = await import('../test/e2e/helpers/harness.js');
  const app = await openApp({ target: dir, home: true });
  const out: Scenario[] = [];
  try {
    const { page } = app;
    await page.setViewportSize({ width: 1440, height: 900 });
    if (opts.css) await page.addStyleTag({ content: opts.css });
    const cdp = await page.context().newCDPSession(page);
    const record = async (name: string, act: () => Promise<void>): Promise<void> => {
      log(`bench:ui: ${name}…`);
      await startRecording(page, cdp, opts.profile);
      await act();
      out.push(await stopRecording(page, cdp, name, opts.profile));
    };

    await record('idle (reference)', () => page.waitForTimeout(opts.seconds * 1000));
    if (only.has('quick')) {
      // The settings are chosen before recording: the frames measured are the test's, from Start.
      await page.getByRole('radio', { name: 'Continuous' }).click();
      await page.getByRole('radio', { name: 'Custom' }).click();
      await page.getByLabel('Custom stress size').fill('256 MiB');
      await page.getByLabel('Custom stress size').press('Enter');
      await record(`Quick Test, continuous, ${opts.seconds} s`, async () => {
        await page.getByRole('button', { name: 'Start' }).click();
        await page.waitForTimeout(opts.seconds * 1000);
        // The frames and tasks after Stop are the test's end, not the test running.
        await page.evaluate(() => void ((window as unknown as { ddBench: { endAt: number } }).ddBench.endAt = performance.now()));
        await page.getByRole('button', { name: 'Stop' }).click();
        await page.getByRole('button', { name: 'Start' }).waitFor({ timeout: 60_000 });
      });
    }
    if (only.has('cdm') || only.has('sweep')) {
      await page.getByTestId('nav-detailed').click();
      await page.locator('#screen-detailed').waitFor({ state: 'visible' });
    }
    if (only.has('cdm')) await chooseShortCdm(page);
    if (only.has('cdm'))
      await record('CrystalDiskMark grid, 16 MiB, 1 s a test', async () => {
        await page.getByTestId('cdm-start').click();
        await page.waitForTimeout(500);
        await waitIdle(page, 'cdm-start');
      });
    if (only.has('sweep')) {
      await page.getByTestId('sweep-seconds-0.5').click();
      await record('transfer-size sweep, 0.5 s a step', async () => {
        await page.getByTestId('sweep-start').click();
        await page.waitForTimeout(500);
        await waitIdle(page, 'sweep-start');
      });
    }
  } finally {
    await app.close();
  }

  const ref = out[0]!;
  if (common.json) {
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  const f = (x: number, d = 0): string => x.toFixed(d);
  log(
    table(
      ['scenario', 'frames', 'fps', 'p99 frame', 'worst frame', 'long tasks', 'longest task', 'fps / idle', 'worst / idle'],
      out.map((s) => [
        s.name,
        String(s.frames),
        f(s.fps, 1),
        `${f(s.p99Ms)} ms`,
        `${f(s.worstMs)} ms`,
        String(s.longTasks),
        `${f(s.longestTaskMs)} ms`,
        f(s.fps / ref.fps, 2),
        f(s.worstMs / ref.worstMs, 2),
      ]),
    ),
  );
  for (const s of out) {
    log(`\n${s.name}: main thread ${s.busy}`);
    if (s.worstFrame) log(`${s.name}: worst frame ${s.worstFrame}`);
    if (s.shifts.length > 0) log(`${s.name}: layout shifts (${s.shifts.length})\n  ${s.shifts.slice(0, 12).join('\n  ')}`);
    if (s.afterEnd.length > 0) log(`${s.name}: after Stop, tasks over 50 ms: ${s.afterEnd.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}`);
    if (s.attribution.length > 0) log(`\n${s.name}: tasks over 50 ms (while running and after Stop)`);
    for (const a of s.attribution) log(`  ${a}`);
    if (s.profile) log(`\n${s.name}: script time inside\n  ${s.profile.join('\n  ')}`);
  }
  log('\ngoal while a test runs: worst frame ≤ 50 ms, no long task over 50 ms, ≥ 58 fps');
  return 0;
}

await runMain(main);
