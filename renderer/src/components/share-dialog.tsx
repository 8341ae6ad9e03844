// The share card of one result in a modal: the PNG the core drew (at twice its CSS size, shown
// at CSS size so it is crisp on HiDPI screens), and Save PNG, Copy image, Copy Markdown. Esc or
// Close closes it; focus moves into it when it opens, stays inside while it is open (Tab wraps),
// and goes back to what had it when it closes.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { getBridge } from '../lib/bridge';
import { copyExport, StatusLine, useStatusAction } from './export-bar';
import { ipcErrorText } from '@model/events';
import type { ShareCard } from '@model/history';

type CardState = { state: 'loading' } | { state: 'ok'; card: ShareCard } | { state: 'error'; message: string };

export interface ShareDialogProps {
  id: string;
  /** The result's name, for the image's alternative text. */
  name?: string | undefined;
  onClose(): void;
}

/** The card is drawn at twice its CSS size and shown at its CSS size. */
const SCALE = 2;

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function ShareDialog({ id, name, onClose }: ShareDialogProps) {
  const [card, setCard] = useState<CardState>({ state: 'loading' });
  const { status, busy, act } = useStatusAction();
  const titleId = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    let live = true;
    setCard({ state: 'loading' });
    void getBridge()
      .shareCard(id, SCALE)
      .then((r) => {
        if (!live) return;
        setCard(r.ok ? { state: 'ok', card: r.value } : { state: 'error', message: ipcErrorText(r.error, 'Could not draw the card.') });
      });
    return () => {
      live = false;
    };
  }, [id]);

  // Focus in on open, back to the opener on close.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    return () => {
      if (opener && opener.isConnected) opener.focus();
    };
  }, []);

  // Esc closes the dialog wherever focus is: a button that disables itself while it works
  // (Copy image) drops focus to the page, and Esc must still work then.
  useEffect(() => {
    const onEscape = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      onClose();
    };
    document.addEventListener('keydown', onEscape);
    return () => document.removeEventListener('keydown', onEscape);
  }, [onClose]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Tab' || !boxRef.current) return;
    const items = [...boxRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  const savePng = (c: ShareCard) =>
    act(async () => {
      const r = await getBridge().saveFile(c.filename, c.pngBase64, 'base64', 'image/png');
      if (!r.ok) return { text: ipcErrorText(r.error, 'Could not save the image.'), tone: 'error' };
      return r.value ? { text: `Saved ${r.value.path}`, tone: 'ok' } : null;
    });

  const copyPng = (c: ShareCard) =>
    act(async () => {
      const r = await getBridge().copyImage(c.pngBase64);
      return r.ok ? { text: 'Copied the image', tone: 'ok' } : { text: ipcErrorText(r.error, 'Could not copy the image.'), tone: 'error' };
    });

  const ready = card.state === 'ok' ? card.card : null;
  const alt = `Result card: ${name ?? ready?.filename.replace(/\.png$/i, '') ?? 'result'}`;

  return createPortal(
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={boxRef}
        className="modal card share-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="share-dialog"
        onKeyDown={onKeyDown}
      >
        {/* A div, not <header>: in a portal outside any section a header is a second banner. */}
        <div className="card__header">
          <h2 id={titleId} className="card__title">
            Share result
          </h2>
          <button ref={closeRef} type="button" className="button" onClick={onClose} data-testid="share-close">
            Close
          </button>
        </div>
        <div className="share-dialog__body">
          {card.state === 'loading' && (
            <p className="share-dialog__loading" role="status">
              Drawing the card…
            </p>
          )}
          {card.state === 'error' && (
            <p className="panel-error" role="alert">
              {card.message}
            </p>
          )}
          {ready && (
            <div className="share-dialog__image">
              <img src={`data:image/png;base64,${ready.pngBase64}`} alt={alt} width={ready.width / SCALE} data-testid="share-image" />
            </div>
          )}
          <div className="export-bar__buttons" role="group" aria-label="Share">
            <button
              type="button"
              className="button button--primary"
              data-testid="share-save"
              disabled={!ready || busy}
              onClick={() => ready && void savePng(ready)}
            >
              Save PNG
            </button>
            <button
              type="button"
              className="button"
              data-testid="share-copy"
              disabled={!ready || busy}
              onClick={() => ready && void copyPng(ready)}
            >
              Copy image
            </button>
            <button
              type="button"
              className="button"
              data-testid="share-copy-md"
              disabled={busy}
              onClick={() => void act(() => copyExport([id], 'md'))}
            >
              Copy Markdown
            </button>
          </div>
          <StatusLine status={status} testId="share-status" />
        </div>
      </div>
    </div>,
    document.body,
  );
}
