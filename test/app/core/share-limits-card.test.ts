// The share test's card (issue 34), checked as a picture: a real run's document
// (test/fixtures/results/share.json: `diskdial run <share> --test share` over SFTP in the lab of
// test/helpers/share-run.ts) rendered to PNG and read back with OCR (tesseract): what limits the
// share, in the verdict's own words, and the figures it was decided from must be legible on the
// image. Also, in the SVG: the last run is the one drawn, a link of unknown rate and a round trip
// not measured say so, and a verdict that could not separate is drawn in the warning colour.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCardPng } from '../../../app/src/core/card-png.js';
import { cardDate, escapeXml, renderCardSvg } from '../../../app/src/model/report/card.js';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { formatMBpsFigure } from '../../../app/src/model/units.js';
import { SHARE_LABEL, shareText } from '../../../app/src/model/verdict/share.js';
import { norm, ocrFolder, ocrIt } from '../../helpers/card-ocr.js';

const fixture = path.resolve(import.meta.dirname, '../../fixtures/results/share.json');
const load = (): ResultDocument => JSON.parse(readFileSync(fixture, 'utf8')) as ResultDocument;
const { ocr } = ocrFolder();

describe('the share-limits card', () => {
  ocrIt('OCR reads what limits the share, the verdict sentence and each figure it was decided from', () => {
    const doc = load();
    const r = doc.share!.runs.at(-1)!;
    const f = r.verdict.figures;
    const card = renderCardPng(doc);
    const text = norm(ocr(card.png, 'share'));
    const want = [
      'what limits the share',
      `${SHARE_LABEL[r.verdict.outcome]}:`,
      // The sentence's first words, and the figures big under it.
      shareText(r.verdict).split(' ').slice(0, 6).join(' '),
      formatMBpsFigure(f.ceilingMBps),
      formatMBpsFigure(f.diskReadMBps),
      formatMBpsFigure(f.diskWriteMBps),
      "server's memory",
      'read cold',
      'round trip',
      'small file',
      // The title names the large file as it was chosen (the run's --size 128MiB), not "134 MB".
      '128 MiB read cold',
      `DiskDial ${doc.app.version}`,
      cardDate(doc.startedAt),
    ];
    for (const w of want) expect(text, `OCR text should contain ${w}:\n${text}`).toContain(norm(w));
  });

  it('titles the card with the large file as it was chosen: 128 MiB, not the 134 MB it is', () => {
    const { svg } = renderCardSvg(load());
    expect(svg).toContain('128 MiB read cold, 20 small files');
    expect(svg).not.toContain('134 MB');
  });

  it("draws the last run's verdict, every line of its words, and says which run of how many", () => {
    const doc = load();
    const run = doc.share!.runs[0]!;
    const other = { ...run, run: 2, verdict: { ...run.verdict, figures: { ...run.verdict.figures, ceilingMBps: 987.6 } } };
    doc.share!.runs = [run, other];
    const { svg } = renderCardSvg(doc);
    expect(svg).toContain(`RUN 2 OF 2`);
    expect(svg).toContain('>988<');
    expect(svg).not.toContain(`>${formatMBpsFigure(run.verdict.figures.ceilingMBps)}<`);
    // The sentence is wrapped, never cut: its words, in order, are the renderer's.
    const words = [...svg.matchAll(/<text[^>]*font-size="15"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]).join(' ');
    expect(words).toBe(escapeXml(shareText(other.verdict)));
  });

  it('a link whose rate is not known and a round trip not measured say so; a verdict that could not separate is amber', () => {
    const doc = load();
    const run = doc.share!.runs[0]!;
    delete doc.share!.rttMs;
    run.verdict = {
      ...run.verdict,
      outcome: 'could-not-separate',
      reason: 'a read was not measured',
      figures: { ...run.verdict.figures, linkCeilingMBps: 0, linkMbps: 0 },
    };
    const { svg } = renderCardSvg(doc);
    expect(svg).toContain('>not known<');
    expect(svg).toContain('>not measured<');
    expect(svg).toMatch(/fill="#f5b942"[^>]*>WHAT LIMITS THE SHARE: COULD NOT SEPARATE</);
    expect(svg).toContain('>Could not separate: a read was not measured.<');
  });

  it('a known link shows its ceiling and its rate', () => {
    const doc = load();
    const run = doc.share!.runs[0]!;
    run.verdict = {
      ...run.verdict,
      figures: { ...run.verdict.figures, linkCeilingMBps: 118.7, linkMbps: 1000 },
      link: { name: 'eth0', wireless: false },
    };
    const { svg } = renderCardSvg(doc);
    expect(svg).toContain('>1 Gbit/s<');
    expect(svg).toContain('>119<');
  });
});
