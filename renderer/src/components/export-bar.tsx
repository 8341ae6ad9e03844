// The text exports of one result or of a comparison: Markdown and CrystalDiskMark-style text to
// the clipboard, CSV, JSON and HTML to a file (the OS save dialog, or a download in browser mode).
// The core writes the text; this only moves it. Each action says what it did in a status line.
import { useState, type ReactNode } from 'react';
import { getBridge } from '../lib/bridge';
import type { StatusNote } from '../lib/status';
import { ipcErrorText } from '@model/events';
import type { ExportFormat } from '@model/settings';

const COPY_WORDS: Partial<Record<ExportFormat, string>> = { md: 'Markdown', txt: 'text' };

/** Copies an export to the clipboard; says what happened. */
export async function copyExport(ids: string[], format: ExportFormat, baseline?: string, fps?: number): Promise<StatusNote> {
  const bridge = getBridge();
  const file = await bridge.exportResults(ids, format, baseline, fps);
  if (!file.ok) return { text: ipcErrorText(file.error, 'Could not make the export.'), tone: 'error' };
  const r = await bridge.copyText(file.value.text);
  if (!r.ok) return { text: ipcErrorText(r.error, 'Could not copy to the clipboard.'), tone: 'error' };
  return { text: `Copied ${COPY_WORDS[format] ?? format.toUpperCase()}`, tone: 'ok' };
}

/** Saves an export as a file; says what happened (nothing when the user cancelled the dialog). */
export async function saveExport(ids: string[], format: ExportFormat, baseline?: string, fps?: number): Promise<StatusNote | null> {
  const bridge = getBridge();
  const file = await bridge.exportResults(ids, format, baseline, fps);
  if (!file.ok) return { text: ipcErrorText(file.error, 'Could not make the export.'), tone: 'error' };
  const r = await bridge.saveFile(file.value.filename, file.value.text, 'utf8', file.value.mime);
  if (!r.ok) return { text: ipcErrorText(r.error, 'Could not save the file.'), tone: 'error' };
  return r.value ? { text: `Saved ${r.value.path}`, tone: 'ok' } : null;
}

/** An action that reports into a status line: busy while it runs, its note when it ends (to
 *  `report` when given, else to the hook's own `status`). */
export function useStatusAction(report?: (s: StatusNote | null) => void) {
  const [status, setStatus] = useState<StatusNote | null>(null);
  const [busy, setBusy] = useState(false);
  const say = report ?? setStatus;
  const act = async (what: () => Promise<StatusNote | null>): Promise<void> => {
    setBusy(true);
    say(null);
    try {
      say(await what());
    } finally {
      setBusy(false);
    }
  };
  return { status, setStatus, busy, act };
}

/** The status line actions report into (polite: read out without moving focus). */
export function StatusLine({ status, testId }: { status: StatusNote | null; testId?: string }) {
  return (
    <p className={`history-status${status?.tone === 'error' ? ' history-status--error' : ''}`} role="status" data-testid={testId}>
      {status?.text ?? ''}
    </p>
  );
}

export interface ExportBarProps {
  ids: string[];
  baseline?: string | undefined;
  /** Buttons placed before the exports (Share…, Compare with…). */
  before?: ReactNode;
  /** Report into a status line the parent shows; without it the bar shows its own. */
  onStatus?: (s: StatusNote | null) => void;
  /** Copy text (CrystalDiskMark-style): single results only. */
  withText?: boolean;
  /** The frame rate shown in a Quick Test's "Will it work?" table, for the exports to use. */
  willItWorkFps?: number | undefined;
}

/** The bar's buttons in order: text formats go to the clipboard, the others to a file. */
const EXPORT_ACTIONS: ReadonlyArray<{ format: ExportFormat; label: string; to: 'clipboard' | 'file' }> = [
  { format: 'md', label: 'Copy Markdown', to: 'clipboard' },
  { format: 'txt', label: 'Copy text', to: 'clipboard' },
  { format: 'csv', label: 'Save CSV', to: 'file' },
  { format: 'json', label: 'Save JSON', to: 'file' },
  { format: 'html', label: 'Save HTML', to: 'file' },
];

export function ExportBar({ ids, baseline, before, onStatus, withText = false, willItWorkFps }: ExportBarProps) {
  const { status: own, busy, act: run } = useStatusAction(onStatus);
  const copy = (f: ExportFormat) => () => void run(() => copyExport(ids, f, baseline, willItWorkFps));
  const save = (f: ExportFormat) => () => void run(() => saveExport(ids, f, baseline, willItWorkFps));
  return (
    <div className="export-bar">
      <div className="export-bar__buttons" role="group" aria-label="Share and export">
        {before}
        {EXPORT_ACTIONS.filter((a) => withText || a.format !== 'txt').map((a) => (
          <button
            key={a.format}
            type="button"
            className="button"
            data-testid={`export-${a.format}`}
            disabled={busy}
            onClick={(a.to === 'clipboard' ? copy : save)(a.format)}
          >
            {a.label}
          </button>
        ))}
      </div>
      {!onStatus && <StatusLine status={own} testId="export-status" />}
    </div>
  );
}
