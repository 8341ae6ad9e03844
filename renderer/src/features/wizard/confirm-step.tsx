// Step 4: what will be erased, in words, and the disk's name typed to confirm it. Start is
// enabled only when the typed name matches exactly (and no other test is running). The core
// checks the disk's identity again before every erase; this is the person's part.
import { useId } from 'react';
import type { FormatInfo } from '@model/wizard/types';
import { selectDisk, selectFinal, useWizardSettings, useWizardStore } from './store';
import { NO_DIRECT_IO } from '@model/wizard/protocols';
import { aboutText, estimateSeconds, formatLabel, listText, lossText, diskLine, planText } from './wizard-model';

const NO_FORMATS: FormatInfo[] = [];

export function ConfirmStep({ lockedReason }: { lockedReason?: string | undefined }) {
  const disk = useWizardStore(selectDisk);
  const settings = useWizardSettings();
  const formats = useWizardStore((s) => s.formats) ?? NO_FORMATS;
  const final = useWizardStore(selectFinal);
  const confirmText = useWizardStore((s) => s.confirmText);
  const setConfirm = useWizardStore((s) => s.setConfirm);
  const start = useWizardStore((s) => s.start);
  const startError = useWizardStore((s) => s.startError);
  const inputId = useId();
  const reasonId = useId();
  if (!disk || !settings) return <p className="empty">Go back and finish the earlier steps.</p>;

  const names = settings.formats.map((id) => formatLabel(formats, id));
  const matches = confirmText === disk.name;
  const blocked = lockedReason ?? (matches ? null : confirmText ? 'The name does not match.' : null);
  const planWords = {
    kind: settings.plan,
    sizes: settings.sizes,
    runs: settings.runs,
    restSeconds: settings.restSeconds,
    ...(settings.filesSet ? { filesSet: settings.filesSet } : {}),
  };
  const { seconds } = estimateSeconds({
    ...planWords,
    ...(settings.files ? { files: settings.files } : {}),
    formats: settings.formats.length,
    diskBytes: disk.sizeBytes,
    commonPasses: settings.commonMode ? settings.formats.filter((f) => !NO_DIRECT_IO.has(f)).length : 0,
  });

  return (
    <div className="wizard-step-body">
      <h3 className="wizard-h3">Confirm</h3>
      <div className="wizard-summary" data-testid="wizard-summary">
        <p className="wizard-summary__erase">
          Erase <strong>{diskLine(disk)}</strong>? {lossText(disk)}
        </p>
        <p>
          It will be formatted {settings.formats.length} time{settings.formats.length === 1 ? '' : 's'} ({listText(names)}), tested with{' '}
          {planText(planWords)}
          {settings.commonMode ? ', every format also as applications see it (page cache, flushed)' : ''}, and left as{' '}
          {final ? formatLabel(formats, final) : '—'}. That takes {aboutText(seconds)}.
        </p>
        {disk.internal && <p className="warning-box">This is an internal disk.</p>}
      </div>
      <div className="field field--wide">
        <label className="field__label wizard-confirm__label" htmlFor={inputId}>
          Type the disk’s name to confirm: <span className="wizard-confirm__name">{disk.name}</span>
        </label>
        <input
          id={inputId}
          className={`text-input wizard-confirm__input${confirmText && !matches ? ' text-input--invalid' : ''}`}
          value={confirmText}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setConfirm(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && matches && !lockedReason) void start();
          }}
          data-testid="wizard-confirm-input"
        />
      </div>
      <div className="job-bar__row">
        <button
          type="button"
          className="run-button run-button--danger"
          disabled={!matches || lockedReason !== undefined}
          aria-describedby={blocked ? reasonId : undefined}
          onClick={() => void start()}
          data-testid="wizard-start"
        >
          Erase and start
        </button>
        {blocked && (
          <span id={reasonId} className="reason">
            {blocked}
          </span>
        )}
      </div>
      {startError && (
        <p className="panel-error" role="alert" data-testid="wizard-error">
          {startError}
        </p>
      )}
    </div>
  );
}
