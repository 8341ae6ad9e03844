import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { campaignSecondsLeft, durationText, parsePlanText, planText } from '../../../app/src/model/campaign-plan.js';
import { ladderMedian } from '../../../app/src/model/report/figure-text.js';
import { buildFormatReport, renderFormatReport } from '../../../app/src/model/report/format-report.js';
import type { ResultDocument } from '../../../app/src/model/result.js';
import {
  campaignProgress,
  campaignSteps,
  MAX_SETUPS,
  nextStep,
  parseCampaignState,
  parseSetups,
  setupPrompt,
  startsSetup,
} from '../../../app/src/model/campaign.js';
import { cleanLabel } from '../../../app/src/model/text.js';

describe('a setup campaign’s plan', () => {
  it('reads setups from a comma list: trimmed, plain, keyed in order', () => {
    expect(parseSetups(' GigE , Over Wi-Fi,\u001b[31mHub ')).toEqual([
      { key: 'setup-1', name: 'GigE' },
      { key: 'setup-2', name: 'Over Wi-Fi' },
      { key: 'setup-3', name: 'Hub' },
    ]);
  });

  it('refuses one setup, two of one name, too many and an over-long name, in words', () => {
    expect(() => parseSetups('GigE')).toThrow('Name at least two setups to compare');
    expect(() => parseSetups('GigE, ,')).toThrow('Name at least two setups');
    expect(() => parseSetups('GigE,gige')).toThrow('Two setups are both called "gige"');
    expect(() => parseSetups(Array.from({ length: MAX_SETUPS + 1 }, (_, i) => `S${i}`).join(','))).toThrow(`at most ${MAX_SETUPS} setups`);
    expect(() => parseSetups(`A,${'x'.repeat(201)}`)).toThrow('A label holds at most 200 characters');
  });

  it('runs every kind of the plan on one setup before the next', () => {
    expect(campaignSteps(2, ['quick', 'sweep'])).toEqual([
      { setup: 0, kind: 'quick' },
      { setup: 0, kind: 'sweep' },
      { setup: 1, kind: 'quick' },
      { setup: 1, kind: 'sweep' },
    ]);
  });

  it('asks before each setup’s first step, and before the first step of a resumed campaign', () => {
    const steps = campaignSteps(2, ['quick', 'sweep']);
    expect(steps.map((_, i) => startsSetup({ steps }, i, false))).toEqual([true, false, true, false]);
    expect(startsSetup({ steps }, 1, true)).toBe(true);
    expect(startsSetup({ steps }, 9, false)).toBe(false);
  });

  it('goes on from the first step without a result, and says where it stands', () => {
    const state = {
      id: '0123456789abcdef',
      setups: parseSetups('Dock,Hub'),
      steps: campaignSteps(2, ['quick', 'sweep']),
    };
    expect(nextStep(state)).toBe(0);
    state.steps[0]!.resultId = 'r1';
    state.steps[1]!.resultId = 'r2';
    expect(nextStep(state)).toBe(2);
    expect(campaignProgress(state)).toBe('Dock done (2 tests), Hub 0 of 2 tests');
    state.steps[2]!.resultId = 'r3';
    state.steps[3]!.resultId = 'r4';
    expect(nextStep(state)).toBeUndefined();
    expect(setupPrompt(state, 1)).toBe(
      'Setup 2 of 2: "Hub". Change to it now (cable, port, network…), then press Enter to test; type "stop" to stop here (resume with diskdial campaign --resume 01234567).',
    );
  });
});

