// The share card's cache dot follows the trust verdict (model/verdict/trust.ts), read off the
// rasterized picture itself: under a warning flag it is never green, on every card layout, even
// when the engine's own I/O was uncached (a loop device over the page cache takes O_DIRECT and
// still measures the host's cache).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { renderCardPng } from '../../../app/src/core/card-png.js';
import { COLOR } from '../../../app/src/model/report/card-draw.js';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { loopCached } from '../../helpers/flags.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/results');
const load = (name: string): ResultDocument => JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), 'utf8')) as ResultDocument;
const KINDS = ['cdm', 'files', 'hash', 'quick', 'small-files', 'sustained', 'sweep', 'video'];

// The dot's centre in CSS pixels (card.ts: PAD + 5, BAND_TOP + 48.5); the PNG is drawn at 1×.
const DOT = { x: 33, y: 424 };

const hex = (c: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)) as [number, number, number];

/** The dot's colour as the PNG shows it: the pixel at its centre, the nearest of green and amber. */
function dotColour(doc: ResultDocument): 'green' | 'amber' | string {
  const png = PNG.sync.read(renderCardPng(doc, { scale: 1 }).png);
  const i = (DOT.y * png.width + DOT.x) * 4;
  const px = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
  const dist = (c: string) => hex(c).reduce((s, v, k) => s + (v - px[k]!) ** 2, 0);
  // Exact colours are filled at the centre of a radius-4 circle: within 30 of a channel or named.
  if (dist(COLOR.read) < 900) return 'green';
  if (dist(COLOR.warn) < 900) return 'amber';
  return `rgb(${px.join(',')})`;
}

describe('the card’s cache dot follows the trust level', () => {
  for (const kind of KINDS) {
    it(`${kind}: green when uncached and unflagged, amber under "loop device over the page cache"`, () => {
      const doc = load(kind);
      expect(doc.cacheMode).toBe('direct');
      expect(dotColour(doc)).toBe('green');
      expect(dotColour({ ...doc, flags: [loopCached] })).toBe('amber');
    });
  }
});
