import { describe, expect, it } from 'vitest';
import { buildPlan, fitPlan } from '../../../../app/src/model/presets.js';
import { kindName } from '../../../../app/src/model/report/metrics.js';
import { kindOf, RESULT_KINDS, RUN_KINDS, TEST_KINDS } from '../../../../app/src/model/kinds/registry.js';

const roomy = { freeBytes: 2e12, totalBytes: 4e12 };

describe('the kind registry', () => {
  it('lists each kind once, the runnable ones in TEST_KINDS order, the hash test and the folder check as result kinds only', () => {
    const ids = RESULT_KINDS.map((k) => k.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(RUN_KINDS.map((k) => k.id)).toEqual([...TEST_KINDS]);
    expect(kindOf('hash')?.plan).toBeUndefined();
    expect(kindOf('check')?.plan).toBeUndefined();
    expect(kindOf('no-such-kind')).toBeUndefined();
  });

  it('says which kinds a screen makes, which runs on the Detailed screen, and which draws a live curve', () => {
    expect(RESULT_KINDS.filter((k) => !k.cliOnly).map((k) => k.id)).toEqual([
      'quick',
      'cdm',
      'sustained',
      'files',
      'video',
      'sweep',
      'small-files',
      'verify',
      'share',
      'hash',
      'check',
    ]);
    expect(RESULT_KINDS.filter((k) => k.fromScreen).map((k) => k.id)).toEqual([
      'cdm',
      'sustained',
      'files',
      'video',
      'sweep',
      'small-files',
      'verify',
      'share',
    ]);
    expect(RESULT_KINDS.filter((k) => k.liveCurve).map((k) => k.id)).toEqual(['sustained']);
  });

  it('every runnable kind plans, and its plan names the kind', () => {
    for (const k of RUN_KINDS) {
      expect(k.plan, k.id).toBeTypeOf('function');
      expect(buildPlan(k.id, {}, roomy).kind).toBe(k.id);
    }
  });

  it('the report names a kind by its module', () => {
    for (const k of RESULT_KINDS) expect(kindName(k.id)).toBe(k.name);
    expect(kindName('something-new')).toBe('something-new');
  });

  it('a sized kind says the least it runs with, so a full disk gets a reason and no size to offer', () => {
    for (const k of RUN_KINDS.filter((x) => x.sized)) {
      expect(k.leastBytes, k.id).toBeTypeOf('function');
      const fit = fitPlan(k.id, {}, { freeBytes: 1024 * 1024, totalBytes: 1e12 });
      expect(fit.fits, k.id).toBe(false);
      expect(fit.largestBytes).toBe(0);
      expect(fit.reason).toBeTruthy();
    }
  });
});
