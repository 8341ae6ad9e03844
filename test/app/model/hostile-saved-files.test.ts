// The cases the reader fuzz (test/app/core/reader-fuzz.test.ts) found, each said once by hand:
// what a parser does with a file built to hurt a terminal, a stack or a check.
import { describe, expect, it } from 'vitest';
import { parseCampaignState } from '../../../app/src/model/campaign.js';
import { ManifestError, parseManifest } from '../../../app/src/model/check-manifest.js';
import { NotAResultError, parseResultText } from '../../../app/src/model/result-parse.js';
import { parseWizardPlanState } from '../../../app/src/model/wizard/plan-state.js';
import { soundCampaign, soundPlan } from '../../helpers/saved-states.js';

const HEX = 'a'.repeat(64);
const ESC = '\u001b[2J\u001b]0;owned\u0007';

// One step failed, its message with an escape a tool's output might carry.
const plan = {
  ...soundPlan,
  steps: [{ ...soundPlan.steps[0]!, status: 'failed', error: `mkfs.ext4 said:\n${ESC}no` }, soundPlan.steps[1]!],
};

describe('saved plans and campaigns read back', () => {
  it('a plan is whole or refused: its settings by the schema a new plan passes, its names plain', () => {
    expect(parseWizardPlanState(plan)).toBeDefined();
    // Its error message keeps its lines and loses the escape.
    expect(parseWizardPlanState(plan)!.steps[0]!.error).toBe('mkfs.ext4 said:\nno');
    const withSettings = (settings: object): unknown => ({ ...plan, settings: { ...plan.settings, ...settings } });
    expect(parseWizardPlanState(withSettings({ confirmName: `loop7${ESC}` }))).toBeUndefined();
    expect(
      parseWizardPlanState(withSettings({ identity: { ...plan.settings.identity, backingInode: { ino: 1, dev: '\u202e0:1' } } })),
    ).toBeUndefined();
    expect(parseWizardPlanState(withSettings({ runs: '1' }))).toBeUndefined();
    expect(parseWizardPlanState({ ...plan, steps: { findIndex: 1 } })).toBeUndefined();
    expect(parseWizardPlanState({ ...plan, settings: undefined })).toBeUndefined();
    // One step for each format it was planned with.
    expect(parseWizardPlanState({ ...plan, steps: [...plan.steps, ...plan.steps] })).toBeUndefined();
  });

  it('a campaign shows only plain text: its folder and options too, not only its setup names', () => {
    const campaign = soundCampaign;
    expect(parseCampaignState(campaign)).toBeDefined();
    expect(parseCampaignState({ ...campaign, target: `/mnt/${ESC}` })).toBeUndefined();
    expect(parseCampaignState({ ...campaign, kinds: [`quick${ESC}`] })).toBeUndefined();
    expect(parseCampaignState({ ...campaign, runArgs: [`--runs=${ESC}`] })).toBeUndefined();
    expect(parseCampaignState({ ...campaign, kinds: ['rm -rf'] })).toBeUndefined();
  });
});

describe('results and manifests', () => {
  it('a result nested thousands deep is refused in words, not a stack overflow when it is saved', () => {
    const doc = `{"schema":1,"extra":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    expect(() => parseResultText(doc)).toThrow(NotAResultError);
    expect(() => parseResultText(doc)).toThrow('It nests lists and objects deeper than a result does (32 levels).');
    // Brackets inside strings are text, not nesting.
    expect(() => parseResultText(`{"schema":1,"x":"${'['.repeat(100)}"}`)).not.toThrow(/nests/);
  });

  it('a file listed twice with two digests is refused without quoting the name raw', () => {
    const name = `${ESC}\u202e${'x'.repeat(40_000)}`;
    let err: unknown;
    try {
      parseManifest(`${HEX}  ${name}\n${'b'.repeat(64)}  ${name}\n`);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ManifestError);
    const message = (err as Error).message;
    expect(message).toBe(`lines 1 and 2 list ${'x'.repeat(120)}… with different digests: the manifest contradicts itself`);
    expect(message.length).toBeLessThan(250);
  });

  it('"./" alone names the folder, not a file: a bad line', () => {
    const m = parseManifest(`${HEX}  ./\n${HEX}  ./a\n`);
    expect(m.entries).toEqual([{ name: 'a', hex: HEX }]);
    expect(m.badLines).toEqual([1]);
  });
});
