// The line under Start once a Quick Test has ended: the completed cycles, and whether Stop ended it.
import { describe, expect, it } from 'vitest';
import { quickEndLine } from '../../../../renderer/src/features/quick-test/quick-progress';

describe('quickEndLine', () => {
  it('says Stopped after the completed cycles when Stop ended the test, Done when it finished', () => {
    expect(quickEndLine(true, 14)).toBe('Stopped after 14 cycles');
    expect(quickEndLine(true, 1)).toBe('Stopped after 1 cycle');
    expect(quickEndLine(true, 0)).toBe('Stopped before a cycle completed');
    expect(quickEndLine(false, 3)).toBe('Done · 3 cycles');
    expect(quickEndLine(false, 1)).toBe('Done · 1 cycle');
  });
});