describe('a saved campaign read back', () => {
  const sound = {
    schema: 1,
    id: '0123456789abcdef',
    createdAt: '2026-11-28T00:00:00Z',
    updatedAt: '2026-11-28T00:00:00Z',
    status: 'waiting',
    target: '/mnt/share',
    setups: [
      { key: 'setup-1', name: 'GigE' },
      { key: 'setup-2', name: 'Wi-Fi' },
    ],
    kinds: ['quick'],
    runArgs: ['--runs', '3'],
    steps: [
      { setup: 0, kind: 'quick', resultId: 'abc' },
      { setup: 1, kind: 'quick' },
    ],
  };

  it('keeps a sound state and refuses each kind of damage', () => {
    expect(parseCampaignState(sound)).toEqual(sound);
    for (const damaged of [
      { ...sound, steps: { findIndex: 1 } },
      { ...sound, steps: [{ setup: 999, kind: 'quick' }] },
      { ...sound, setups: [{ key: 'setup-1', name: 'GigE\u001b[2J' }, sound.setups[1]] },
      { ...sound, setups: [{ key: 'setup-1', name: 'x'.repeat(40_000) }, sound.setups[1]] },
      { ...sound, schema: 2 },
      { ...sound, id: '../../etc/passwd' },
      null,
      'a string',
    ])
      expect(parseCampaignState(damaged)).toBeUndefined();
  });

  it('a label loses its bidi overrides and isolates, which would make it read backwards', () => {
    expect(cleanLabel('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(cleanLabel('a\u2066b\u2069c')).toBe('abc');
  });
});

const FIXTURES = path.join(import.meta.dirname, '../../fixtures/results');

describe('a campaign’s report: the plan’s own tests, and a transfer size that is on the ladder', () => {
  const KiB = 1024;
  /** Setup `name`'s results of one campaign: a Quick Test and a 3-run sweep whose write reaches
   *  90 % of its top at these transfer sizes, one per run. */
  function setupDocs(key: string, name: string, fullSpeedKiB: number[], kinds = ['quick', 'sweep']): ResultDocument[] {
    const fixture = (kind: string) => JSON.parse(readFileSync(path.join(FIXTURES, `${kind}.json`), 'utf8')) as ResultDocument;
    return kinds.map((kind) => {
      const d = fixture(kind);
      d.id = `${key}-${kind}`;
      d.label = name;
      d.campaign = { planId: 'camp-1', format: key, formatLabel: name, of: 'setups' };
      if (kind === 'sweep') {
        const run = d.sweep!.runs[0]!;
        d.sweep!.runs = fullSpeedKiB.map((k) => ({ ...run, fullSpeedWrite: { ...run.fullSpeedWrite!, bs: k * KiB } }));
        d.settings.runs = fullSpeedKiB.length;
      }
      return d;
    });
  }

  it('gives the median run’s transfer size, a size the sweep ran, never a mean of ladder positions', () => {
    // The runs: their mean ± SD read "2,218.7 ± 1,798.1 KiB", a size no step of the ladder has.
    const docs = [...setupDocs('setup-1', 'Dock', [256, 4096, 2048]), ...setupDocs('setup-2', 'Hub', [1024, 1024])];
    const md = renderFormatReport(docs, 'md').text;
    const row = (name: string) => md.split('\n').find((l) => l.startsWith(`| ${name}`))!;
    expect(row('Dock')).toContain('| 2,048 (median; runs 256–4,096) |');
    expect(row('Hub')).toMatch(/\| 1,024 (\(.*\) )?\|/);
    expect(md).not.toContain('2,218');
    expect(ladderMedian([4096, 256, 1024, 2048])).toBe(1024);
    expect(ladderMedian([])).toBeNaN();
  });

  it('says nothing of different tests when every setup ran the plan; names the setup that ran fewer', () => {
    const planned = buildFormatReport([...setupDocs('setup-1', 'Dock', [256]), ...setupDocs('setup-2', 'Hub', [256])]);
    expect(planned.warnings.filter((w) => /tests/.test(w))).toEqual([]);
    const stopped = buildFormatReport([...setupDocs('setup-1', 'Dock', [256]), ...setupDocs('setup-2', 'Hub', [256], ['quick'])]);
    expect(stopped.warnings).toContain(
      'Not every row ran the same tests (Hub: no Transfer-size sweep): each column compares only the rows that have it.',
    );
  });
});

describe('a campaign’s length', () => {
  it('sums its tests’ estimates, steps setup by setup, less the part done, scaled by what was measured', () => {
    // Two tests of 60 s and 30 s on 3 setups: 6 steps.
    expect(campaignSecondsLeft([60, 30], 6, 0)).toBe(270);
    expect(campaignSecondsLeft([60, 30], 6, 2, { fractionOfFirst: 0.5 })).toBe(30 + 30 + 60 + 30);
    // The finished steps took twice their estimates: what is left is doubled.
    expect(campaignSecondsLeft([60, 30], 6, 4, { measured: { actual: 360, estimated: 180 } })).toBe(180);
    expect(campaignSecondsLeft([60, undefined], 6, 0)).toBeUndefined();
    expect(durationText(20)).toBe('about 1 min');
    expect(durationText(3 * 3600 + 7 * 60)).toBe('about 3 h 7 min');
  });
});

describe('a plan’s text', () => {
  it('reads back what planText writes, whatever its values hold (commas, colons, =, backslashes)', () => {
    const flag = fc.stringMatching(/^[a-z][a-z-]{0,8}$/);
    const value = fc.string({ maxLength: 12 }).filter((v) => !v.startsWith('--'));
    const test = fc.record({
      kind: fc.constantFrom('quick', 'sweep', 'cdm', 'seq-read', 'small-files'),
      args: fc.array(fc.tuple(flag, fc.option(value, { nil: undefined })), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(test, { selector: (t) => t.kind, minLength: 1, maxLength: 5 }), (tests) => {
        const planned = tests.map((t) => ({
          kind: t.kind,
          args: t.args.flatMap(([f, v]) => (v === undefined ? [`--${f}`] : [`--${f}`, v])),
        }));
        const text = planText(
          planned.map((t) => t.kind),
          Object.fromEntries(planned.map((t) => [t.kind, t.args])),
        );
        expect(parsePlanText(text)).toEqual(planned);
      }),
    );
    expect(planText(['quick', 'sweep'], { quick: ['--size', '1GB'], sweep: ['--label', 'a,b:c'] })).toBe(
      String.raw`quick:size=1GB,sweep:label=a\,b\:c`,
    );
  });
});
