// The wizard's steps as the e2e tests drive them in the page: the formats ticked, and the smallest
// Quick Test plan. (The disk image it may erase: attachImage in test/helpers/wizard-real.ts.)
import type { Page } from 'playwright-core';

/** Ticks exactly `formats` (once the list has loaded: the last of them shown), then Next. */
export async function pickFormats(page: Page, formats: string[]): Promise<void> {
  const boxes = page.getByTestId('wizard-format');
  await page.locator(`[data-testid="wizard-format"][data-format="${formats.at(-1)}"]`).waitFor();
  for (let i = 0; i < (await boxes.count()); i++) {
    const box = boxes.nth(i);
    if (await box.isDisabled()) continue;
    if (formats.includes((await box.getAttribute('data-format'))!)) await box.check();
    else await box.uncheck();
  }
  await page.getByTestId('wizard-next').click();
}

/** The plan: the Quick Test at one small custom size (e.g. '16 MiB'), `runs` runs, no rest; then Next. */
export async function quickPlan(page: Page, size: string, runs: number): Promise<void> {
  await page.getByTestId('wizard-plan-quick').check();
  await page.getByTestId('wizard-size-1000000000').uncheck();
  await page.getByTestId('wizard-size-5000000000').uncheck();
  await page.getByTestId('wizard-size-custom').check();
  await page.getByTestId('wizard-size-input').fill(size);
  await page.getByTestId('wizard-runs').fill(String(runs));
  await page.getByTestId('wizard-rest').fill('0');
  await page.getByTestId('wizard-next').click();
}
