// The frame every Detailed panel shares: a titled card, its settings (locked while its own job
// runs), the job bar, the panel's figures, and how the last result was measured — where, the
// cache mode actually achieved, and its flags. Also decides why Start is unavailable, and hands
// each kind's panel its form, its job and its document (KindSlot).
import { createContext, useContext, useId, useMemo } from 'react';
import type { ResultDocument } from '@model/result';
import { selectSelectedTarget, useTargetsStore } from '../../lib/targets-store';
import { onShare } from '../../lib/target-link';
import { kindOf } from '@model/kinds/registry';
import { notOnShareText } from '@model/network';
import { ResultCacheBadge } from '../../components/cache-badge';
import { FlagsList, flagsSummary } from '../../components/flags-list';
import { JobBar } from './job-bar';
import type { Fit } from '@model/fit';
import { formatBinarySize } from '../../lib/figure-format';
import type { DetailedKind } from '@model/settings';
import type { TargetInfo } from '@model/history';
import { DETAILED_KINDS, formErrors, formFit, formFitInTerms, formTarget, kindEntry, type Forms } from './kinds/index';
import { SavedNote } from '../../components/saved-note';
import { selectDetailedBusy, selectForm, selectLiveJob, selectResult, selectRunningKind, selectSaved, useDetailedStore } from './store';
import type { FrameProps } from './kind-entry';
import { CardHeader } from '../../components/card-header';

/** Why `kind`'s Start cannot be pressed, or null. `locked` comes from outside the screen (a
 *  Quick Test is running). */
export function startBlock(
  kind: DetailedKind,
  o: {
    locked?: string | undefined;
    runningKind: DetailedKind | null;
    target: TargetInfo | undefined;
    formInvalid: boolean;
    fit?: Fit | null;
    /** The form chose a target of its own (a whole disk). */
    ownTarget?: boolean;
  },
): string | null {
  if (o.locked) return o.locked;
  if (o.runningKind && o.runningKind !== kind) return `Wait for ${DETAILED_KINDS[o.runningKind].phrase} to finish, or stop it.`;
  if (o.ownTarget) return o.formInvalid ? 'Correct the settings marked above.' : null;
  if (!o.target) return 'Choose a drive or folder to test.';
  if (!o.target.startable) return o.target.reason ?? 'A test cannot run here.';
  // The runner's own refusal, before Start: a test of a share's limits on a local folder.
  if (kindOf(kind)?.networkOnly && !onShare(o.target)) return `${notOnShareText('This test', o.target.path, o.target.fs)}.`;
  if (o.formInvalid) return 'Correct the settings marked above.';
  if (o.fit && !o.fit.fits) return o.fit.reason ?? 'Not enough free space for this test.';
  return null;
}

/** The kind and the outside lock of the panel being drawn: the frame a kind's panel is handed
 *  is one component for every kind, so the slot tells it which kind it frames. */
const FrameOf = createContext<{ kind: DetailedKind; lockedReason?: string | undefined } | null>(null);

/** One kind's panel, fed from the store: its form, its job and its last document. */
export function KindSlot<K extends DetailedKind>({ kind, lockedReason }: { kind: K; lockedReason?: string | undefined }) {
  const { Panel: KindPanel, form: kindForm } = kindEntry(kind);
  const form = useDetailedStore(selectForm(kind));
  const setForm = useDetailedStore((s) => s.setForm);
  const live = useDetailedStore(useMemo(() => selectLiveJob(kind), [kind]));
  const result = useDetailedStore(selectResult(kind));
  const busy = useDetailedStore(selectDetailedBusy);
  const errors = useMemo(() => kindForm.errors(form), [kindForm, form]);
  const frame = useMemo(() => ({ kind, lockedReason }), [kind, lockedReason]);
  const set = useMemo(() => (patch: Partial<Forms[K]>) => setForm(kind, patch), [kind, setForm]);
  return (
    <FrameOf.Provider value={frame}>
      <KindPanel form={form} set={set} errors={errors} live={live} result={result} busy={busy} Frame={Frame} />
    </FrameOf.Provider>
  );
}

