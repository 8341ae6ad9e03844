// The share card, checked as a picture: each recorded result (test/fixtures/results) is rendered
// to PNG, decoded, and read back with OCR (tesseract) — the figures, the file system, the cache
// mode and the version must be legible on the image itself, not only present in the SVG.
// Also: text is escaped, long labels are cut (fast, however long), control characters cannot
// break the SVG, a cache warning shows, unknown kinds still render, and cards drawn off the
// caller's thread are stopped at their time limit.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { cardFilename, cardFontFiles, renderCardPng, renderCardPngOffThread } from '../../../app/src/core/card-png.js';
import {
  CARD_HEIGHT,
  CARD_WIDTH,
  cardDate,
  fitText,
  niceCeil,
  renderCardSvg,
  textWidth,
  wrapText,
} from '../../../app/src/model/report/card.js';
import { formatFigure, metricValue, resultMetrics } from '../../../app/src/model/report/metrics.js';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { dialLayout } from '../../../app/src/model/kinds/quick-card.js';
import { willItWorkCard, willItWorkCardLayout } from '../../../app/src/model/kinds/video/quick-card.js';
import { willItWork } from '../../../app/src/model/kinds/video/will-it-work.js';
import { norm, ocrFolder, ocrIt } from '../../helpers/card-ocr.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/results');
const load = (name: string): ResultDocument => JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), 'utf8')) as ResultDocument;

const { ocr } = ocrFolder();

/** A figure as the card prints it (mean across runs). */
function figure(doc: ResultDocument, key: string): string {
  const m = resultMetrics(doc).find((x) => x.key === key);
  if (!m) throw new Error(`no metric ${key}`);
  return formatFigure(metricValue(m), m.unit);
}

/** Distinct colours and the spread of brightness: a blank or flat picture has few and little. */
function pixelStats(png: PNG): { colours: number; stdev: number } {
  const colours = new Set<number>();
  let sum = 0;
  let sq = 0;
  const n = png.width * png.height;
  for (let i = 0; i < png.data.length; i += 4) {
    const r = png.data[i]!;
    const g = png.data[i + 1]!;
    const b = png.data[i + 2]!;
    colours.add((r << 16) | (g << 8) | b);
    const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    sum += l;
    sq += l * l;
  }
  const mean = sum / n;
  return { colours: colours.size, stdev: Math.sqrt(sq / n - mean * mean) };
}

// The figures each card must show legibly, as the card formats them.
const KEY_FIGURES: Record<string, (doc: ResultDocument) => string[]> = {
  quick: (d) => [figure(d, 'Write/mbps'), figure(d, 'Read/mbps')],
  cdm: (d) => [figure(d, 'SEQ1M Q8T1 Read/mbps'), figure(d, 'SEQ1M Q8T1 Write/mbps')],
  sustained: (d) => [figure(d, 'Sustained/mbps'), d.sustained!.runs[0]!.summary],
  files: (d) => [figure(d, 'Files Write/mbps'), figure(d, 'Files Read/mbps')],
  hash: (d) => [formatFigure(d.hash!.read.mbps, 'MB/s'), formatFigure(d.hash!.memory.mbps, 'MB/s')],
  // A QuickBench sweep: its chart beside QuickBench's two headline averages (issue 33).
  'sweep-quickbench': (d) => [
    'transfer size',
    '4 KB AVERAGE',
    ...['write.avg4K', 'read.avg4K', 'write.avg20to100M', 'read.avg20to100M'].map((k) => figure(d, `Sweep/${k}MBps`)),
  ],
};

