import { describe, expect, it } from 'vitest';
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
