// The share card as PNG: report/card.ts's SVG rasterized by resvg at `scale` × its CSS size
// (2 by default, crisp on HiDPI screens and forums). Fonts come only from the Inter files of
// @expo-google-fonts/inter, never the system's, so the picture is the same on every machine
// and from the app, the CLI and the browser mode alike.
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import type { ResultDocument } from './result.js';
import { renderCardSvg } from './report/card.js';

const require = createRequire(import.meta.url);

const FONT_WEIGHTS = ['400Regular', '600SemiBold', '700Bold'] as const;

let fontFiles: string[] | undefined;
/** The Inter TTFs the card uses, resolved through the package (works from source and dist/).
 *  In the packaged app require.resolve answers a path inside app.asar, which resvg's native code
 *  cannot open: electron-builder.yml unpacks the fonts next to it, into app.asar.unpacked. */
export function cardFontFiles(): string[] {
  fontFiles ??= FONT_WEIGHTS.map((w) => unpackedPath(require.resolve(`@expo-google-fonts/inter/${w}/Inter_${w}.ttf`)));
  return fontFiles;
}

/** …/app.asar/node_modules/… → …/app.asar.unpacked/node_modules/… (other paths unchanged). */
export function unpackedPath(file: string): string {
  return file.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

export interface CardPng {
  png: Buffer;
  /** Pixels: the card's CSS size × scale. */
  width: number;
  height: number;
  /** The SVG it was rasterized from. */
  svg: string;
}

/** The result's share card as PNG. `scale` is an integer 1–4 (default 2). */
export function renderCardPng(doc: ResultDocument, opts: { scale?: number } = {}): CardPng {
  const scale = opts.scale ?? 2;
  if (!Number.isInteger(scale) || scale < 1 || scale > 4) throw new RangeError(`renderCardPng: scale must be an integer from 1 to 4, got ${scale}`);
  const { svg } = renderCardSvg(doc);
  const resvg = new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: cardFontFiles(), defaultFontFamily: 'Inter' },
    fitTo: { mode: 'zoom', value: scale },
    shapeRendering: 2,
    textRendering: 1,
    logLevel: 'off',
  });
  const image = resvg.render();
  return { png: image.asPng(), width: image.width, height: image.height, svg };
}

/** "diskdial-quick-2026-11-22.png": the kind and the day the test started (UTC). */
export function cardFilename(doc: ResultDocument): string {
  const kind = String(doc.kind).replace(/[^a-z0-9-]+/gi, '-').replace(/^-+|-+$/g, '').toLowerCase() || 'result';
  const day = /^\d{4}-\d{2}-\d{2}/.exec(doc.startedAt)?.[0] ?? 'undated';
  return `diskdial-${kind}-${day}.png`;
}