describe('share card from the recorded results', () => {
  for (const kind of Object.keys(KEY_FIGURES)) {
    ocrIt(`${kind}: a 1600 × 900 PNG at 2×, not blank, and OCR reads the figures and the method`, () => {
      const doc = load(kind);
      const card = renderCardPng(doc);
      expect([card.width, card.height]).toEqual([1600, 900]);
      const png = PNG.sync.read(card.png);
      expect([png.width, png.height]).toEqual([1600, 900]);
      const stats = pixelStats(png);
      expect(stats.colours).toBeGreaterThan(500);
      expect(stats.stdev).toBeGreaterThan(10);

      const text = norm(ocr(card.png, kind));
      const expected = KEY_FIGURES[kind]!(doc);
      for (const f of expected) expect(text, `OCR text should contain ${f}:\n${text}`).toContain(norm(f));
      expect(text).toContain(norm(doc.target.fs));
      expect(text).toContain('uncached');
      expect(text).toContain(norm(`DiskDial ${doc.app.version}`));
      expect(text).toContain(norm(cardDate(doc.startedAt)));
    });
  }

  it('quick: the literal dial readings and the runs line are in the SVG', () => {
    const { svg } = renderCardSvg(load('quick'));
    expect(svg).toContain('>1,769<');
    expect(svg).toContain('>1,450<');
    expect(svg).toContain('mean of 3 runs · best 1,816');
    expect(svg).toContain('22 Nov 2026 02:39 UTC');
  });

  it('scale 1 gives the CSS size, 800 × 450, for every kind; other scales are refused', () => {
    expect([CARD_WIDTH, CARD_HEIGHT]).toEqual([800, 450]);
    for (const kind of Object.keys(KEY_FIGURES)) {
      const card = renderCardPng(load(kind), { scale: 1 });
      const png = PNG.sync.read(card.png);
      expect([png.width, png.height, card.width, card.height]).toEqual([800, 450, 800, 450]);
    }
    expect(() => renderCardPng(load('quick'), { scale: 5 })).toThrow(RangeError);
    expect(() => renderCardPng(load('quick'), { scale: 1.5 })).toThrow(RangeError);
  });

  it('the same document gives the same bytes (fonts come only from the bundled Inter files)', () => {
    const doc = load('cdm');
    expect(renderCardPng(doc).png.equals(renderCardPng(doc).png)).toBe(true);
    const fonts = cardFontFiles();
    expect(fonts).toHaveLength(3);
    for (const f of fonts) expect(existsSync(f), f).toBe(true);
  });

  it('cardFilename names the kind and the day', () => {
    expect(cardFilename(load('quick'))).toBe('diskdial-quick-2026-11-22.png');
    expect(cardFilename({ ...load('hash'), kind: 'Odd/Kind' })).toBe('diskdial-odd-kind-2026-11-22.png');
  });
});

describe('share card edge cases', () => {
  it('escapes markup in text: the SVG still parses and renders', () => {
    const doc = { ...load('quick'), label: `<script>&"'` };
    const card = renderCardPng(doc, { scale: 1 });
    expect(card.svg).toContain('&lt;script&gt;&amp;&quot;&apos;');
    expect(card.svg).not.toContain('<script>');
    expect(PNG.sync.read(card.png).width).toBe(800);
  });

  it('cuts a 300-character label with an ellipsis', () => {
    const label = 'Long label '.repeat(28).slice(0, 300);
    const { svg } = renderCardSvg({ ...load('quick'), label });
    expect(svg).not.toContain(label.trim());
    const shown = /<text[^>]*>(Long label[^<]*)<\/text>/.exec(svg)?.[1];
    expect(shown).toBeDefined();
    expect(shown!.endsWith('…')).toBe(true);
    expect(shown!.length).toBeLessThan(120);
  });

  ocrIt('a cache warning shows as a strip, and the method line says CACHED', () => {
    const base = load('quick');
    const message = "Write, Read went through the operating system's cache (buffered). Those figures may show the cache, not the disk.";
    const doc: ResultDocument = {
      ...base,
      cacheMode: 'buffered',
      flags: [
        { code: 'zeros-pattern', severity: 'info', message: 'An info flag does not make a strip.', fix: '' },
        { code: 'cache-not-direct', severity: 'warning', message, fix: 'Test a folder on a disk file system.' },
      ],
    };
    const card = renderCardPng(doc);
    expect(card.svg).toContain('⚠ Write, Read went through the operating system&apos;s cache');
    expect(card.svg).not.toContain('An info flag');
    const text = norm(ocr(card.png, 'warning'));
    expect(text).toContain('operatingsystem');
    expect(text).toContain('cached(pagecache)');
    // Without a warning there is no strip.
    expect(renderCardSvg(load('quick')).svg).not.toContain('⚠');
  });

  it('an unknown kind renders its primary figures as a list', () => {
    const doc = { ...load('quick'), kind: 'mystery' };
    const card = renderCardPng(doc, { scale: 1 });
    expect(card.svg).toContain('mystery');
    expect(card.svg).toContain('>1,769<');
    expect(PNG.sync.read(card.png).height).toBe(450);
    // A document with no tests at all still gets a card.
    const empty = renderCardPng({ ...load('quick'), kind: 'empty', tests: [], summary: undefined }, { scale: 1 });
    expect(empty.svg).toContain('no figures');
  });

  it('a sustained curve with a knee draws the dashed line and the cache size', () => {
    const doc = load('sustained');
    const run = doc.sustained!.runs[0]!;
    run.curve = Array.from({ length: 120 }, (_, i) => ({ bytes: (i + 1) * 1e8, mbps: i < 40 ? 3000 : 700 }));
    run.verdict = { kind: 'knee', kneeBytes: 4e9, beforeMBps: 3000, afterMBps: 700, lowestMBps: 690, change: -0.77 };
    run.summary =
      'Fast cache ≈ 4 GB, then 700 MB/s (−77 %), and this sentence goes on long enough that it has to wrap onto a second line of the card.';
    const { svg } = renderCardSvg(doc);
    expect(svg).toContain('stroke-dasharray="5 4"');
    expect(svg).toContain('knee at 4.00 GB');
    expect(svg).toContain('FAST CACHE');
    expect(svg).toContain('>Fast cache ≈ 4 GB, then 700 MB/s (−77 %), and');
  });
});

