// The small-file test (a NAS reviewer's "thousands of small files"): each file created, written,
// fsynced and closed, then stat'ed, opened and read, then deleted, every operation timed. After
// it: files per second, the time a file takes, the payload MB/s and each operation's times.
import { SMALL_FILES_OPS, type SmallFilesRun, type SmallFilesSection } from '@model/kinds/small-files/result';
import { SMALL_FILES_PRESET_SETS, SMALL_FILES_SCOPE } from '@model/kinds/small-files/plan';
import { formatBytesBinary, formatMBpsFigure } from '@model/units';
import { ChipGroup, NumberField } from '../../../components/fields';
import { RunsAndRest } from '../../../components/repeat-fields';
import { MAX_REST_MINUTES, MAX_RUNS } from '../form-rules';
import type { KindPanelProps } from '../kind-entry';
import { SMALL_FILE_SIZE_CHOICES, SMALL_FILES_MAX_COUNT, SMALL_FILES_PRESET_CHOICES, type SmallFilesForm } from './small-files-form';

/** A stat or an open takes microseconds on a local disk: "0.00 ms" would hide them. */
/** One unit for a set of times, ms: µs when all are under a millisecond, else ms, so a column never
 *  mixes "0.11 ms" with "46 µs". */
function timeUnit(all: readonly number[]): (x: number) => string {
  if (all.every((x) => x < 1)) return (x) => `${Math.round(x * 1000).toLocaleString('en-US')} µs`;
  return (x) => `${x < 10 ? x.toFixed(2) : x.toFixed(1)} ms`;
}

function SmallFilesSettings({ form: f, set, errors }: Pick<KindPanelProps<SmallFilesForm>, 'form' | 'set' | 'errors'>) {
  const chosen = SMALL_FILES_PRESET_CHOICES.find((p) => p.value === f.preset);
  return (
    <>
      <ChipGroup
        label="Preset"
        value={f.preset}
        choices={SMALL_FILES_PRESET_CHOICES}
        onChange={(preset) => set({ preset, ...SMALL_FILES_PRESET_SETS[preset] })}
        testIdPrefix="small-files-preset"
        after={chosen && <span className="field__hint">{chosen.detail}</span>}
      />
      <NumberField
        label="Files"
        value={f.count}
        min={1}
        max={SMALL_FILES_MAX_COUNT}
        onChange={(count) => set({ count })}
        error={errors.count}
        testId="small-files-count"
      />
      <ChipGroup
        label="File size"
        value={f.fileBytes}
        choices={SMALL_FILE_SIZE_CHOICES.map((b) => ({ value: b, label: formatBytesBinary(b) }))}
        onChange={(fileBytes) => set({ fileBytes })}
        testIdPrefix="small-files-size"
      />
      <RunsAndRest form={f} maxRuns={MAX_RUNS} maxRest={MAX_REST_MINUTES} errors={errors} set={set} testIdPrefix="small-files" />
    </>
  );
}

const FIGURES: ReadonlyArray<readonly [string, (r: SmallFilesRun, ms: (x: number) => string) => string]> = [
  ['Files/s', (r) => Math.round(r.filesPerSecond).toLocaleString('en-US')],
  ['Time per file', (r, ms) => ms(r.msPerFile)],
  ['p50 per file', (r, ms) => ms(r.fileP50Ms)],
  ['p99 per file', (r, ms) => ms(r.fileP99Ms)],
  ['File data written', (r) => `${formatMBpsFigure(r.writeMBps)} MB/s`],
  ['File data read', (r) => `${formatMBpsFigure(r.readMBps)} MB/s`],
];

function ResultView({ small }: { small: SmallFilesSection }) {
  const many = small.runs.length > 1;
  return (
    <div className="small-files-result" data-testid="small-files-result">
      {small.runs.map((r) => {
        const perFile = timeUnit([r.msPerFile, r.fileP50Ms, r.fileP99Ms]);
        const ms = timeUnit(r.ops.flatMap((o) => [o.p50Ms, o.p99Ms, o.maxMs]));
        return (
          <div key={r.run} className="small-files-run">
            {many && <h3 className="small-files-run__title">Run {r.run}</h3>}
            <dl className="small-files-figures" data-testid="small-files-figures">
              {FIGURES.map(([name, pick]) => (
                <div key={name} className="small-files-figure">
                  <dt>{name}</dt>
                  <dd>{pick(r, perFile)}</dd>
                </div>
              ))}
            </dl>
            <table className="data-table stats-table small-files-ops" data-testid="small-files-ops">
              <thead>
                <tr>
                  <th scope="col">Operation</th>
                  <th scope="col">p50</th>
                  <th scope="col">p99</th>
                  <th scope="col">max</th>
                </tr>
              </thead>
              <tbody>
                {SMALL_FILES_OPS.map((op) => {
                  const o = r.ops.find((x) => x.op === op);
                  return (
                    <tr key={op}>
                      <th scope="row">{op}</th>
                      <td>{o ? ms(o.p50Ms) : '–'}</td>
                      <td>{o ? ms(o.p99Ms) : '–'}</td>
                      <td>{o ? ms(o.maxMs) : '–'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        );
      })}
      <p className="small-files-scope" data-testid="small-files-scope">
        {small.scope || SMALL_FILES_SCOPE}
      </p>
      <p className="small-files-method">
        {`${small.count.toLocaleString('en-US')} files of ${formatBytesBinary(small.fileBytes)}, one at a time: created, written, fsynced and closed, then stat'ed, opened and read, then deleted.`}
      </p>
    </div>
  );
}

export function SmallFilesPanel({ form, set, errors, live, result, Frame }: KindPanelProps<SmallFilesForm>) {
  const small = live ? undefined : result?.smallFiles;
  return (
    <Frame
      title="Small-file test"
      subtitle="Creates, writes, syncs, reads and deletes many small files one by one, timing every operation: what copying thousands of small files costs."
      settings={<SmallFilesSettings form={form} set={set} errors={errors} />}
      result={live ? undefined : result}
    >
      {live ? (
        <p className="empty chart-empty" data-testid="small-files-live">
          {live.outcome === 'stopped' ? 'Stopped before the end: no figures.' : 'Timing every operation of every file…'}
        </p>
      ) : small ? (
        <ResultView small={small} />
      ) : (
        <p className="empty chart-empty">Files per second and each operation’s times will be shown here.</p>
      )}
    </Frame>
  );
}
