// History as the front doors use it: the store's verbs (list a page, a drive's results, get, label, delete, import), the
// text exports, the comparison report and the share card of saved results, and `record`, which the test services call
// with every finished result. Shared by Electron's main process, browser mode and the CLI.
import type { ResultDocument } from '../model/result.js';
import { RESULT_KINDS } from '../model/kinds/registry.js';
import { HistoryStore } from '../core/history.js';
import { renderExport } from '../model/report/export.js';
import type { ExportFile, HistoryEntry, HistoryListing, HistoryQuery, ShareCard } from '../model/history.js';
import type { ExportFormat } from '../model/settings.js';
import type { SavedNote } from '../model/events.js';
import { renderFormatReport } from '../model/report/format-report.js';

export class HistoryService {
  readonly store: HistoryStore;

  constructor(store: HistoryStore = new HistoryStore()) {
    this.store = store;
  }

  /** One page of History as `query` asks (every result, newest first, without one). */
  list(query: HistoryQuery = {}): Promise<HistoryListing> {
    return this.store.query(query);
  }

  /** Every result of one drive, oldest first, from the index: "this drive over time". */
  async drive(driveKey: string): Promise<HistoryEntry[]> {
    return (await this.store.query({ driveKey, sort: 'date', order: 'asc' })).entries;
  }

  get(id: string): Promise<ResultDocument> {
    return this.store.get(id);
  }

  label(id: string, label: string): Promise<HistoryEntry> {
    return this.store.label(id, label);
  }

  async delete(ids: readonly string[]): Promise<{ deleted: number }> {
    return { deleted: await this.store.delete(ids) };
  }

  /** Imports an exported file's text; a comparison export brings in each of its results. */
  async import(json: string, name?: string): Promise<{ entry: HistoryEntry; duplicate: boolean }> {
    const { entries, duplicates } = await this.store.import(json, name);
    return { entry: entries[0]!, duplicate: duplicates === entries.length };
  }

  /** One result, or several side by side (`baseline` the reference), in a text format; `fps`
   *  sets the frame rate of a Quick Test's "Will it work?" section. */
  async export(ids: readonly string[], format: ExportFormat, baseline?: string, fps?: number): Promise<ExportFile> {
    const docs = await Promise.all(ids.map((id) => this.store.get(id)));
    // A Quick Test's Will-it-work rows take a paced test's verdict where one ran on its drive.
    const paced = docs.some((d) => d.kind === 'quick') ? await this.pacedResults() : [];
    const willItWork = { ...(fps !== undefined ? { fps } : {}), ...(paced.length > 0 ? { paced } : {}) };
    return renderExport(docs, format, {
      ...(baseline !== undefined ? { baseline } : {}),
      ...(Object.keys(willItWork).length > 0 ? { willItWork } : {}),
    });
  }

  /** Every saved frame-paced video result (the model picks those of the same target and format). */
  async pacedResults(): Promise<ResultDocument[]> {
    // Only the paced kinds' rows, asked of the index, not every result.
    const kinds = RESULT_KINDS.filter((k) => k.paced).map((k) => k.id);
    const entries = (await Promise.all(kinds.map((kind) => this.store.query({ kind })))).flatMap((l) => l.entries);
    const docs = await Promise.all(entries.map((e) => this.store.get(e.id).catch(() => undefined)));
    return docs.filter((d): d is ResultDocument => d !== undefined);
  }

  /** The comparison report (format × read/write × stress size) of saved results, in a text format. */
  async report(ids: readonly string[], format: ExportFormat, baseline?: string): Promise<ExportFile> {
    const docs = await Promise.all(ids.map((id) => this.store.get(id)));
    return renderFormatReport(docs, format, baseline !== undefined ? { baseline } : {});
  }

  /** The share card of a saved result, rasterized here so app and CLI give the same picture. */
  async card(id: string, scale = 2): Promise<ShareCard> {
    const doc = await this.store.get(id);
    // resvg is loaded on first use: most sessions never share a card. It draws in a worker with a
    // time limit, never on this thread (the app's main process, or the server's).
    const { renderCardPngOffThread, cardFilename } = await import('../core/card-png.js');
    // A Quick Test's "Will it work?" block: rows a frame-paced test of its drive decided.
    const paced = doc.kind === 'quick' ? await this.pacedResults() : [];
    const card = await renderCardPngOffThread(doc, { scale, ...(paced.length > 0 ? { paced } : {}) });
    return { pngBase64: card.png.toString('base64'), width: card.width, height: card.height, svg: card.svg, filename: cardFilename(doc) };
  }

  /** Saves a finished result (the test services' ResultRecorder). */
  readonly record = async (doc: ResultDocument): Promise<SavedNote> => {
    try {
      await this.store.save(doc);
      return { id: doc.id };
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      return {
        error: { code: e.code ?? 'ERR_HISTORY', message: `The result could not be saved to history in ${this.store.dir}: ${e.message}` },
      };
    }
  };
}
