// JSON exports: the documents themselves (control characters kept, as \u escapes).
import type { ResultDocument } from '../../result.js';
import { safeJson } from '../../text.js';
import { byMetric } from '../compare.js';
import type { ComparisonModel } from '../comparison.js';
import { videoJson } from '../../kinds/video/tables.js';
import type { VideoOptions } from '../../kinds/video/will-it-work.js';

/** The document itself, as saved; a Quick Test's with its "Will it work?" verdicts added as
 *  `willItWork` (derived, so a re-import that drops the key loses nothing). */
export function jsonOne(doc: ResultDocument, video: VideoOptions = {}): string {
  return safeJson({ ...doc, ...videoJson(doc, video) }, 2) + '\n';
}

/** The documents and their comparison (by metric: a column per result), in one file. */
export function jsonMany(docs: readonly ResultDocument[], cmp: ComparisonModel, video: VideoOptions = {}): string {
  const results = docs.map((d) => ({ ...d, ...videoJson(d, video) }));
  return safeJson({ format: 'diskdial-comparison', schema: 1, results, comparison: byMetric(cmp) }, 2) + '\n';
}
