// The transfer-size sweep (ATTO Disk Benchmark's and QuickBench's question: from what transfer
// size on does this drive or share run at full speed?): a sequential write then read at each
// size of a ladder. While it runs, the step in progress and the curve drawn step by step; after it, MB/s
// against size on a log axis, where each direction reaches 90 % of its top, and the table.
import { useMemo } from 'react';
import type { ResultDocument } from '@model/result';
import type { SweepPoint, SweepRun, SweepSection } from '@model/kinds/sweep/result';
import { SWEEP_LADDERS, transferSizeText } from '@model/kinds/sweep/plan';
import { averageLines, fullSpeedText } from '@model/kinds/sweep/report';
import { sizeText } from '@model/report/figure-text';
import { formatMBpsFigure } from '@model/units';
import { ChipGroup } from '../../../components/fields';
import { RunsAndRest } from '../../../components/repeat-fields';
import { SweepChart } from './sweep-chart';
import { MAX_REST_MINUTES, MAX_RUNS } from '../form-rules';
import type { DetailedJob, KindPanelProps } from '../kind-entry';
import { SWEEP_PRESET_CHOICES, SWEEP_SECONDS_CHOICES, SWEEP_STEP_BYTES_CHOICES, type SweepForm } from './sweep-form';

const iops = (x: number): string => Math.round(x).toLocaleString('en-US');

function SweepSettings({ form: f, set, errors }: Pick<KindPanelProps<SweepForm>, 'form' | 'set' | 'errors'>) {
  const chosen = SWEEP_PRESET_CHOICES.find((p) => p.value === f.preset);
  return (
    <>
      <ChipGroup
        label="Preset"
        value={f.preset}
        choices={SWEEP_PRESET_CHOICES}
        onChange={(preset) => set({ preset })}
        testIdPrefix="sweep-preset"
        after={chosen && <span className="field__hint">{chosen.detail}</span>}
      />
      <ChipGroup
        label="Each step"
        value={f.by}
        choices={[
          { value: 'time', label: 'For a time' },
          { value: 'volume', label: 'Over a size' },
        ]}
        onChange={(by) => set({ by })}
        testIdPrefix="sweep-by"
        variant="segmented"
      />
      {f.by === 'time' ? (
        <ChipGroup
          label="Seconds per step"
          value={f.seconds}
          choices={SWEEP_SECONDS_CHOICES.map((s) => ({ value: s, label: `${s} s` }))}
          onChange={(seconds) => set({ seconds })}
          testIdPrefix="sweep-seconds"
        />
      ) : (
        <ChipGroup
          label="Size per step"
          value={f.stepBytes}
          choices={SWEEP_STEP_BYTES_CHOICES.map((b) => ({ value: b, label: sizeText(b) }))}
          onChange={(stepBytes) => set({ stepBytes })}
          testIdPrefix="sweep-step-bytes"
        />
      )}
      <RunsAndRest form={f} maxRuns={MAX_RUNS} maxRest={MAX_REST_MINUTES} errors={errors} set={set} testIdPrefix="sweep" />
    </>
  );
}

/** The finished steps as the chart's runs: a point per transfer size, a direction not yet run NaN
 *  (steps go write then read at each size, so only the last point can lack one). */
function liveRuns(steps: DetailedJob['steps']): SweepRun[] {
  const runs = new Map<number, Map<number, SweepPoint>>();
  for (const s of steps) {
    const points = runs.get(s.run) ?? new Map<number, SweepPoint>();
    runs.set(s.run, points);
    const pt = points.get(s.test.bs) ?? { bs: s.test.bs, writeMBps: NaN, readMBps: NaN, writeIops: 0, readIops: 0 };
    points.set(s.test.bs, pt);
    if (s.test.rw === 'write') pt.writeMBps = s.test.mbps;
    else pt.readMBps = s.test.mbps;
  }
  return [...runs.entries()].map(([run, points]) => ({ run, points: [...points.values()].sort((a, b) => a.bs - b.bs) }));
}

const NO_STEPS: DetailedJob['steps'] = [];

/** While it runs (or after a stop): the step in progress, and the curve drawn as each step finishes
 *  (as ATTO draws its bars). Idle (`job` null), the same view with no curve: Start then changes a
 *  line of text and nothing else is mounted or moved (a remount re-rasterised the chart). */
