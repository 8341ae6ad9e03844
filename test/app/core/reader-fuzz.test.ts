// 10,000 mutated files through the one reader and the parser behind it, the way DiskDial meets
// them: saved campaigns (and the CLI's list of them), saved wizard plans, checksum manifests,
// checksum files, and results files imported by the CLI (and the history table after). Each
// either comes back whole — every field of its schema's type, no control character in any text a
// terminal shows — or is refused in plain words (a DiskDialError, or the manifest parser's own
// ManifestError, which check words as one); nothing hangs, nothing else is thrown.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCampaignCommand } from '../../../app/src/cli/campaign-command.js';
import { runHistoryCommand } from '../../../app/src/cli/history-commands.js';
import { CampaignStore } from '../../../app/src/core/campaign.js';
import { resolveExpected } from '../../../app/src/core/hash-verify.js';
import { HistoryStore } from '../../../app/src/core/history.js';
import { readUserText } from '../../../app/src/core/safe-read.js';
import { PlanStore } from '../../../app/src/core/wizard/plan-store.js';
import { parseCampaignState } from '../../../app/src/model/campaign.js';
import { ManifestError, parseManifest } from '../../../app/src/model/check-manifest.js';
import { DiskDialError } from '../../../app/src/model/errors.js';
import { HistoryService } from '../../../app/src/services/history.js';
import { parseWizardPlanState } from '../../../app/src/model/wizard/plan-state.js';
import { FORMAT_IDS } from '../../../app/src/model/wizard/format-ids.js';
import { TEST_KINDS } from '../../../app/src/model/kinds/registry.js';
import { mutateJson, mutateLines, type Rand } from '../../helpers/mutate.js';
import { mulberry32 } from '../../helpers/prng.js';
import { SAVED_ID, soundCampaign, soundPlan } from '../../helpers/saved-states.js';

const CASES = 2_000; // a kind; five kinds: 10,000 files
const ID = SAVED_ID;
const HEX = 'a'.repeat(64);
// eslint-disable-next-line no-control-regex -- what must not reach a terminal is what this looks for
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const campaign = soundCampaign;
const plan = soundPlan;

const manifest = [`${HEX}  a.bin`, `${'b'.repeat(64)}  dir/b.bin`, `${'c'.repeat(64)} *./c.bin`, ''].join('\n');
const checksum = `${HEX}  file.iso\n`;

let dir: string;
let result: unknown;
beforeAll(async () => {
  // In RAM where there is /dev/shm: 10,000 writes and reads on the machine's shared, busy disk took
  // 5 ms each under load; the reader does the same opens, fstats and reads on tmpfs.
  const ram = await fsp.stat('/dev/shm').then(
    (s) => s.isDirectory(),
    () => false,
  );
  dir = await fsp.mkdtemp(path.join(ram ? '/dev/shm' : os.tmpdir(), 'dd-reader-fuzz-'));
  result = JSON.parse(await fsp.readFile(path.join(import.meta.dirname, '../../fixtures/results/quick.json'), 'utf8'));
});
afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

/** A refusal in plain words: DiskDial's own error, one sentence a person can read, no stack talk,
 *  nothing of the file's hostile text. */
function expectPlainRefusal(err: unknown, what: string): void {
  if (!(err instanceof DiskDialError || err instanceof ManifestError)) throw new Error(`${what}: not a DiskDialError: ${String(err)}`);
  const m = err.message;
  if (
    CONTROL.test(m) ||
    m.includes('\n') ||
    m.length > 1000 ||
    /TypeError|RangeError|undefined|NaN|\[object|is not a function|Cannot read/.test(m)
  )
    throw new Error(`${what}: not plain words: ${JSON.stringify(m.slice(0, 300))}`);
}

/** Every string in a value holds no control character (except line breaks and tabs where a
 *  message may have them), and every number is finite. */
function expectClean(v: unknown, what: string, multiline: ReadonlySet<string> = new Set(), key = ''): void {
  if (typeof v === 'string') {
    const bad = multiline.has(key) ? /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/ : CONTROL; // eslint-disable-line no-control-regex
    if (bad.test(v) || (!multiline.has(key) && /[\n\r\t]/.test(v))) throw new Error(`${what}: ${key} holds control characters`);
  } else if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`${what}: ${key} is ${v}`);
  } else if (Array.isArray(v)) v.forEach((x) => expectClean(x, what, multiline, key));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) expectClean(x, what, multiline, k);
}

async function fuzz(seed: number, one: (r: Rand, i: number) => Promise<'ok' | 'refused'>): Promise<Record<string, number>> {
  const r = mulberry32(seed);
  const seen = { ok: 0, refused: 0 };
  for (let i = 0; i < CASES; i++) seen[await one(r, i)]++;
  return seen;
}

