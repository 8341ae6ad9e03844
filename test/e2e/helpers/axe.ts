// axe-core in the page, as the a11y gate runs it: loaded from node_modules (no network), run
// on the whole document at WCAG 2.1 A and AA plus axe's best practices (landmarks, `region`,
// `heading-order`), and summarised one line per node so a failing test names the rule, the
// element and what to fix. Minor best-practice findings are left out: the gate is moderate or worse.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const TAGS = [...WCAG_21_AA, 'best-practice'];
/** axe's impacts the gate fails on. */
const GATED = new Set(['moderate', 'serious', 'critical']);

interface AxeResult {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }>;
}

/** Every WCAG 2.1 AA or best-practice violation of moderate or worse impact on the page now, as
 *  "rule (impact): element — fix" lines. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') rightly refuses
  // an injected <script>, and the gate must not loosen it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run(ctx: Document, o: unknown): Promise<unknown> } }).axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      }),
    TAGS,
  );
  return (result as AxeResult).violations
    .filter((v) => GATED.has(v.impact ?? ''))
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${v.id} (${v.impact ?? 'n/a'}): ${JSON.stringify(n.target)} — ${(n.failureSummary ?? v.help).replace(/\s+/g, ' ').slice(0, 300)}`,
      ),
    );
}
