// The layout check the e2e files share: a window narrowed to a width, and the page waited for
// until it needs no sideways scrolling (charts and tables re-measure themselves on the frames after
// a resize, so it is polled, never read once).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Resizes the window to `width` × 900 and waits until the page fits it; `what` names the view in the failure. */
export async function expectFitsWidth(page: Page, width: number, what?: string): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
      message: what ? `${what} at ${width} px` : `at ${width} px`,
    })
    .toBeLessThanOrEqual(0);
}
