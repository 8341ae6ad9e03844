// The Quick Test card's "Will it work?" block: the common formats (ProRes 422 HQ, H.264, HEVC at
// HD and UHD) at the default frame rate, a drawn ✓ or ✗ for recording (write) and playing (read),
// and how it was decided. The marks are paths, not glyphs: the card's one font need not have them.
import { COLOR, fitText, r1, text, type Box } from '../../report/card-draw.js';
import type { ResultDocument } from '../../result.js';
import { formatFps } from './math.js';
import { COMMON_FORMATS, COMMON_RESOLUTIONS, type WorkOutcome, willItWork } from './will-it-work.js';
import { byPaced } from './will-it-work-words.js';

export const WILL_IT_WORK_CARD_W = 250;
const ROW_H = 22;
const HEAD_H = 44;
const FOOT_H = 38;

export interface WorkMark {
  outcome: WorkOutcome;
  cx: number;
  cy: number;
}

export interface WillItWorkCardLayout {
  x: number;
  y: number;
  w: number;
  h: number;
  title: string;
  rows: Array<{ label: string; write: WorkMark; read: WorkMark }>;
  method: [string, string];
}

/** Where the block goes at the right of `box`, or null when the result gives no verdicts. */
export function willItWorkCardLayout(doc: ResultDocument, box: Box, paced: readonly ResultDocument[] = []): WillItWorkCardLayout | null {
  const v = willItWork(doc, { formats: COMMON_FORMATS, resolutions: COMMON_RESOLUTIONS }, paced);
  if (!v || v.rows.length === 0) return null;
  const h = HEAD_H + v.rows.length * ROW_H + FOOT_H;
  if (h > box.h) return null;
  const x = box.x + box.w - WILL_IT_WORK_CARD_W;
  const y = box.y + (box.h - h) / 2;
  const writeX = x + WILL_IT_WORK_CARD_W - 76;
  const readX = x + WILL_IT_WORK_CARD_W - 30;
  return {
    x,
    y,
    w: WILL_IT_WORK_CARD_W,
    h,
    title: `Will it work? ${formatFps(v.fps)} fps`,
    rows: v.rows.map((r, i) => {
      const cy = y + HEAD_H + i * ROW_H + ROW_H / 2;
      // "H.264 (camera, typical)" → "H.264": the card has room for the codec and the size.
      const label = `${r.format.replace(/\s*\(.*\)$/, '')} ${r.resolution}${byPaced(r.write) || byPaced(r.read) ? ' †' : ''}`;
      return { label, write: { outcome: r.write.outcome, cx: writeX, cy }, read: { outcome: r.read.outcome, cx: readX, cy } };
    }),
    // A row a frame-paced test of this drive decided is marked †, and the foot says so.
    method: [
      `Mean speed vs need with ${Math.round(v.margin * 100)} % margin;`,
      v.caveat
        ? '? not proven: the speeds carry warnings.'
        : v.rows.some((r) => r.paced)
          ? '† decided by a frame-paced test.'
          : 'a paced test checks frame by frame.',
    ],
  };
}

function mark(m: WorkMark): string {
  const { cx, cy } = m;
  if (m.outcome === 'unproven') return text(cx, cy + 5, '?', { size: 15, weight: 700, fill: COLOR.warn, anchor: 'middle' });
  if (m.outcome === 'ok')
    return `<path d="M ${r1(cx - 5.5)} ${r1(cy)} L ${r1(cx - 1.5)} ${r1(cy + 4.5)} L ${r1(cx + 6)} ${r1(cy - 5)}" fill="none" stroke="${COLOR.read}" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>`;
  return `<path d="M ${r1(cx - 4.5)} ${r1(cy - 4.5)} L ${r1(cx + 4.5)} ${r1(cy + 4.5)} M ${r1(cx + 4.5)} ${r1(cy - 4.5)} L ${r1(cx - 4.5)} ${r1(cy + 4.5)}" fill="none" stroke="${COLOR.bad}" stroke-width="2.6" stroke-linecap="round"/>`;
}

export function willItWorkCard(l: WillItWorkCardLayout): string {
  const out = [
    `<rect x="${r1(l.x)}" y="${r1(l.y)}" width="${l.w}" height="${r1(l.h)}" rx="10" fill="${COLOR.surface}" stroke="${COLOR.border}"/>`,
    text(l.x + 14, l.y + 22, fitText(l.title, l.w - 28, 14, 600), { size: 14, weight: 600 }),
    text(l.rows[0]!.write.cx, l.y + 38, 'Write', { size: 11, weight: 600, fill: COLOR.write, anchor: 'middle' }),
    text(l.rows[0]!.read.cx, l.y + 38, 'Read', { size: 11, weight: 600, fill: COLOR.read, anchor: 'middle' }),
  ];
  for (const r of l.rows) {
    out.push(text(l.x + 14, r.write.cy + 4.5, fitText(r.label, l.w - 120, 12.5), { size: 12.5 }), mark(r.write), mark(r.read));
  }
  const footY = l.y + l.h - FOOT_H + 16;
  out.push(
    text(l.x + 14, footY, fitText(l.method[0], l.w - 28, 10.5), { size: 10.5, fill: COLOR.muted }),
    text(l.x + 14, footY + 14, fitText(l.method[1], l.w - 28, 10.5), { size: 10.5, fill: COLOR.muted }),
  );
  return out.join('\n');
}

/** The room left for the dials beside the block. */
export const dialRoom = (box: Box, l: WillItWorkCardLayout | null): Box => (l ? { ...box, w: Math.min(box.w, l.x - box.x - 16) } : box);
