// Lenient readers for the JSON the OS tools print (system_profiler, PowerShell's ConvertTo-Json):
// a wrong shape gives undefined or an empty list, never a throw.

export type Json = Record<string, unknown>;

/** The parsed value, or undefined when the text is not JSON (a byte-order mark is allowed). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}

export function asObject(v: unknown): Json | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

export function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A non-blank string, trimmed. */
export function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/** `into` with each of `fields` that has a value: a tool's optional fields stay absent, not
 *  `undefined`, when the tool said nothing of them (the readers above give undefined for that). */
export function withPresent<T extends object>(into: T, fields: { [K in keyof T]?: T[K] | undefined }): T {
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) (into as Json)[key] = value;
  return into;
}
