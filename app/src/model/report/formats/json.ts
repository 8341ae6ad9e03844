// JSON exports: the documents themselves (control characters kept, as \u escapes).
import type { ResultDocument } from '../../result.js';
import { safeJson } from '../../text.js';
import type { Comparison } from '../compare.js';

/** The document itself, as saved. */
export function jsonOne(doc: ResultDocument): string {
  return safeJson(doc, 2) + '\n';
}

/** The documents and their comparison, in one file. */
export function jsonMany(docs: readonly ResultDocument[], cmp: Comparison): string {
  return safeJson({ format: 'diskdial-comparison', schema: 1, results: docs, comparison: cmp }, 2) + '\n';
}
