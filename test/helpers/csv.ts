// Reads exports back as CSV with csv-parse, an implementation independent of the writer in
// model/report, in strict RFC 4180 mode: CRLF records, quotes only around whole fields.
import { parse } from 'csv-parse/sync';

export function parseCsv(text: string): string[][] {
  if (text !== '' && !text.endsWith('\r\n')) throw new Error('CSV does not end with CRLF');
  return parse(text, { record_delimiter: '\r\n', relax_column_count: false, relax_quotes: false, skip_empty_lines: false }) as string[][];
}