describe.runIf(process.platform !== 'win32')('10,000 mutated files through the reader and its parsers', () => {
  it('the bases are sound, so the fuzz tests more than refusal', () => {
    expect(parseCampaignState(campaign)).toBeDefined();
    expect(parseWizardPlanState(plan)).toBeDefined();
    expect(parseManifest(manifest).entries).toHaveLength(3);
  });

  it('saved campaigns, and the CLI list of them', { timeout: 60_000 }, async () => {
    const store = new CampaignStore(path.join(dir, 'campaigns'));
    await fsp.mkdir(store.dir, { recursive: true });
    const history = new HistoryService(new HistoryStore(path.join(dir, 'results')));
    const seen = await fuzz(1, async (r, i) => {
      await fsp.writeFile(path.join(store.dir, `${ID}.json`), mutateJson(r, campaign));
      const state = await store.get(ID);
      if (!state) return 'refused';
      // What the terminal shows of it (a refused state is skipped there, so shows nothing).
      let out = '';
      const io = {
        out: (t: string) => void (out += t),
        err: () => undefined,
        ask: async () => undefined,
        signal: new AbortController().signal,
      };
      expect(await runCampaignCommand({ command: 'campaign', action: 'list', json: false }, io, { store, history })).toBe(0);
      if (CONTROL.test(out)) throw new Error(`campaign ${i}: control characters reached the terminal`);
      expectClean(state, `campaign ${i}`, new Set(['reason']));
      expect(state.setups.length).toBeGreaterThanOrEqual(2);
      for (const s of state.steps) {
        expect(Number.isInteger(s.setup) && s.setup >= 0 && s.setup < state.setups.length, `campaign ${i}`).toBe(true);
        expect(TEST_KINDS).toContain(s.kind);
      }
      return 'ok';
    });
    // Both ways are exercised: some mutations leave a sound state (a changed name), most do not.
    expect(seen.ok).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(CASES / 2);
  });

  it('saved wizard plans', { timeout: 60_000 }, async () => {
    const store = new PlanStore(path.join(dir, 'plans'));
    await fsp.mkdir(store.dir, { recursive: true });
    const seen = await fuzz(2, async (r, i) => {
      await fsp.writeFile(path.join(store.dir, `${ID}.json`), mutateJson(r, plan));
      const state = await store.get(ID);
      if (!state) return 'refused';
      expectClean(state, `plan ${i}`, new Set(['error']));
      expect(state.steps.length).toBe(state.settings.formats.length);
      for (const s of [...state.steps, state.final]) expect(FORMAT_IDS).toContain(s.format);
      for (const s of state.steps) expect(Array.isArray(s.resultIds) && s.resultIds.every((id) => typeof id === 'string')).toBe(true);
      expect(typeof state.settings.identity.sizeBytes).toBe('number');
      return 'ok';
    });
    expect(seen.ok).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(CASES / 2);
  });

  it('checksum manifests (check)', { timeout: 60_000 }, async () => {
    const file = path.join(dir, 'SHA256SUMS');
    const seen = await fuzz(3, async (r, i) => {
      await fsp.writeFile(file, mutateLines(r, manifest));
      let m;
      try {
        m = parseManifest(await readUserText(file, { what: 'a checksum manifest', maxBytes: 256 * 1024 ** 2, follow: true }));
      } catch (err) {
        expectPlainRefusal(err, `manifest ${i}`);
        return 'refused';
      }
      for (const e of m.entries) {
        expect(typeof e.name === 'string' && e.name !== '', `manifest ${i}: ${JSON.stringify(e.name.slice(0, 80))}`).toBe(true);
        expect(e.hex).toMatch(/^([0-9a-f]{32}|[0-9a-f]{64}|[0-9a-f]{128})$/);
      }
      return 'ok';
    });
    expect(seen.ok).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(20);
  });

  it('checksum files (hash --verify)', { timeout: 60_000 }, async () => {
    const file = path.join(dir, 'file.iso.sha256');
    const seen = await fuzz(4, async (r, i) => {
      await fsp.writeFile(file, mutateLines(r, checksum));
      let e;
      try {
        e = await resolveExpected(file, '/media/file.iso');
      } catch (err) {
        expectPlainRefusal(err, `checksum ${i}`);
        return 'refused';
      }
      expect(e.hex, `checksum ${i}`).toMatch(e.algo === 'sha256' ? /^[0-9a-f]{64}$/ : /^[0-9a-f]{128}$/);
      return 'ok';
    });
    expect(seen.ok).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(20);
  });

  it('results files imported by the CLI, and the history table after', { timeout: 60_000 }, async () => {
    const store = new HistoryStore(path.join(dir, 'results'));
    const file = path.join(dir, 'results.json');
    let shown = '';
    const io = { out: (t: string) => void (shown += t), warn: (l: string) => void (shown += `${l}\n`) };
    const seen = await fuzz(5, async (r, i) => {
      // One case in ten under an id of its own, so some are imported (the rest meet the one
      // imported before: the same is a duplicate, a different one a conflict).
      await fsp.writeFile(file, mutateJson(r, i % 10 ? result : { ...(result as object), id: `fuzz-${i}` }));
      try {
        await runHistoryCommand({ command: 'import', files: [file] }, io, store);
        return 'ok';
      } catch (err) {
        expectPlainRefusal(err, `import ${i}`);
        return 'refused';
      }
    });
    await runHistoryCommand({ command: 'history', action: 'list', json: false, query: {} }, io, store);
    expect(CONTROL.test(shown)).toBe(false);
    for (const e of (await store.list()).entries) expectClean({ name: e.name, drive: e.drive, headline: e.headline }, `history ${e.id}`);
    expect(seen.ok).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(CASES / 2);
  });
});
