// Each export format escapes for itself only: Markdown with backslashes where Markdown would read
// syntax (checked by rendering it with a real CommonMark parser, raw HTML on as on many forums),
// HTML with entities, CSV/text/JSON not at all. The rule reads "Welch's t-test" wherever it is printed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { mdInline, renderExport } from '../../../../app/src/model/report/export.js';
import { parseCsv } from '../../../helpers/csv.js';

const FIXTURES = path.join(import.meta.dirname, '../../..', 'fixtures', 'results');
const load = (kind: string): ResultDocument => JSON.parse(readFileSync(path.join(FIXTURES, `${kind}.json`), 'utf8')) as ResultDocument;

const LABEL = 'A <b>x</b> & B | *bold* _it_ > 2 #1';
const ENTITY = /&(lt|gt|amp|quot|#\d+);/;
const md = new MarkdownIt({ html: true });
/** What a reader sees: markdown-it's HTML with its own escaping of text undone. */
const seen = (html: string): string =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** The quick fixture (3 runs) and a labelled copy 10 % slower on writes: a comparison with its rule. */
function pair(): ResultDocument[] {
  const a = load('quick');
  a.label = 'Plain';
  const b = structuredClone(a);
  b.id = 'odd-1';
  b.label = LABEL;
  b.tests.forEach((t, i) => {
    if (t.rw === 'write') t.mbps *= 0.9 * (1 + 0.003 * ((i % 3) - 1));
  });
  return [a, b];
}

describe('exports read right in their own format', () => {
  it("Markdown: Welch's as written, the label intact in a table and in text, no HTML entity", () => {
    const text = renderExport(pair(), 'md').text;
    expect(text).toContain("Welch's t-test");
    expect(text).not.toMatch(ENTITY);
    const html = md.render(text);
    // Nothing of the label became markup: no tag, no emphasis, no extra table column.
    expect(html).not.toMatch(/<b>x|<em>it<\/em>|<strong>bold<\/strong>/);
    const head = /<thead>\s*<tr>([\s\S]*?)<\/tr>/.exec(html)?.[1] ?? '';
    expect(head.match(/<th/g)).toHaveLength(3);
    expect(seen(head)).toContain(`${LABEL}`);
    expect(seen(html)).toContain(`${LABEL} — Quick Test`);
    expect(seen(html)).toContain("Welch's t-test");

    const one = load('quick');
    one.label = LABEL;
    const single = md.render(renderExport([one], 'md').text);
    expect(seen(/<h2>(.*)<\/h2>/.exec(single)?.[1] ?? '')).toBe(`${LABEL} — Quick Test · 1 GiB · 3 runs`);
  });

  it('HTML: entities, and only there', () => {
    const text = renderExport(pair(), 'html').text;
    expect(text).toContain('Welch&#39;s t-test');
    expect(text).toContain('A &lt;b&gt;x&lt;&#47;b&gt; &amp; B | *bold* _it_ &gt; 2 #1');
    expect(text).not.toContain('\\*');
  });

  it('CSV, text and JSON: the label and the rule as they are', () => {
    const csv = parseCsv(renderExport(pair(), 'csv').text);
    expect(csv.flat()).toContain(LABEL);
    expect(csv.flat().join('\n')).not.toMatch(ENTITY);
    const txt = renderExport(pair(), 'txt').text;
    expect(txt).toContain(LABEL);
    expect(txt).toContain("Welch's t-test");
    expect(txt).not.toMatch(ENTITY);
    const json = JSON.parse(renderExport(pair(), 'json').text) as { results: ResultDocument[] } | ResultDocument[];
    const docs = Array.isArray(json) ? json : json.results;
    expect(docs.map((d) => d.label)).toContain(LABEL);
  });

  it('Markdown escapes what would format, and leaves alone what would not', () => {
    const cases: Array<[string, string]> = [
      ['p < 0.05', 'p < 0.05'],
      ['a * b', 'a * b'],
      ['snake_case_name', 'snake_case_name'],
      ['*bold*', '\\*bold\\*'],
      ['_it_', '\\_it\\_'],
      ['#1 drive', '\\#1 drive'],
      ['1. first', '1\\. first'],
      ['<b>', '\\<b>'],
      ['AT&amp;T', 'AT\\&amp;T'],
      ['[link](x)', '\\[link\\](x)'],
      ['`code`', '\\`code\\`'],
      ['C:\\*', 'C:\\\\\\*'],
    ];
    for (const [input, want] of cases) {
      expect(mdInline(input)).toBe(want);
      expect(seen(md.renderInline(mdInline(input)))).toBe(input);
    }
  });
});

describe('the run count, said once', () => {
  it('a comparison names each result with its runs once, in every text format', () => {
    const text = renderExport(pair(), 'md').text;
    const columns = text.split('\n').filter((l) => /^\d\. \*\*/.test(l));
    expect(columns).toHaveLength(2);
    for (const line of columns) expect(line.match(/3 runs/g)).toHaveLength(1);
    // The Will-it-work section states its aggregate once ("Measured, mean of 3 runs: …").
    const one = renderExport([load('quick')], 'md').text;
    expect(one.match(/(?<!mean of )3 runs/g)).toHaveLength(1);
    expect(one.match(/mean of 3 runs/g)).toHaveLength(1);
    const html = renderExport([load('quick')], 'html').text;
    // The page's <title> repeats its heading, as titles do; the page itself says it once.
    expect(html.slice(html.indexOf('<body')).match(/(?<!mean of )3 runs/g)).toHaveLength(1);
  });
});
