// The share card as PNG: report/card.ts's SVG rasterized by resvg at `scale` × its CSS size
// (2 by default, crisp on HiDPI screens and forums). Fonts come only from the Inter files of
// @expo-google-fonts/inter, never the system's, so the picture is the same on every machine
// and from the app, the CLI and the browser mode alike.
//
// The app's main process, `diskdial serve` and the CLI draw cards with renderCardPngOffThread: in a
// worker thread with a time limit, so a result made to be slow to draw (an imported file is
// anyone's) can never freeze the window, the server or the terminal.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Resvg } from '@resvg/resvg-js';
import { DiskDialError } from '../model/errors.js';
import type { ResultDocument } from '../model/result.js';
import { renderCardSvg } from '../model/report/card.js';

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
export function renderCardPng(doc: ResultDocument, opts: { scale?: number; paced?: readonly ResultDocument[] } = {}): CardPng {
  const scale = opts.scale ?? 2;
  if (!Number.isInteger(scale) || scale < 1 || scale > 4)
    throw new RangeError(`renderCardPng: scale must be an integer from 1 to 4, got ${scale}`);
  const { svg } = renderCardSvg(doc, opts.paced ? { paced: opts.paced } : {});
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

/** How long a card may take: one draws in well under a second, even on a busy machine. */
export const CARD_TIME_LIMIT_MS = 15_000;

export interface OffThreadOptions {
  /** An integer 1–4 (default 2). */
  scale?: number;
  /** Milliseconds before the worker is stopped and the card refused (default CARD_TIME_LIMIT_MS). */
  timeLimitMs?: number;
  /** The worker's entry file; default card-worker next to this file (tests inject a slow one). */
  workerModule?: string;
  /** Saved frame-paced results: they decide a Quick Test's Will-it-work rows for their drive. */
  paced?: readonly ResultDocument[];
}

/** renderCardPng in a worker thread, stopped (and refused with ERR_CARD_TIMEOUT) at the time limit. */
export function renderCardPngOffThread(doc: ResultDocument, opts: OffThreadOptions = {}): Promise<CardPng> {
  const scale = opts.scale ?? 2;
  if (!Number.isInteger(scale) || scale < 1 || scale > 4)
    return Promise.reject(new RangeError(`renderCardPng: scale must be an integer from 1 to 4, got ${scale}`));
  const limit = opts.timeLimitMs ?? CARD_TIME_LIMIT_MS;
  const worker = startWorker(opts.workerModule ?? cardWorkerPath(), { doc, scale, paced: opts.paced ?? [] });
  return new Promise<CardPng>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => {
      const seconds = limit >= 1000 ? `${Math.round(limit / 1000)} s` : `${limit} ms`;
      settle(() =>
        reject(
          new DiskDialError(`The share card took longer than ${seconds} to draw and was stopped; the result itself is unchanged.`, {
            code: 'ERR_CARD_TIMEOUT',
          }),
        ),
      );
    }, limit);
    worker.on(
      'message',
      (m: { ok: true; png: ArrayBuffer; width: number; height: number; svg: string } | { ok: false; name: string; message: string }) => {
        settle(() => {
          if (m.ok) resolve({ png: Buffer.from(m.png), width: m.width, height: m.height, svg: m.svg });
          else
            reject(
              m.name === 'RangeError'
                ? new RangeError(m.message)
                : new DiskDialError(`The share card could not be drawn: ${m.message}`, { code: 'ERR_CARD' }),
            );
        });
      },
    );
    worker.on('error', (err) => {
      const oom = (err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      settle(() =>
        reject(
          new DiskDialError(
            oom ? 'The share card needed too much memory to draw and was stopped.' : `The share card could not be drawn: ${err.message}`,
            { code: 'ERR_CARD' },
          ),
        ),
      );
    });
    worker.on('exit', (code) =>
      settle(() =>
        reject(new DiskDialError(`The share card could not be drawn (its worker ended with code ${code}).`, { code: 'ERR_CARD' })),
      ),
    );
  });
}

/** card-worker next to this file: .js when compiled (dist/core), .ts from source (tests). */
function cardWorkerPath(): string {
  const here = fileURLToPath(import.meta.url);
  return path.join(path.dirname(here), `card-worker${path.extname(here)}`);
}

function startWorker(file: string, workerData: unknown): Worker {
  // A card needs tens of MB; the cap stops a hostile document long before it hurts the process.
  const resourceLimits = { maxOldGenerationSizeMb: 512 };
  if (!file.endsWith('.ts')) return new Worker(file, { workerData, resourceLimits });
  // From source a worker cannot load TypeScript by itself: tsx's require hook compiles it.
  const code = `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register(); require(${JSON.stringify(file)});`;
  return new Worker(code, { eval: true, workerData, resourceLimits });
}

/** "diskdial-quick-2026-11-22.png": the kind and the day the test started (UTC). */
export function cardFilename(doc: ResultDocument): string {
  const kind =
    String(doc.kind)
      .replace(/[^a-z0-9-]+/gi, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase() || 'result';
  const day = /^\d{4}-\d{2}-\d{2}/.exec(doc.startedAt)?.[0] ?? 'undated';
  return `diskdial-${kind}-${day}.png`;
}