function unbound(): never {
  throw new Error('A Detailed panel’s frame was drawn outside its kind’s slot.');
}

function Frame({ title, subtitle, headerExtra, settings, result, children }: FrameProps) {
  const { kind, lockedReason } = useContext(FrameOf) ?? unbound();
  const titleId = useId();
  const target = useTargetsStore(selectSelectedTarget);
  const runningKind = useDetailedStore(selectRunningKind);
  const forms = useDetailedStore((s) => s.forms);
  const start = useDetailedStore((s) => s.start);
  const setForm = useDetailedStore((s) => s.setForm);
  const formInvalid = Object.keys(formErrors(kind, forms)).length > 0;
  const own = formTarget(kind, forms);
  const sizeFit = useMemo(() => (target && own === undefined ? formFit(kind, forms, target) : null), [kind, forms, target, own]);
  // A kind chosen by duration says why, and what fits, in its own terms (not in bytes).
  const inTerms = useMemo(() => (target ? formFitInTerms(kind, forms, target, sizeFit) : null), [kind, forms, target, sizeFit]);
  const fit = sizeFit && inTerms ? { ...sizeFit, reason: inTerms.reason } : sizeFit;
  const blocked = startBlock(kind, { locked: lockedReason, runningKind, target, formInvalid, fit, ownTarget: own !== undefined });
  const { offer, adaptsToFreeSpace } = kindEntry(kind).form;
  const startPath = own ?? target?.path;
  const offered = blocked !== null && blocked === fit?.reason;
  const largest = !inTerms && offer && offered && fit && !fit.fits && fit.largestBytes > 0 ? fit.largestBytes : null;

  return (
    <section id={`detailed-${kind}`} className="card detailed-panel" aria-labelledby={titleId} data-testid={`${kind}-panel`}>
      <CardHeader titleId={titleId} title={title} subtitle={subtitle}>
        {headerExtra}
      </CardHeader>
      <div className="detailed-panel__body">
        <fieldset className="detailed-settings" disabled={runningKind === kind}>
          <legend className="sr-only">{title} settings</legend>
          {settings}
        </fieldset>
        <JobBar kind={kind} blocked={blocked} onStart={() => startPath && void start(kind, startPath)} />
        {offer && largest !== null && (
          <button type="button" className="link-button" data-testid={`${kind}-fit-offer`} onClick={() => setForm(kind, offer(largest))}>
            Use {formatBinarySize(largest)}
          </button>
        )}
        {offered && inTerms?.offer && (
          <button
            type="button"
            className="link-button"
            data-testid={`${kind}-fit-offer`}
            onClick={() => inTerms.offer && setForm(kind, inTerms.offer.patch)}
          >
            Use {inTerms.offer.label}
          </button>
        )}
        {fit?.fits && fit.reserveText && adaptsToFreeSpace && (
          <p className="panel-fit" data-testid={`${kind}-fit`}>
            Writes at most what is free and {fit.reserveText}.
          </p>
        )}
        {children}
        {result && <ResultMeta kind={kind} result={result} />}
      </div>
    </section>
  );
}

function ResultMeta({ kind, result }: { kind: DetailedKind; result: ResultDocument }) {
  const flags = Array.isArray(result.flags) ? result.flags : [];
  const t = result.target;
  const saved = useDetailedStore(selectSaved(kind));
  return (
    <div className="result-meta" data-testid={`${kind}-meta`}>
      <div className="result-meta__row">
        <ResultCacheBadge doc={result} testId={`${kind}-cache-badge`} />
        <span className="result-meta__where">
          {t.path} · {t.fs}
          {t.device.link ? ` · ${t.device.link}` : ''}
        </span>
        <SavedNote saved={saved} testId={`${kind}-saved`} />
      </div>
      {flags.length > 0 && (
        <div className="result-meta__flags" data-testid={`${kind}-flags`}>
          <p className="result-meta__summary">{flagsSummary(flags)}</p>
          <FlagsList flags={flags} />
        </div>
      )}
    </div>
  );
}
