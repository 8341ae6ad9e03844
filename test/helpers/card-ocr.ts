// The share card read back as a picture: tesseract's text of a rendered PNG, for the card tests
// (test/app/core/share-card.test.ts and the kinds' own card tests). Without tesseract the OCR
// checks skip locally; in CI they must fail, not pass by skipping.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, it } from 'vitest';

const TESSERACT = '/usr/bin/tesseract';
const hasTesseract = existsSync(TESSERACT);

export const ocrIt = hasTesseract || process.env.CI === 'true' ? it : it.skip;

/** A folder for the PNGs tesseract reads, removed after the calling file's tests. */
export function ocrFolder(): { ocr(png: Buffer, name: string): string } {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'diskdial-card-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  return { ocr: (png, name) => ocr(png, path.join(tmp, `${name}.png`)) };
}

/** The PNG's text as tesseract reads it. The card is light text on a dark ground; tesseract
 *  reads dark on light best, so each pixel's brightest channel is inverted and thresholded
 *  first (coloured figures turn black too). Sparse-text mode finds the figures inside the dials. */
function ocr(png: Buffer, file: string): string {
  if (!hasTesseract)
    throw new Error(
      `tesseract not found at ${TESSERACT}: install tesseract-ocr (apt-get install tesseract-ocr) to run the share-card OCR checks`,
    );
  const img = PNG.sync.read(png);
  const out = new PNG({ width: img.width, height: img.height });
  for (let i = 0; i < img.data.length; i += 4) {
    const inv = 255 - Math.max(img.data[i]!, img.data[i + 1]!, img.data[i + 2]!);
    const v = inv < 150 ? Math.max(0, inv - 60) : 255;
    out.data[i] = out.data[i + 1] = out.data[i + 2] = v;
    out.data[i + 3] = 255;
  }
  writeFileSync(file, PNG.sync.write(out));
  return execFileSync(TESSERACT, [file, 'stdout', '--psm', '11'], {
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 20_000,
  }).toString('utf8');
}

/** Compared without spaces, commas and case: "1,769" and "1 769" both read as "1769". */
export const norm = (s: string): string => s.toLowerCase().replace(/[\s,]+/g, '');
