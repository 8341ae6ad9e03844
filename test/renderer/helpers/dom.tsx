// Small DOM helpers the renderer tests share.
import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';

/** recharts' ResponsiveContainer measures with ResizeObserver, which jsdom lacks: one that never calls back. */
export function noResizeObserver(): void {
  class NoResize {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver ??= NoResize;
}

/** An element's text, '' when there is none. */
export const text = (el: Element | null): string => el?.textContent ?? '';

/** Clears the field `testId` and types `value` into it, as a person replacing a number would. */
export async function retype(user: ReturnType<typeof userEvent.setup>, testId: string, value: string): Promise<void> {
  const field = screen.getByTestId(testId);
  await user.clear(field);
  await user.type(field, value);
}