describe('hostile text on a card', () => {
  it('a 40,000-character label draws in well under a second (the old prefix-by-prefix cut took 18 s)', () => {
    const doc = { ...load('quick'), label: 'Through the hub '.repeat(2500) };
    const t0 = performance.now();
    const { svg } = renderCardSvg(doc);
    const ms = performance.now() - t0;
    expect(ms).toBeLessThan(1000);
    expect(svg).toMatch(/<text[^>]*>Through the hub[^<]{0,90}…<\/text>/);
  });

  it('8 MiB in a label, a model name and a verdict cost what is shown, not what was given', () => {
    // (A saved file can hold this; import refuses such a label, history.test.ts.)
    const huge = 'w'.repeat(8 * 1024 * 1024);
    const base = load('hash');
    const doc: ResultDocument = {
      ...base,
      label: huge,
      target: { ...base.target, device: { ...base.target.device, model: huge } },
      hash: { ...base.hash!, verdict: { ...base.hash!.verdict, text: `${huge} ${huge}` } },
    };
    const t0 = performance.now();
    const { svg } = renderCardSvg(doc);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(svg.length).toBeLessThan(100_000);
  });

  it('fitText cuts exactly where the old prefix-by-prefix loop did, at a word end when one is near', () => {
    // The old loop, kept here as the reference: fine on short texts, quadratic on long ones.
    const reference = (text: string, max: number, size: number, weight = 400): string => {
      const clean = text.replace(/\s+/g, ' ').trim();
      if (textWidth(clean, size, weight) <= max) return clean;
      const chars = [...clean];
      let n = chars.length;
      while (n > 0 && textWidth(chars.slice(0, n).join('') + '…', size, weight) > max) n--;
      const space = chars.slice(0, n + 1).lastIndexOf(' ');
      if (space >= n * 0.7) n = space;
      return (
        chars
          .slice(0, n)
          .join('')
          .replace(/[\s·,;:–—-]+$/, '') + '…'
      );
    };
    const alphabet = 'aeiouMWil1 .,-—·Ä😀\t';
    let seed = 7;
    const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 400; i++) {
      const text = Array.from({ length: rnd(80) }, () => [...alphabet][rnd([...alphabet].length)]).join('');
      const [max, size, weight] = [20 + rnd(400), 11 + rnd(8), rnd(2) ? 600 : 400];
      expect(fitText(text, max, size, weight), JSON.stringify({ text, max, size, weight })).toBe(reference(text, max, size, weight));
    }
    expect(wrapText('one two three four five six seven eight nine ten', 90, 13, 2).every((l) => textWidth(l, 13) <= 90)).toBe(true);
    expect(wrapText('  ', 90, 13, 2)).toEqual([]);
  });

  it('control characters in a label (\\x01, ANSI escapes) leave valid XML: the card still renders', () => {
    const doc = { ...load('quick'), label: 'Bad\x01label \x1b[31mred\x1b[0m\x0b\ud800' };
    const card = renderCardPng(doc, { scale: 1 });
    expect(PNG.sync.read(card.png).width).toBe(800);
    expect(card.svg).toContain('>Badlabel red<');
    // eslint-disable-next-line no-control-regex -- the test looks for control characters
    expect(card.svg).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/);
  });
});

