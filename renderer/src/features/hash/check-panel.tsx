// The Hash screen's "Check a folder" mode (after Dintch): every file under a folder hashed, its
// SHA256SUMS written the first time and re-checked after — live files and bytes done with the
// current file, then the integrity verdict (model/verdict/integrity.ts) as a banner — red with the
// counts when anything changed, went missing, could not be read or is new, green only when every
// file is unchanged — the lists, files/s, GB/s and the bottleneck. The files are only read.
import { useEffect, useId } from 'react';
import { formatBytes, formatMBpsFigure } from '@model/units';
import { CHECK_ALGO_LABEL } from '@model/check-manifest';
import { checkVerdict } from '@model/check';
import { integrityText } from '@model/verdict/integrity';
import { getBridge } from '../../lib/bridge';
import { JobBarView } from '../../components/job-bar-view';
import { SavedNote } from '../../components/saved-note';
import { selectCheckBusy, useCheckStore, type CheckAction } from './check-store';

const ACTIONS: ReadonlyArray<[CheckAction, string]> = [
  ['check', 'Create the manifest, or check against it'],
  ['verify-only', 'Check only (never write a manifest)'],
  ['update', 'Check, then update the manifest'],
];

const n = (x: number): string => x.toLocaleString('en-US');

function useCheckEvents(): void {
  useEffect(() => {
    const bridge = getBridge();
    const { onProgress, onDone } = useCheckStore.getState();
    const offs = [bridge.onCheckProgress(onProgress), bridge.onCheckDone(onDone)];
    return () => {
      for (const off of offs) off();
    };
  }, []);
}

function NameList({ title, names, testId }: { title: string; names: readonly string[]; testId: string }) {
  if (names.length === 0) return null;
  return (
    <div className="check-list" data-testid={testId}>
      <h3>
        {title} ({n(names.length)})
      </h3>
      <ul>
        {names.slice(0, 200).map((name) => (
          <li key={name}>
            <code>{name}</code>
          </li>
        ))}
        {names.length > 200 && <li>… and {n(names.length - 200)} more (the saved result lists every one)</li>}
      </ul>
    </div>
  );
}

export function CheckPanel({ lockedReason }: { lockedReason?: string | undefined }) {
  useCheckEvents();
  const s = useCheckStore();
  const busy = useCheckStore(selectCheckBusy);
  const folderId = useId();
  const actionId = useId();
  const p = busy ? s.job?.progress : null;
  const c = s.result?.check;
  const verdict = c ? checkVerdict(c) : null;
  const live = s.job && !busy && s.job.outcome !== 'finished' ? s.job : null;
  const line = busy
    ? s.status === 'starting'
      ? 'Starting…'
      : s.status === 'stopping'
        ? 'Stopping… (the manifest is left as it was)'
        : p
          ? `${n(p.filesDone)} of ${n(p.filesTotal)} files · ${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)}${p.current ? ` · ${p.current}` : ''}`
          : 'Listing the folder…'
    : live?.outcome === 'stopped'
      ? 'Stopped. The manifest was left as it was.'
      : s.error
        ? `Error: ${s.error}`
        : verdict
          ? verdict.outcome === 'failed'
            ? integrityText(verdict)
            : `Done · ${integrityText(verdict)}`
          : 'Ready.';
  const blocked = lockedReason ?? (s.folder.trim() === '' ? 'Type the path of the folder to check, or choose one.' : null);
  return (
    <div className="check-panel" data-testid="check-panel">
      <fieldset className="hash-settings" disabled={busy}>
        <legend className="sr-only">Folder check settings</legend>
        <div className="hash-settings__row">
          <span className="field field--wide">
            <label className="field__label" htmlFor={folderId}>
              Folder
            </label>
            <span className="path-row">
              <input
                id={folderId}
                className="text-input path-row__input"
                type="text"
                value={s.folder}
                placeholder="/media/me/CARD"
                spellCheck={false}
                autoComplete="off"
                autoCapitalize="off"
                onChange={(e) => s.setFolder(e.target.value)}
                data-testid="check-folder"
              />
              <button type="button" className="button" data-testid="check-choose" onClick={() => void s.chooseFolder()}>
                Choose…
              </button>
            </span>
            {s.pickNote && <span className="field__note">{s.pickNote}</span>}
          </span>
        </div>
        <div className="hash-settings__row">
          <span className="field field--wide">
            <label className="field__label" htmlFor={actionId}>
              Manifest
            </label>
            <select
              id={actionId}
              className="select"
              value={s.action}
              onChange={(e) => s.setAction(e.target.value as CheckAction)}
              data-testid="check-action"
            >
              {ACTIONS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
            <span className="field__note">
              SHA256SUMS at the folder’s top, as sha256sum -c reads it (or the SHA512SUMS / MD5SUMS there is). The files are only read.
            </span>
          </span>
        </div>
      </fieldset>
      <JobBarView
        testId="check"
        phrase="the folder check"
        errorTestId="check-error"
        mine={busy}
        stopping={s.status === 'stopping'}
        blocked={blocked}
        line={line}
        error={s.error}
        stepAnnounce={p ? `${n(p.filesDone)} of ${n(p.filesTotal)} files` : null}
        fraction={p && p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : p && p.filesTotal > 0 ? p.filesDone / p.filesTotal : 0}
        onStart={() => void s.start()}
        onStop={() => void s.stop()}
      />
      {!busy && c && verdict && (
        <section className="check-result" data-testid="check-result" aria-label="Folder check result">
          <p
            className={`check-banner check-banner--${verdict.outcome}`}
            role={verdict.outcome === 'failed' ? 'alert' : 'status'}
            data-outcome={verdict.outcome}
            data-testid="check-summary"
          >
            {integrityText(verdict)}
          </p>
          <p>
            {n(c.files)} files, {formatBytes(c.bytes)} in {c.seconds.toFixed(2)} s: {n(Math.round(c.filesPerSecond))} files/s,{' '}
            {formatMBpsFigure(c.mbps)} MB/s with {CHECK_ALGO_LABEL[c.algo]} on {c.streams} {c.streams === 1 ? 'stream' : 'streams'}.
          </p>
          {c.bound && <p data-testid="check-bound">{c.bound.text}</p>}
          <p>
            Manifest: <code>{c.manifest}</code> ({c.manifestWritten ? 'written' : 'read, not changed'})
          </p>
          {c.mode !== 'create' && <p data-testid="check-unchanged">✓ {n(c.counts.unchanged)} unchanged</p>}
          <NameList title="✗ Changed" names={c.changed} testId="check-changed" />
          <NameList title="✗ Missing" names={c.missing} testId="check-missing" />
          <NameList title="✗ Unreadable" names={c.unreadable.map((u) => `${u.name} — ${u.why}`)} testId="check-unreadable" />
          <NameList title="+ New" names={c.added} testId="check-new" />
          <NameList title="Skipped" names={c.skipped.map((u) => `${u.name} — ${u.why}`)} testId="check-skipped" />
          {s.saved && <SavedNote saved={s.saved} testId="check-saved" />}
        </section>
      )}
    </div>
  );
}
