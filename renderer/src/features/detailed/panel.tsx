// The frame every Detailed panel shares: a titled card, its settings (locked while its own job
// runs), the job bar, the panel's figures, and how the last result was measured — where, the
// cache mode actually achieved, and its flags. Also decides why Start is unavailable.
import { useId, useMemo, type ReactNode } from 'react';
import type { ResultDocument } from '@model/result';
import { selectSelectedTarget, useTargetsStore } from '../../lib/targets-store';
import { ResultCacheBadge } from '../../components/cache-badge';
import { FlagsList, flagsSummary } from '../../components/flags-list';
import { JobBar, KIND_PHRASE } from './job-bar';
import type { Fit } from '@model/fit';
import { formatBinarySize } from '../../lib/figure-format';
import type { DetailedKind } from '@model/settings';
import type { TargetInfo } from '@model/history';
import { formErrors, formFit } from './settings';
import { SavedNote } from '../../components/saved-note';
import { selectRunningKind, selectSaved, useDetailedStore } from './store';
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
  },
): string | null {
  if (o.locked) return o.locked;
  if (o.runningKind && o.runningKind !== kind) return `Wait for ${KIND_PHRASE[o.runningKind]} to finish, or stop it.`;
  if (!o.target) return 'Choose a drive or folder to test.';
  if (!o.target.startable) return o.target.reason ?? 'A test cannot run here.';
  if (o.formInvalid) return 'Correct the settings marked above.';
  if (o.fit && !o.fit.fits) return o.fit.reason ?? 'Not enough free space for this test.';
  return null;
}

/** The kinds whose amount written shrinks to the free space (the others refuse when it does not fit). */
const ADAPTS_TO_FREE_SPACE: ReadonlySet<DetailedKind> = new Set(['sustained', 'files']);

export interface PanelProps {
  kind: DetailedKind;
  title: string;
  subtitle: string;
  /** Right side of the header (the grid's unit toggle). */
  headerExtra?: ReactNode;
  settings: ReactNode;
  lockedReason?: string | undefined;
  /** The document whose method and flags to show under the figures. */
  result?: ResultDocument | undefined;
  children: ReactNode;
}

export function Panel({ kind, title, subtitle, headerExtra, settings, lockedReason, result, children }: PanelProps) {
  const titleId = useId();
  const target = useTargetsStore(selectSelectedTarget);
  const runningKind = useDetailedStore(selectRunningKind);
  const formInvalid = useDetailedStore((s) => Object.keys(formErrors(kind, s)).length > 0);
  const start = useDetailedStore((s) => s.start);
  const setCdm = useDetailedStore((s) => s.setCdm);
  const cdm = useDetailedStore((s) => s.cdm);
  const sustained = useDetailedStore((s) => s.sustained);
  const files = useDetailedStore((s) => s.files);
  const video = useDetailedStore((s) => s.video);
  const sweep = useDetailedStore((s) => s.sweep);
  const smallFiles = useDetailedStore((s) => s.smallFiles);
  const fit = useMemo(
    () => (target ? formFit(kind, { cdm, sustained, files, video, sweep, smallFiles }, target) : null),
    [kind, cdm, sustained, files, video, sweep, smallFiles, target],
  );
  const blocked = startBlock(kind, { locked: lockedReason, runningKind, target, formInvalid, fit });
  const offer = kind === 'cdm' && blocked === fit?.reason && fit && !fit.fits && fit.largestBytes > 0 ? fit.largestBytes : null;

  return (
    <section className="card detailed-panel" aria-labelledby={titleId} data-testid={`${kind}-panel`}>
      <CardHeader titleId={titleId} title={title} subtitle={subtitle}>
        {headerExtra}
      </CardHeader>
      <div className="detailed-panel__body">
        <fieldset className="detailed-settings" disabled={runningKind === kind}>
          <legend className="sr-only">{title} settings</legend>
          {settings}
        </fieldset>
        <JobBar kind={kind} blocked={blocked} onStart={() => target && void start(kind, target.path)} />
        {offer !== null && (
          <button type="button" className="link-button" data-testid={`${kind}-fit-offer`} onClick={() => setCdm({ sizeBytes: offer })}>
            Use {formatBinarySize(offer)}
          </button>
        )}
        {fit?.fits && fit.reserveText && ADAPTS_TO_FREE_SPACE.has(kind) && (
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
