// Text that came from outside this process — a label someone typed, a result imported from
// another machine, a file name in the history folder — made safe to store and to show. Control
// characters are what turn such text hostile: ESC (and the one-byte CSI 0x9b) drives a terminal,
// most C0 characters make XML invalid. Each output format still escapes its own syntax
// (export.ts, card.ts); this is the part they share. Browser-safe: no node:* imports.
import { z } from 'zod';
import { inputError } from './errors.js';

/** Terminal escape sequences — CSI ("ESC [ … m" colours, cursor moves) and OSC ("ESC ] … BEL"
 *  titles, links) — go whole, so none leaves its parameters behind as "[31m". */
// eslint-disable-next-line no-control-regex -- matching control characters is this module's job
const SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?/g;
/** C0 controls, DEL, C1 controls, and the bidi embeddings, overrides and isolates (U+202A–202E,
 *  U+2066–2069) that make a label read backwards from what it holds. */
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** The text with every control character gone; tabs and line breaks become spaces. */
export function plainText(s: string): string {
  return s.replace(SEQUENCES, '').replace(CONTROLS, (c) => (c === '\t' || c === '\n' || c === '\r' ? ' ' : ''));
}

/** The text with control characters gone except white space (tab, \n, \r): for whole documents. */
export function withoutControls(s: string): string {
  return s.replace(SEQUENCES, '').replace(CONTROLS, (c) => (c === '\t' || c === '\n' || c === '\r' ? c : ''));
}

/** JSON.stringify with DEL and the C1 controls written as \\u escapes too (JSON escapes only C0):
 *  the same value when parsed, and nothing a terminal acts on when the text is shown. */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Text read back from a file anyone could have edited (a saved plan or campaign), checked rather
 *  than cleaned: one line with no control character (a name, a path, a label)… */
export function plainString(max: number): z.ZodString {
  return z
    .string()
    .max(max)
    .refine((s) => plainText(s) === s, 'holds control characters');
}

/** …or a message DiskDial saved from an error (a tool's output may have carried an escape):
 *  cleaned rather than refused, so one stray character does not hide a whole plan. */
export function messageString(max: number) {
  return z.string().max(max).transform(withoutControls);
}

/** At most `n` characters of `s`, an ellipsis marking a cut: for quoting anyone's text in a message. */
export function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/** The longest label a result keeps: a name for a row and a card, not a document. */
export const LABEL_MAX = 200;

/** A label as it is stored: one plain line, trimmed. Longer than LABEL_MAX characters (UTF-16
 *  units, as the IPC schema and the label field count them) is refused with the limit in the
 *  message rather than cut, so nobody loses the end of a name silently. */
export function cleanLabel(label: string): string {
  const clean = plainText(label).replace(/\s+/g, ' ').trim();
  if (clean.length > LABEL_MAX) {
    throw inputError(
      `A label holds at most ${LABEL_MAX} characters; this one has ${clean.length.toLocaleString('en-US')}.`,
      'ERR_LABEL_TOO_LONG',
    );
  }
  return clean;
}

/** A phrase as a sentence's start: "the sweep's 32 steps" → "The sweep's 32 steps". */
export function capitalized(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