describe("cards off the caller's thread", () => {
  it('a worker draws the same picture as renderCardPng', async () => {
    const doc = load('cdm');
    const off = await renderCardPngOffThread(doc, { scale: 1 });
    const on = renderCardPng(doc, { scale: 1 });
    expect([off.width, off.height]).toEqual([800, 450]);
    expect(off.svg).toBe(on.svg);
    expect(off.png.equals(on.png)).toBe(true);
    await expect(renderCardPngOffThread(doc, { scale: 9 })).rejects.toThrow(RangeError);
  });

  it('a renderer that never finishes is stopped at the time limit, and this thread keeps running meanwhile', async () => {
    const hanging = path.resolve(fixtures, '../card/hanging-worker.mjs');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    const t0 = performance.now();
    try {
      await expect(renderCardPngOffThread(load('quick'), { timeLimitMs: 600, workerModule: hanging })).rejects.toMatchObject({
        code: 'ERR_CARD_TIMEOUT',
        message: 'The share card took longer than 600 ms to draw and was stopped; the result itself is unchanged.',
      });
    } finally {
      clearInterval(timer);
    }
    const ms = performance.now() - t0;
    expect(ms).toBeGreaterThanOrEqual(590);
    expect(ms).toBeLessThan(10_000);
    // The spinning worker did not hold this thread: the interval kept firing.
    expect(ticks).toBeGreaterThan(5);
  });
});

describe('share card dials', () => {
  it('the big reading never touches a scale label, at any magnitude', () => {
    const hit = (a: { x0: number; y0: number; x1: number; y1: number }, b: typeof a) =>
      a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
    for (const value of [0.5, 9.9, 55.5, 99.4, 312, 835, 999, 1004.25, 2650, 3780, 5123, 7412.6, 12345.6, 28000]) {
      // The card's scale for a pair: the higher reading with 4 % headroom, rounded up.
      for (const max of [niceCeil(value * 1.04), niceCeil(value * 1.6), niceCeil(value * 3)]) {
        const { labels, reading } = dialLayout(value, max);
        for (const l of labels) expect(hit(reading.box, l.box), `${reading.text} on 0–${max} vs label ${l.text}`).toBe(false);
        expect(reading.size).toBeGreaterThanOrEqual(18);
      }
    }
  });
});

describe('the packaged app', () => {
  it('reads the fonts from app.asar.unpacked, where electron-builder.yml puts them (native code cannot open files inside an asar)', async () => {
    const { unpackedPath } = await import('../../../app/src/core/card-png.js');
    expect(unpackedPath('/opt/DiskDial/resources/app.asar/node_modules/@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf')).toBe(
      '/opt/DiskDial/resources/app.asar.unpacked/node_modules/@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf',
    );
    expect(unpackedPath('C:\\DiskDial\\resources\\app.asar\\node_modules\\x.ttf')).toBe(
      'C:\\DiskDial\\resources\\app.asar.unpacked\\node_modules\\x.ttf',
    );
    expect(unpackedPath('/work/main/node_modules/@expo-google-fonts/inter/x.ttf')).toBe(
      '/work/main/node_modules/@expo-google-fonts/inter/x.ttf',
    );
  });
});

