// The verify panel's whole-disk face: which disk (the wizard's listing: only disks it would offer
// to erase), and its name typed to confirm that everything on it is overwritten. Where this front
// door may not overwrite a disk (browser mode without --allow-erase) it says so up front, from the
// app's own answer, instead of offering disks. The core proves the disk again before writing.
import { useEffect, useId, useState } from 'react';
import type { WizardDisk } from '@model/wizard/types';
import { ipcErrorText } from '@model/events';
import { formatBytes } from '@model/units';
import { getBridge } from '../../../lib/bridge';
import { FieldError, SelectField } from '../../../components/fields';
import type { KindPanelProps } from '../kind-entry';
import type { VerifyForm } from './verify-form';

/** Asks once whether this front door may overwrite disks, and keeps the answer in the form (its
 *  errors block Start with the reason). */
export function useEraseRefused(set: (patch: Partial<VerifyForm>) => void): void {
  useEffect(() => {
    let live = true;
    void getBridge()
      .appInfo()
      .then((r) => {
        if (live && r.ok) set({ refused: r.value.eraseRefused });
      });
    return () => {
      live = false;
    };
  }, [set]);
}

export function VerifyDiskPicker({ form: f, set, errors }: Pick<KindPanelProps<VerifyForm>, 'form' | 'set' | 'errors'>) {
  const [disks, setDisks] = useState<WizardDisk[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errId = useId();
  useEffect(() => {
    if (f.refused) return;
    let live = true;
    void getBridge()
      .listDisks(false)
      .then((r) => {
        if (!live) return;
        if (r.ok) setDisks(r.value);
        else setError(ipcErrorText(r.error));
      });
    return () => {
      live = false;
    };
  }, [f.refused]);

  if (f.refused)
    return (
      <p className="verify-refused" role="note" data-testid="verify-erase-refused">
        {f.refused}
      </p>
    );
  if (error) return <p className="field-error">{error}</p>;
  if (!disks) return <p className="empty">Listing disks…</p>;
  const offered = disks.filter((d) => d.offered);
  const others = disks.filter((d) => !d.offered);
  return (
    <>
      {offered.length === 0 ? (
        <p className="empty" data-testid="verify-no-disks">
          No disk can be verified whole: every disk is the system’s, internal or in use.
        </p>
      ) : (
        <SelectField
          label="Disk"
          value={f.disk?.path ?? ''}
          choices={[
            { value: '', label: 'Choose a disk…' },
            ...offered.map((d) => ({ value: d.path, label: `${d.path} · ${d.name} · ${formatBytes(d.sizeBytes)}` })),
          ]}
          onChange={(path) => {
            const d = offered.find((x) => x.path === path);
            set({ disk: d ? { path: d.path, name: d.name, sizeBytes: d.sizeBytes } : undefined });
          }}
          testId="verify-disk"
        />
      )}
      {others.length > 0 && (
        <p className="panel-fit" data-testid="verify-disks-not-offered">
          Not offered: {others.map((d) => `${d.path} (${d.reason ?? 'not offered'})`).join('; ')}
        </p>
      )}
      {f.disk && (
        <span className="field field--wide">
          <label className="field__label" htmlFor={inputId}>
            Everything on {f.disk.path} is overwritten. Type the disk’s name to confirm: <strong>{f.disk.name}</strong>
          </label>
          <input
            id={inputId}
            className={`text-input${f.typed && f.typed !== f.disk.name ? ' text-input--invalid' : ''}`}
            value={f.typed}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={errId}
            onChange={(e) => set({ typed: e.target.value })}
            data-testid="verify-confirm-input"
          />
          <FieldError id={errId} error={f.typed ? errors.typed : undefined} />
        </span>
      )}
    </>
  );
}
