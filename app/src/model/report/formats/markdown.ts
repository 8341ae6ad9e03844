// Markdown exports: a table for a forum, one result or a comparison.
import type { ResultDocument } from '../../result.js';
import { plainText } from '../../text.js';
import { markLegend } from '../../verdict/compare-words.js';
import { methodLine, resultName, resultTitle, targetLine } from '../metrics.js';
import { safe, type ComparisonModel } from '../comparison.js';
import { REPORT_SECTIONS } from '../../kinds/registry.js';
import type { SectionBlock, SectionOptions } from '../section.js';
import { aboutLines, compareTables, driveLines, legendText, reportTable } from '../report-rows.js';
import { dateText, flagMark, machineLine, resultStatements, resultTables, runsNote, versionLine, type Table } from '../tables.js';

// ---- Markdown --------------------------------------------------------------------------------

/** A table cell: mdInline, and '|' escaped so the row keeps its columns. */
export function mdCell(s: string): string {
  return mdInline(s).replace(/\|/g, '\\|');
}

/** Text on one line of Markdown, reading as it was written: control characters out, and a
 *  backslash before only what Markdown would take as syntax — an HTML tag or entity (a forum may
 *  render raw HTML), emphasis, code, a link, a heading or list marker at the start. Never an HTML
 *  entity: `p < 0.05` stays `p < 0.05`. */