describe('the Quick Test card\'s "Will it work?" block', () => {
  /** The quick fixture with every write at `write` MB/s and every read at `read`. */
  function quickAt(write: number, read: number): ResultDocument {
    const doc = load('quick');
    for (const t of doc.tests) t.mbps = t.rw === 'write' ? write : read;
    return doc;
  }
  // The figures' box of a card without a warning strip (card.ts: below the header, above the band).
  const BOX = { x: 28, y: 84, w: 744, h: 276 };
  const ROWS = ['ProRes 422 HQ HD', 'ProRes 422 HQ UHD', 'H.264 HD', 'H.264 UHD', 'HEVC HD', 'HEVC UHD'];

  ocrIt('OCR reads its title, the common formats at HD and UHD, and how it was decided', () => {
    const card = renderCardPng(quickAt(120, 200));
    const text = norm(ocr(card.png, 'video-block'));
    for (const words of [
      'Will it work? 29.97 fps',
      ...ROWS,
      'Write',
      'Read',
      'Mean speed vs need with 20 % margin;',
      'a paced test checks frame by frame.',
    ])
      expect(text, `OCR text should contain ${words}:\n${text}`).toContain(norm(words));
  });

  it('draws a green ✓ or a red ✗ where each verdict is: 120 MB/s cannot record UHD ProRes 422 HQ (needs 138), 200 plays it', () => {
    const doc = quickAt(120, 200);
    const card = renderCardPng(doc);
    const layout = willItWorkCardLayout(doc, BOX)!;
    expect(card.svg).toContain(willItWorkCard(layout));
    expect(layout.rows.map((r) => r.label)).toEqual(ROWS);
    const png = PNG.sync.read(card.png);
    /** The mark's colour on the picture (2×): the most saturated pixel within 6 units of its centre. */
    const colourAt = (cx: number, cy: number): 'green' | 'red' | 'none' => {
      let best: 'green' | 'red' | 'none' = 'none';
      for (let y = Math.round((cy - 6) * 2); y <= (cy + 6) * 2; y++)
        for (let x = Math.round((cx - 6) * 2); x <= (cx + 6) * 2; x++) {
          const i = (y * png.width + x) * 4;
          const [r, g] = [png.data[i]!, png.data[i + 1]!];
          if (g > r + 80) best = 'green';
          if (r > g + 80) return 'red';
        }
      return best;
    };
    const seen = layout.rows.map((r) => [r.label, colourAt(r.write.cx, r.write.cy), colourAt(r.read.cx, r.read.cy)]);
    expect(seen).toEqual([
      ['ProRes 422 HQ HD', 'green', 'green'],
      ['ProRes 422 HQ UHD', 'red', 'green'],
      ['H.264 HD', 'green', 'green'],
      ['H.264 UHD', 'green', 'green'],
      ['HEVC HD', 'green', 'green'],
      ['HEVC UHD', 'green', 'green'],
    ]);
  });

  it("a frame-paced test launched from this result decides its row and every heavier one, marked †; another drive's or an unlinked one decides nothing", async () => {
    const doc = quickAt(500, 500);
    const row = willItWork(doc)!.rows.find((r) => r.formatId === 'prores-hq' && r.resolutionId === 'hd')!;
    expect(row.write.outcome).toBe('ok');
    // The real paced document, as if it had been a ProRes 422 HQ HD check launched from this
    // result at the card's rate, whose writes dropped frames from 5 s on (the buffer overflowed).
    const paced = load('video');
    paced.target = doc.target;
    paced.settings.video = { ...paced.settings.video!, from: doc.id };
    const run = paced.video!.runs[0]!;
    paced.video = {
      ...paced.video!,
      formatId: 'prores-hq',
      resolutionId: 'hd',
      fps: row.fps,
      dataRateMBps: row.dataRateMBps,
      runs: [{ ...run, write: { ...run.write, dropped: 3, late: 5, firstLateSeconds: 5 } }],
    };
    const card = await renderCardPngOffThread(doc, { paced: [paced] });
    const layout = willItWorkCardLayout(doc, BOX, [paced])!;
    expect(card.svg).toContain(willItWorkCard(layout));
    const at = (label: string) => layout.rows.find((r) => r.label.startsWith(label))!;
    expect(at('ProRes 422 HQ HD').label).toBe('ProRes 422 HQ HD †');
    expect(at('ProRes 422 HQ HD').write.outcome).toBe('fail');
    // UHD needs 4× the rate HD dropped frames at: ✗ implied, never ✓ beside the lighter ✗.
    expect(at('ProRes 422 HQ UHD')).toMatchObject({ label: 'ProRes 422 HQ UHD †', write: { outcome: 'fail' } });
    expect(layout.method[1]).toBe('† decided by a frame-paced test.');
    // Without it, or with it not launched from this result, the same card is the average's.
    expect(willItWorkCardLayout(doc, BOX)!.rows[0]).toMatchObject({ label: 'ProRes 422 HQ HD', write: { outcome: 'ok' } });
    paced.settings.video = { ...paced.settings.video!, from: 'another-quick-test' };
    expect(willItWorkCardLayout(doc, BOX, [paced])).toEqual(willItWorkCardLayout(doc, BOX));
  });

  it('is only on Quick Test cards, and leaves the dials their readings', () => {
    for (const kind of ['cdm', 'sustained', 'files', 'hash']) expect(renderCardSvg(load(kind)).svg).not.toContain('Will it work?');
    const { svg } = renderCardSvg(load('quick'));
    expect(svg).toContain('Will it work? 29.97 fps');
    expect(svg).toContain('>1,769<');
    expect(svg).toContain('>1,450<');
  });
});
