// Step 2: the file systems to compare — only those this machine can make are tickable (the
// others say why not: "mkfs.xfs is not installed (Debian: xfsprogs)") — in the order the core
// lists them, and the format the disk is left in at the end (never an encrypted one: the
// wizard's passphrase would not be the user's).
import { useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { selectChosen, selectFinal, useWizardStore } from './store';
import { finalChoices } from './wizard-model';

export function FormatsStep() {
  const formats = useWizardStore((s) => s.formats);
  const error = useWizardStore((s) => s.formatsError);
  const chosen = useWizardStore((s) => s.chosen);
  const ordered = useWizardStore(useShallow(selectChosen));
  const final = useWizardStore(selectFinal);
  const toggle = useWizardStore((s) => s.toggleFormat);
  const setFinal = useWizardStore((s) => s.setFinal);
  const headId = useId();
  const finalId = useId();
  const choices = finalChoices(formats ?? []);
  const anyEncrypted = (formats ?? []).some((f) => f.encrypted && f.available);

  return (
    <div className="wizard-step-body">
      <h3 className="wizard-h3" id={headId}>
        Formats to compare
      </h3>
      {error && (
        <p className="panel-error" role="alert" data-testid="wizard-error">
          {error}
        </p>
      )}
      {formats === null ? (
        <p className="empty">Asking which formats this machine can make…</p>
      ) : (
        <ul className="wizard-formats" role="group" aria-labelledby={headId}>
          {formats.map((f) => (
            <li key={f.id} className={`wizard-format${f.available ? '' : ' wizard-format--off'}`}>
              <label className="wizard-format__label">
                <input
                  type="checkbox"
                  checked={chosen.includes(f.id)}
                  disabled={!f.available}
                  onChange={() => toggle(f.id)}
                  data-testid="wizard-format"
                  data-format={f.id}
                />
                <span>{f.label}</span>
                {f.encrypted && <span className="pill">encrypted</span>}
              </label>
              {!f.available && f.reason && <span className="wizard-format__reason">{f.reason}</span>}
            </li>
          ))}
        </ul>
      )}
      {formats !== null && ordered.length === 0 && <p className="wizard-hint">Tick at least one format.</p>}
      {formats !== null && (
        <div className="field">
          <label className="field__label" htmlFor={finalId}>
            Leave the disk as
          </label>
          <select
            id={finalId}
            className="select"
            value={final ?? ''}
            onChange={(e) => setFinal(e.target.value as (typeof choices)[number]['id'])}
            data-testid="wizard-final"
            disabled={choices.length === 0}
          >
            {choices.map((f) => (
              <option key={f.id} value={f.id}>
                {f.label}
              </option>
            ))}
          </select>
          {anyEncrypted && (
            <span className="field__note">The wizard leaves the disk unencrypted; encrypt it afterwards with your own passphrase.</span>
          )}
        </div>
      )}
    </div>
  );
}