export function mdInline(s: string): string {
  const flanked = (text: string, at: number): boolean => !/\s/.test(text[at - 1] ?? ' ') || !/\s/.test(text[at + 1] ?? ' ');
  return (
    plainText(s)
      // A backslash that would escape what follows it.
      .replace(/\\(?=[!-/:-@[-`{-~])/g, '\\\\')
      .replace(/[`[\]]/g, '\\$&')
      .replace(/<(?=[A-Za-z/!?])/g, '\\<')
      .replace(/&(?=#?\w+;)/g, '\\&')
      // '*' and '_' format only next to text ('_' not inside a word: snake_case stays).
      .replace(/[*_]/g, (ch, at: number, text: string) => {
        const inWord = ch === '_' && /[\p{L}\p{N}]/u.test(text[at - 1] ?? '') && /[\p{L}\p{N}]/u.test(text[at + 1] ?? '');
        return flanked(text, at) && !inWord ? `\\${ch}` : ch;
      })
      .replace(/^(#|>|[-+](?=\s))/, '\\$1')
      .replace(/^(\d+)([.)])(?=\s)/, '$1\\$2')
  );
}

export function mdTable(t: Table): string[] {
  const out: string[] = [];
  if (t.title) out.push(`**${mdInline(t.title)}**`, '');
  out.push(`| ${t.head.map(mdCell).join(' | ')} |`);
  out.push(`|${t.head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
  for (const r of t.rows) out.push(`| ${r.map((x) => mdCell(x.text)).join(' | ')} |`);
  out.push('');
  return out;
}

export function markdownOne(doc: ResultDocument, opts: SectionOptions = {}): string {
  const out = [`## ${mdInline(resultName(doc))} — ${mdInline(resultTitle(doc))}`, ''];
  out.push(`- **Drive:** ${mdInline(targetLine(doc))}`);
  out.push(`- **Method:** ${mdInline(methodLine(doc))}`);
  out.push(`- **Machine:** ${mdInline(machineLine(doc))}`);
  out.push(`- **Date:** ${dateText(doc.startedAt)}`, '');
  for (const t of resultTables(doc)) out.push(...mdTable(t));
  const runs = runsNote(doc);
  if (runs) out.push(`_${runs}_`, '');
  for (const s of REPORT_SECTIONS) out.push(...mdSection(s.one(doc, opts)));
  const said = resultStatements(doc);
  if (said.length > 0) {
    for (const s of said)
      out.push(`- **${mdInline(s.label)}:** ${s.code ? `\`${plainText(s.text).replace(/`/g, '')}\`` : mdInline(s.text)}`);
    out.push('');
  }
  const notes = [
    ...doc.flags.map((f) => `- ${flagMark(f)} ${mdInline(f.message)} ${mdInline(f.fix)}`.trimEnd()),
    ...(doc.notes ?? []).map((n) => `- ℹ ${mdInline(n)}`),
  ];
  if (notes.length > 0) out.push(...notes, '');
  out.push(versionLine([doc]));
  return out.join('\n') + '\n';
}

export function markdownMany(docs: readonly ResultDocument[], cmp: ComparisonModel, opts: SectionOptions = {}): string {
  const labels = cmp.variants.map((v) => v.label);
  const out = [`## ${mdInline(cmp.title)}`, ''];
  cmp.variants.forEach((v, i) => {
    const base = i === cmp.baseline ? ' (baseline)' : '';
    out.push(
      `${i + 1}. **${mdInline(v.label)}**${base} — ${mdInline(v.result?.title ?? '')} · ${mdInline(v.drive)} · ${mdInline(v.method)} · ${dateText(v.result?.startedAt ?? '')}`,
    );
  });
  out.push('');
  for (const t of compareTables(cmp)) out.push(...mdTable(t));
  out.push(mdInline(markLegend('the baseline')), '');
  for (const s of REPORT_SECTIONS) out.push(...mdSection(s.many(docs, labels, opts)));
  if (cmp.findings.length > 0) out.push('**Findings**', '', ...cmp.findings.map((f) => `- ${mdInline(f)}`), '');
  const flags = docs.flatMap((d, i) => d.flags.map((f) => `- ${flagMark(f)} ${mdInline(labels[i] ?? '')}: ${mdInline(f.message)}`));
  const warnings = [...cmp.warnings.map((w) => `- ⚠ ${mdInline(w)}`), ...flags];
  if (warnings.length > 0) out.push('**Warnings**', '', ...warnings, '');
  out.push(`_Rule: ${mdInline(cmp.rule)}_`, '');
  out.push(versionLine(docs));
  return out.join('\n') + '\n';
}

/** A kind's report section ("Will it work?"): a heading, its tables, and how it was decided in italics. */
function mdSection(s: SectionBlock | null): string[] {
  if (!s) return [];
  return [`### ${mdInline(s.heading)}`, '', ...s.tables.flatMap(mdTable), ...s.notes.map((n) => `_${mdInline(n)}_`), ''];
}

// ---- Markdown ----------------------------------------------------------------------------------

export function reportMarkdown(r: ComparisonModel, docs: readonly ResultDocument[]): string {
  const out = [`## ${mdInline(r.title)}`, ''];
  out.push(
    aboutLines(r, docs)
      .map(([k, v]) => `**${k}:** ${mdInline(v)}`)
      .join(' · '),
    '',
  );
  const drives = driveLines(r, docs);
  if (drives.length > 0) out.push(...drives.map(([k, v]) => `- **${mdInline(k)}:** ${mdInline(v)}`), '');
  out.push(...mdTable(reportTable(r, docs)));
  out.push(`_${mdInline(legendText(r))}_`, '');
  if (r.findings.length > 0) out.push('**Findings**', '', ...r.findings.map((f) => `- ${mdInline(f)}`), '');
  for (const b of r.sections ?? []) out.push(...mdSection(b));
  const flags = docs.flatMap((d) => (d.flags ?? []).filter((f) => f.severity !== 'info').map((f) => `${variantOf(r, d)}: ${f.message}`));
  const warnings = [...r.warnings, ...new Set(flags)];
  if (warnings.length > 0) out.push('**Warnings**', '', ...warnings.map((w) => `- ⚠ ${mdInline(w)}`), '');
  out.push(`_Rule: ${mdInline(r.rule)}_`, '');
  out.push(versionLine(docs));
  return out.join('\n') + '\n';
}

export function variantOf(r: ComparisonModel, d: ResultDocument): string {
  return r.variants.find((v) => v.resultIds.includes(d.id))?.label ?? safe(() => resultName(d), '');
}
