// JSON exports: the documents themselves (control characters kept, as \u escapes).
import type { ResultDocument } from '../../result.js';
import { safeJson } from '../../text.js';
import { byMetric } from '../compare.js';
import type { ComparisonModel } from '../comparison.js';
import { REPORT_SECTIONS } from '../../kinds/registry.js';
import type { SectionOptions } from '../section.js';

/** The document with the keys its report sections add (a Quick Test's `willItWork` verdicts). */
const withSections = (doc: ResultDocument, opts: SectionOptions): object =>
  Object.assign({ ...doc }, ...REPORT_SECTIONS.map((s) => s.json(doc, opts)));

/** The document itself, as saved, with the keys its report sections add (derived, so a
 *  re-import that drops them loses nothing). */
export function jsonOne(doc: ResultDocument, opts: SectionOptions = {}): string {
  return safeJson(withSections(doc, opts), 2) + '\n';
}

/** The documents and their comparison (by metric: a column per result), in one file. */
export function jsonMany(docs: readonly ResultDocument[], cmp: ComparisonModel, opts: SectionOptions = {}): string {
  const results = docs.map((d) => withSections(d, opts));
  return safeJson({ format: 'diskdial-comparison', schema: 1, results, comparison: byMetric(cmp) }, 2) + '\n';
}
