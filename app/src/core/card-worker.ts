// The share card drawn in a worker thread (card-png.ts's renderCardPngOffThread starts it): the
// SVG and resvg's rasterizing run here, so a document that is slow to draw holds up this thread
// only, and the caller can stop it at its time limit. One card per worker; the worker then ends.
import { parentPort, workerData } from 'node:worker_threads';
import { renderCardPng } from './card-png.js';
import type { ResultDocument } from '../model/result.js';

const { doc, scale, paced } = workerData as { doc: ResultDocument; scale: number; paced?: ResultDocument[] };
try {
  const card = renderCardPng(doc, { scale, ...(paced?.length ? { paced } : {}) });
  const png = card.png.buffer.slice(card.png.byteOffset, card.png.byteOffset + card.png.byteLength);
  parentPort!.postMessage({ ok: true, png, width: card.width, height: card.height, svg: card.svg }, [png as ArrayBuffer]);
} catch (err) {
  const e = err as Error;
  parentPort!.postMessage({ ok: false, name: e?.name ?? 'Error', message: e?.message ?? String(err) });
}
