// A result's name with a pencil to rename it in place: the pencil opens a text field; Enter or
// Save sets the label (an empty one goes back to the volume and date), Esc or Cancel leaves it.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useHistoryStore } from './store';

export interface LabelEditorProps {
  id: string;
  /** What the result is called now (its label, else volume and date). */
  name: string;
  /** Its label, if it has one: what the field starts with. */
  label?: string | undefined;
  /** Heading level for the result view; a plain span in a row. */
  as?: 'h2' | 'span';
}

export function LabelEditor({ id, name, label, as: Tag = 'span' }: LabelEditorProps) {
  const save = useHistoryStore((s) => s.label);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(label ?? '');
  const [saving, setSaving] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const pencilRef = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);

  useEffect(() => {
    if (editing) {
      inputRef.current?.focus();
      inputRef.current?.select();
    } else if (wasEditing.current) pencilRef.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  const begin = () => {
    setText(label ?? '');
    setEditing(true);
  };
  const commit = async () => {
    if (saving) return;
    setSaving(true);
    const ok = await save(id, text);
    setSaving(false);
    if (ok) setEditing(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void commit();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setEditing(false);
    }
  };

  if (editing) {
    return (
      <span className="label-editor label-editor--editing">
        <input
          ref={inputRef}
          className="text-input label-editor__input"
          value={text}
          maxLength={200}
          placeholder={name}
          aria-label="Name of this result (empty: the volume and date)"
          data-testid="label-input"
          disabled={saving}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="button button--small" disabled={saving} onClick={() => void commit()}>
          Save
        </button>
        <button type="button" className="button button--small" disabled={saving} onClick={() => setEditing(false)}>
          Cancel
        </button>
      </span>
    );
  }
  return (
    <span className="label-editor">
      <Tag className={Tag === 'h2' ? 'result-view__name' : 'history-name'}>{name}</Tag>
      <button
        ref={pencilRef}
        type="button"
        className="icon-button"
        aria-label={`Rename ${name}`}
        title="Rename"
        data-testid="label-edit"
        onClick={begin}
      >
        <svg viewBox="0 0 20 20" aria-hidden="true" width="14" height="14">
          <path d="M13.6 3.2 16.8 6.4 7 16.2 3.4 16.6 3.8 13Z" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
        </svg>
      </button>
    </span>
  );
}
