import { describe, expect, it } from 'vitest';
import {
  campaignProgress,
  campaignSteps,
  MAX_SETUPS,
  nextStep,
  parseSetups,
  setupPrompt,
  startsSetup,
} from '../../../app/src/model/campaign.js';

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
