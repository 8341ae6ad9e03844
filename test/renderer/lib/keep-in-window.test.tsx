// The arithmetic that keeps popovers inside the window.
import { describe, expect, it } from 'vitest';
import { EDGE, shiftIntoView } from '../../../renderer/src/lib/keep-in-window';

describe('shiftIntoView', () => {
  it('leaves a box that fits alone, and moves one that sticks out back inside by as much', () => {
    expect(shiftIntoView(100, 600, 1024)).toBe(0);
    expect(shiftIntoView(-160, 360, 1024)).toBe(160 + EDGE); // the menu at 1024 px, before
    expect(shiftIntoView(700, 1100, 1024)).toBe(1024 - EDGE - 1100);
    // Wider than the window: its left edge is kept in view.
    expect(shiftIntoView(-20, 600, 480)).toBe(20 + EDGE);
  });
});
