// The Quick Test screen: WRITE and READ dials around the Start/Stop button, settings, what was
// measured and how, the throughput chart and the video-format table.
import { memo, useCallback, useId, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { workInput } from '@model/kinds/video/will-it-work';
import { selectSelectedTarget, useTargetsStore } from '../../lib/targets-store';
import { CEILING_EXPLAIN, ceilingTitle, targetLink } from '../../lib/target-link';
import { CacheBadge } from '../../components/cache-badge';
import { Dial } from '../../components/dial/dial';
import { FlagsPanel } from './flags-panel';
import { SettingsBar } from './settings-bar';
import { StartButton } from './start-button';
import { quickFraction, quickPrecision, quickReadout, quickEndLine, quickStatusLine, type Side } from './quick-progress';
import { knownScale, selectIsBusy, selectLatestResult, selectQuickStatus, useQuickTestStore } from './store';
import { ThroughputChart } from './throughput-chart';
import { useLastResult } from './use-last-result';
import { useQuickEvents } from './use-quick-events';
import { NetworkLimitsLine } from './network-limits-line';
import { WillItWorkTable } from '../../components/video-table';
import { useNavigationStore } from '../../lib/navigation';
import { fitPlan } from '@model/presets';
import { formatBytes, formatMBpsFigure } from '@model/units';
import { SavedNote } from '../../components/saved-note';
import { ProgressBar } from '../../components/progress-bar';

export interface QuickTestScreenProps {
  /** Why Start is unavailable for a reason outside this screen (a detailed test is running). */
  lockedReason?: string;
  /** The screen is shown (the app keeps hidden screens mounted). */
  active?: boolean;
}

export function QuickTestScreen({ lockedReason, active = true }: QuickTestScreenProps = {}) {
  useQuickEvents();
  const checkPaced = useNavigationStore((s) => s.checkPaced);
  const target = useTargetsStore(selectSelectedTarget);
  useLastResult(target);
  const status = useQuickTestStore(selectQuickStatus);
  const busy = useQuickTestStore(selectIsBusy);
  const runScale = useQuickTestStore((s) => s.scale);
  const lastByTarget = useQuickTestStore((s) => s.lastByTarget);
  const phase = useQuickTestStore((s) => s.phase);
  const error = useQuickTestStore((s) => s.error);
  const latest = useQuickTestStore(selectLatestResult);
  const stopped = useQuickTestStore((s) => s.stopped);
  const completed = useQuickTestStore((s) => s.results.length);
  const doc = useQuickTestStore((s) => s.doc);
  const paced = useQuickTestStore((s) => s.paced);
  const willItWork = useMemo(() => (doc ? workInput(doc, paced) : null), [doc, paced]);
  const saved = useQuickTestStore((s) => s.saved);
  const savedId = saved && 'id' in saved ? saved.id : undefined;
  // Stable between frames, so the memoised table does not redraw with the dials.
  const onCheckFormat = useCallback(
    (formatId: string, fps: number) => checkPaced({ formatId, fps, ...(savedId ? { from: savedId } : {}) }),
    [checkPaced, savedId],
  );
  const flags = useQuickTestStore((s) => s.flags);
  const start = useQuickTestStore((s) => s.start);
  const stop = useQuickTestStore((s) => s.stop);
  const reasonId = useId();
  const ceiling = targetLink(target)?.ceilingMBps;
  const ceilingText = ceiling ? ceilingTitle(ceiling) : undefined;
  // Before the first test the dials already show the scale the test will start on.
  const scale = status === 'idle' ? knownScale(lastByTarget, target?.path, ceiling) : runScale;

  const sizeBytes = useQuickTestStore((s) => s.sizeBytes);
  const sizeError = useQuickTestStore((s) => s.sizeError);
  const setSize = useQuickTestStore((s) => s.setSize);
  const fit = target ? fitPlan('quick', { size: sizeBytes }, target) : null;
  const blocked = lockedReason
    ? lockedReason
    : !target
      ? 'Choose a drive or folder to test.'
      : !target.startable
        ? (target.reason ?? 'A test cannot run here.')
        : sizeError
          ? `Custom size: ${sizeError}`
          : fit && !fit.fits
            ? fit.reason!
            : null;
  const offer = !lockedReason && !sizeError && target?.startable && fit && !fit.fits && fit.largestBytes > 0 ? fit.largestBytes : null;
  const precision = useMemo(() => (doc ? quickPrecision(doc) : null), [doc]);

  // The two dials differ only in their direction.
  const dial = (side: Side) => (
    <QuickDial
      side={side}
      scale={scale}
      active={busy && phase === side}
      precision={precision}
      ceiling={ceiling}
      ceilingText={ceilingText}
    />
  );

  return (
    <div className="quick-test">
      <SettingsBar disabled={busy} />

      <section className="dials-card card" aria-labelledby="dials-title">
        <h2 id="dials-title" className="sr-only">
          Write and read speed
        </h2>
        <div className="dials">
          {dial('write')}
          <div className="dials__center">
            <StartButton
              running={status === 'running' || status === 'stopping'}
              stopping={status === 'stopping'}
              disabled={!busy && blocked !== null}
              describedBy={blocked ? reasonId : undefined}
              onStart={() => target && void start(target.path, ceiling)}
              onStop={() => void stop()}
            />
            <div className="dials__status" aria-live="polite">
              {blocked && !busy ? (
                <>
                  <span id={reasonId} className="reason" data-testid="start-reason">
                    {blocked}
                  </span>
                  {offer !== null && (
                    <button type="button" className="link-button" onClick={() => setSize(offer)}>
                      Use {formatBytes(offer)}
                    </button>
                  )}
                </>
              ) : error && status === 'failed' ? (
                <span className="reason" role="alert">
                  {error.message}
                </span>
              ) : (
                <RunLine ended={status === 'done' ? quickEndLine(stopped, completed) : 'Ready'} />
              )}
            </div>
            <RunProgress />
            <CacheBadge
              cacheMode={latest?.cacheMode ?? null}
              dataPattern={latest?.dataPattern ?? null}
              notes={latest?.notes ?? []}
              flags={flags}
            />
            {status === 'done' && <SavedNote saved={saved} />}
            {ceiling && (
              <span className="ceiling-note" title={ceilingText} tabIndex={0} data-testid="ceiling-note">
                <span className="ceiling-note__swatch" aria-hidden="true" />
                interface ceiling ≈ {formatMBpsFigure(ceiling)} MB/s
                <span className="sr-only">: {CEILING_EXPLAIN}</span>
              </span>
            )}
          </div>
          {dial('read')}
        </div>
        <NetworkLimitsLine target={target} active={active} />
      </section>

      <div className="lower">
        <ThroughputChart />
        {/* Under the chart, not the dials: a cycle's flags can land mid-run (a busy machine), and
            here they move only the tables below, never the dials or the chart being watched; the
            badge under Start shows the trust level meanwhile. */}
        <FlagsPanel />
        <WillItWorkTable input={willItWork} onCheckFormat={onCheckFormat} />
      </div>
    </div>
  );
}

// Progress lands up to once a frame: only these small parts follow it, so the screen around the
// dials (settings, badges, the table) does not re-render with every batch (npm run bench:ui).

interface QuickDialProps {
  side: Side;
  scale: number;
  active: boolean;
  precision: Readonly<Record<Side, string>> | null;
  ceiling: number | undefined;
  ceilingText: string | undefined;
}

/** One dial, following the store's figures for its direction. */
const QuickDial = memo(function QuickDial({ side, scale, active, precision, ceiling, ceilingText }: QuickDialProps) {
  const figures = useQuickTestStore(
    useShallow((s) => ({
      status: selectQuickStatus(s),
      phase: s.phase,
      live: s.live,
      avg: s.avg,
      peak: s.peak,
      settled: s.settled,
      aggregate: s.aggregate,
    })),
  );
  const shown = quickReadout({ ...figures, precision }, side);
  return (
    <Dial
      label={side.toUpperCase()}
      variant={side}
      value={shown.value}
      peak={figures.peak[side]}
      max={scale}
      caption={shown.caption}
      active={active}
      ceiling={ceiling}
      ceilingTitle={ceilingText}
    />
  );
});

/** Where the running test is, as the status line and the progress bar read it. */
function useRun() {
  return useQuickTestStore(
    useShallow((s) => ({
      status: selectQuickStatus(s),
      phase: s.phase,
      stage: s.stage,
      cycle: s.cycle,
      cycles: s.cycles,
      bytesDone: s.bytesDone,
      bytesTotal: s.bytesTotal,
      startedAt: s.startedAt,
    })),
  );
}

/** The running test's state in one line, or `ended` when none runs. */
function RunLine({ ended }: { ended: string }) {
  const line = quickStatusLine(useRun());
  return <span data-testid="quick-status">{line || ended}</span>;
}

function RunProgress() {
  const run = useRun();
  const fraction = run.status === 'running' ? quickFraction(run) : null;
  return fraction !== null ? <ProgressBar label="Progress of the Quick Test" pct={Math.round(fraction * 1000) / 10} /> : null;
}
