// The format report as people post it (seed 002, the Kingston XS2000 post): a "Will it work?"
// verdict per format, by the Quick Test's own rule, in every export; findings a line each, the
// largest change first.
import { describe, expect, it } from 'vitest';
import { buildFormatReport, renderFormatReport, type FormatReport } from '../../../../app/src/model/report/format-report.js';
import { COMMON_FORMATS, COMMON_RESOLUTIONS, willItWork } from '../../../../app/src/model/kinds/video/will-it-work.js';
import { sideMark } from '../../../../app/src/model/kinds/video/will-it-work-words.js';
import { parseCsv } from '../../../helpers/csv.js';
import { ENCRYPTED, EXT4, GB, mdTable, plan, wizardDoc, XFS, type Variant } from '../../../helpers/format-report-docs.js';

// A format slow enough that the heavier video formats fail on it, and one slower still.
const SLOW: Variant = { format: 'btrfs', label: 'Btrfs', scale: 0.05, jitter: 0.01 };
const SLOWER: Variant = { format: 'exfat', label: 'exFAT', scale: 0.02, jitter: 0.01 };

/** What the Quick Test's own rule says for one row's 5 GB result: "✓ / ✗" per common format. */
function expected(v: Variant, fps?: number): string[] {
  const w = willItWork(wizardDoc(v, 5 * GB), { formats: COMMON_FORMATS, resolutions: COMMON_RESOLUTIONS, ...(fps ? { fps } : {}) })!;
  return w.rows.map((r) => `${sideMark(r.write)} / ${sideMark(r.read)}`);
}

describe("the format report's Will it work? grid", () => {
  const variants = [EXT4, SLOW, XFS];
  const docs = plan(variants);

  it('has a column per format whose marks are the Quick Test rule on that format at its largest size', () => {
    const r: FormatReport = buildFormatReport(docs);
    const grid = r.sections![0]!;
    expect(grid.heading).toBe('Will it work? At 29.97 fps');
    const t = grid.tables[0]!;
    expect(t.head).toEqual(['Format', 'Needs with margin (MB/s)', 'ext4', 'Btrfs', 'XFS']);
    variants.forEach((v, k) => expect(t.rows.map((row) => row[k + 2]!.text)).toEqual(expected(v)));
    // The slow format fails somewhere the fast ones pass: the grid tells them apart.
    expect(t.rows.some((row) => row[2]!.text === '✓ / ✓' && row[3]!.text.includes('✗'))).toBe(true);
    expect(grid.notes).toContain('Each format at its largest stress size tested.');
  });

  it('is in every export, at the frame rate asked for', () => {
    const md = renderFormatReport(docs, 'md', { fps: 60 }).text;
    expect(md).toContain('### Will it work? At 60 fps');
    const grid = mdTable(md, 1);
    expect(grid[0]).toEqual(['Format', 'Needs with margin (MB/s)', 'ext4', 'Btrfs', 'XFS']);
    expect(grid.slice(2).map((row) => row[3])).toEqual(expected(SLOW, 60));

    const html = renderFormatReport(docs, 'html').text;
    expect(html).toContain('<h2>Will it work? At 29.97 fps</h2>');
    expect(html.match(/<th[^>]*>Btrfs<\/th>/g)?.length).toBeGreaterThanOrEqual(1);

    const txt = renderFormatReport(docs, 'txt').text;
    expect(txt).toContain('Will it work? At 29.97 fps:');
    expect(txt).toMatch(/ProRes 422 HQ .*✓ \/ ✓/);

    const rows = parseCsv(renderFormatReport(docs, 'csv').text);
    const at = (name: string, row: string[]) => row[rows[0]!.indexOf(name)]!;
    const btrfs = rows.filter((row) => at('figure', row) === 'Will it work? At 29.97 fps' && at('variant', row) === 'Btrfs');
    expect(btrfs.map((row) => at('verdict', row))).toEqual(expected(SLOW));

    const json = JSON.parse(renderFormatReport(docs, 'json').text) as { report: FormatReport };
    expect(json.report.sections![0]!.tables[0]!.rows.map((row) => row[3]!.text)).toEqual(expected(SLOW));
  });

  it('is absent when no row has a Quick Test', () => {
    const cdm = plan([EXT4, XFS]).map((d) => ({ ...d, kind: 'cdm' as const }));
    expect(buildFormatReport(cdm).sections).toBeUndefined();
  });
});

describe("the format report's findings", () => {
  it('are a list, a line each, the largest change first', () => {
    const docs = plan([EXT4, ENCRYPTED, SLOWER]);
    const r = buildFormatReport(docs);
    const lines = r.findings.filter((f) => f.includes(' — vs '));
    expect(lines.map((f) => f.split(':')[0])).toEqual(['exFAT', 'ext4 (fscrypt encrypted)']);
    const md = renderFormatReport(docs, 'md').text;
    for (const f of r.findings) expect(md).toContain(`\n- ${f}\n`);
    const html = renderFormatReport(docs, 'html').text;
    expect(html.match(/<ul class="findings">(.*?)<\/ul>/)![1]!.split('<li>').length - 1).toBe(r.findings.length);
  });
});

describe('a write-only plan scaled to a small disk', () => {
  /** The wizard's write-only pass: one SEQ1M Q8T1 write per run, at one stress size. */
  function writeOnly(v: Variant, size: number, mbps: number) {
    const d = wizardDoc(v, size);
    d.id = `${v.format}-${size}`;
    d.kind = 'seq-write';
    d.tests = d.tests
      .filter((t) => t.rw === 'write')
      .map((t, i) => ({ ...t, name: 'SEQ1M Q8T1 Write', mbps: mbps * (1 + 0.01 * (i - 1)) }));
    return d;
  }

  it('keeps a column per size, never their mean', () => {
    const MiB = 1024 ** 2;
    const docs = [
      writeOnly(EXT4, 64 * MiB, 1418),
      writeOnly(EXT4, 256 * MiB, 1599),
      writeOnly(XFS, 64 * MiB, 1400),
      writeOnly(XFS, 256 * MiB, 1650),
    ];
    const r = buildFormatReport(docs);
    expect(r.columns.map((c) => c.sizeBytes)).toEqual([64 * MiB, 256 * MiB]);
    expect(r.cells[0]!.map((c) => Math.round(c!.spread.mean))).toEqual([1418, 1599]);
  });
});
