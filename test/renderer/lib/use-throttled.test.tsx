// useThrottled: the first change shows at once, later ones at most once per interval (the latest,
// trailing), and nothing is lost at the end.
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useThrottled } from '../../../renderer/src/lib/use-throttled';

afterEach(() => vi.useRealTimers());

describe('useThrottled', () => {
  it('shows the first change at once, then the latest value once per interval', () => {
    vi.useFakeTimers();
    const { result, rerender } = renderHook(({ v }) => useThrottled(v, 500), { initialProps: { v: 0 } });
    expect(result.current).toBe(0);
    rerender({ v: 1 });
    expect(result.current).toBe(1);
    rerender({ v: 2 });
    rerender({ v: 3 });
    expect(result.current).toBe(1);
    act(() => {
      vi.advanceTimersByTime(499);
    });
    expect(result.current).toBe(1);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(result.current).toBe(3);
    // Unchanged afterwards: nothing scheduled, nothing lost.
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(result.current).toBe(3);
  });
});