function LiveView({ job, idleSizes }: { job: DetailedJob | null; idleSizes: readonly number[] }) {
  const p = job?.progress;
  const sizes = job?.settings.kind === 'sweep' ? SWEEP_LADDERS[job.settings.preset] : idleSizes;
  const steps = job?.steps ?? NO_STEPS;
  const runs = useMemo(() => liveRuns(steps), [steps]);
  return (
    <div className="sweep-live" data-testid={job ? 'sweep-live' : undefined}>
      <p className="sweep-live__now" data-testid={job ? 'sweep-live-step' : undefined}>
        {!job
          ? 'MB/s against transfer size will be drawn here as each step finishes.'
          : job.outcome === 'stopped'
            ? job.steps.length > 0
              ? 'Stopped before the end: the steps that finished are drawn; no full-speed sentence or table.'
              : 'Stopped before any step finished.'
            : p
              ? `Now: ${p.testName}${p.stage === 'run' && Number.isFinite(p.instMBps) ? ` · ${formatMBpsFigure(p.instMBps)} MB/s` : ''} (step ${p.testIndex + 1} of ${p.testCount}${p.runs > 1 ? `, run ${p.run} of ${p.runs}` : ''})`
              : 'Preparing the test files…'}
      </p>
      <div data-testid={job ? 'sweep-live-chart' : undefined}>
        <SweepChart runs={runs} sizes={sizes} />
      </div>
      {/* The chart's figures in words, for screen readers; the chart shows them. */}
      {steps.length > 0 && (
        <ol className="sr-only" data-testid="sweep-live-done">
          {steps.map((s) => (
            <li key={`${s.run}-${s.testIndex}`}>
              <span className={`t-${s.test.rw === 'write' ? 'write' : 'read'}`}>{s.test.name}</span> {formatMBpsFigure(s.test.mbps)} MB/s
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function ResultView({ sweep, doc }: { sweep: SweepSection; doc: ResultDocument }) {
  const t = doc.target;
  const ceilingMBps = t.device.linkInfo?.ceilingMBps ?? t.network?.ceilingMBps;
  const many = sweep.runs.length > 1;
  const averages = averageLines(sweep);
  return (
    <div className="sweep-result" data-testid="sweep-result">
      <div data-testid="sweep-chart">
        <SweepChart runs={sweep.runs} sizes={sweep.sizes} ceilingMBps={ceilingMBps} />
      </div>
      {averages.length > 0 && (
        <dl className="sweep-averages" data-testid="sweep-averages" aria-label="QuickBench's headline averages">
          {averages.map(([label, value]) => (
            <div key={label} className="sweep-averages__item">
              <dt>{many ? `${label} (mean of ${sweep.runs.length} runs)` : label}</dt>
              <dd className={label.startsWith('Write') ? 't-write' : 't-read'}>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {sweep.runs.map((r) => (
        <div key={r.run} className="sweep-run">
          {many && <h3 className="sweep-run__title">Run {r.run}</h3>}
          <ul className="sweep-full-speed" data-testid="sweep-full-speed">
            {fullSpeedText(sweep, r).map((line) => (
              <li key={line}>{line}.</li>
            ))}
          </ul>
          <table className="data-table stats-table sweep-table" data-testid="sweep-table">
            <thead>
              <tr>
                <th scope="col">Transfer size</th>
                <th scope="col" className="t-write">
                  Write MB/s
                </th>
                <th scope="col" className="t-read">
                  Read MB/s
                </th>
                <th scope="col">Write IOPS</th>
                <th scope="col">Read IOPS</th>
              </tr>
            </thead>
            <tbody>
              {r.points.map((p) => (
                <tr key={p.bs} title={p.cacheNote}>
                  <th scope="row">
                    {transferSizeText(p.bs)}
                    {p.cacheMode ? ' *' : ''}
                  </th>
                  <td>{formatMBpsFigure(p.writeMBps)}</td>
                  <td>{formatMBpsFigure(p.readMBps)}</td>
                  <td>{iops(p.writeIops)}</td>
                  <td>{iops(p.readIops)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
      <p className="sweep-method">
        {`Sequential write then read at each size, one file each, queue depth ${sweep.qd}, each step ${sweep.stepSeconds !== undefined ? `for ${sweep.stepSeconds} s` : `over ${sizeText(sweep.stepBytes ?? 0)}`}.`}
        {sweep.runs.some((r) => r.points.some((p) => p.cacheMode))
          ? ' * ran through the cache (flushed): direct I/O does not take that size here.'
          : ''}
      </p>
    </div>
  );
}

export function SweepPanel({ form, set, errors, live, result, Frame }: KindPanelProps<SweepForm>) {
  const sweep = live ? undefined : result?.sweep;
  return (
    <Frame
      title="Transfer-size sweep"
      subtitle="Writes then reads at each transfer size from small to large, as ATTO and QuickBench do: from what size on does this drive or share run at full speed?"
      settings={<SweepSettings form={form} set={set} errors={errors} />}
      result={live ? undefined : result}
    >
      {!live && sweep && result ? (
        <ResultView sweep={sweep} doc={result} />
      ) : (
        <LiveView job={live ?? null} idleSizes={SWEEP_LADDERS[form.preset]} />
      )}
    </Frame>
  );
}
