// The share test's card: what limits the share in the one renderer's words (model/verdict/share.ts),
// the evidence under it as figures (the read from the server's memory, the server's disk read
// cold and written, the link's ceiling when known, the round trip and round trips a small file),
// then the small-file verdict. The last run's, as the Quick Test's line says it.
import { type Box, COLOR, fitText, text, wrapText } from '../../report/card-draw.js';
import type { ResultDocument } from '../../result.js';
import { formatMBpsFigure } from '../../units.js';
import { SHARE_LABEL, shareText, smallFileText } from '../../verdict/share.js';
import { linkRateText, msText } from './section.js';

export function shareFigures(doc: ResultDocument, box: Box): string | undefined {
  const s = doc.share;
  const r = s?.runs.at(-1);
  if (!s || !r) return undefined;
  const v = r.verdict;
  const f = v.figures;
  const out: string[] = [];
  const separated = v.outcome !== 'could-not-separate';
  let y = box.y + 14;
  const which = s.runs.length > 1 ? ` · RUN ${r.run} OF ${s.runs.length}` : '';
  out.push(
    text(box.x, y, `WHAT LIMITS THE SHARE: ${SHARE_LABEL[v.outcome].toUpperCase()}${which}`, {
      size: 12,
      weight: 700,
      fill: separated ? COLOR.blue : COLOR.warn,
      spacing: 1.2,
    }),
  );
  // Four lines hold the longest sentence (server-bound, with this computer's cache noted).
  const lines = wrapText(shareText(v), box.w, 15, 4, 600);
  for (const l of lines) out.push(text(box.x, (y += 21), l, { size: 15, weight: 600 }));

  // The evidence: each figure in a column of its own under two lines of caption.
  const rate = linkRateText(v);
  const figures: Array<{ caption: [string, string]; value: string; unit: string; fill: string }> = [
    { caption: ['READ FROM THE', "SERVER'S MEMORY"], value: formatMBpsFigure(f.ceilingMBps), unit: 'MB/s', fill: COLOR.blue },
    { caption: ["SERVER'S DISK,", 'READ COLD'], value: formatMBpsFigure(f.diskReadMBps), unit: 'MB/s', fill: COLOR.read },
    { caption: ["SERVER'S DISK,", 'WRITTEN'], value: formatMBpsFigure(f.diskWriteMBps), unit: 'MB/s', fill: COLOR.write },
    rate
      ? { caption: ['LINK CEILING', rate], value: formatMBpsFigure(f.linkCeilingMBps), unit: 'MB/s', fill: COLOR.text }
      : { caption: ['LINK CEILING', ''], value: 'not known', unit: '', fill: COLOR.muted },
    s.rttMs !== undefined
      ? { caption: ['ROUND TRIP', 'TO THE SERVER'], value: msText(s.rttMs), unit: 'ms', fill: COLOR.text }
      : { caption: ['ROUND TRIP', 'TO THE SERVER'], value: 'not measured', unit: '', fill: COLOR.muted },
  ];
  const colW = box.w / figures.length;
  y += 30;
  figures.forEach((g, i) => {
    const x = box.x + i * colW;
    g.caption.forEach((c, j) => {
      if (c) out.push(text(x, y + j * 13, fitText(c, colW - 12, 10.5, 700), { size: 10.5, weight: 700, fill: COLOR.muted, spacing: 0.8 }));
    });
    const big = g.unit !== '';
    out.push(
      text(x, y + 43, g.value, {
        size: big ? 26 : 17,
        weight: 700,
        fill: g.fill,
        spacing: -0.4,
        ...(big ? { tail: { text: g.unit, size: 13, weight: 600, fill: COLOR.muted } } : {}),
      }),
    );
  });
  y += 72;
  const fv = r.fileVerdict;
  const fileLines = wrapText(smallFileText(fv), box.w, 13.5, 2, 400);
  for (const l of fileLines) {
    out.push(text(box.x, y, l, { size: 13.5, fill: fv.outcome === 'could-not-separate' ? COLOR.warn : COLOR.text }));
    y += 19;
  }
  return out.join('\n');
}
