// The sustained-write panel: how much to write (up to free space less a reserve), runs and the
// rest between them; the curve of MB/s against GB written, live and then from the document,
// with the verdict in one plain line — where the drive's fast cache runs out, or that it holds
// steady, or that it swings (throttling) — and what limited the test.
import { useMemo } from 'react';
import type { ResultDocument } from '@model/result';
import { targetLink } from '../../../lib/target-link';
import { selectSelectedTarget, useTargetsStore } from '../../../lib/targets-store';
import { sustainedVerdictText } from '@model/kinds/sustained/report';
import { liveLines, resultLines, verdictMarks, type VerdictMarks } from '../../../lib/curve';
import { ChipGroup } from '../../../components/fields';
import { RunsAndRest } from '../../../components/repeat-fields';
import { MAX_REST_MINUTES, MAX_RUNS } from '../form-rules';
import { SUSTAINED_SIZES, type SustainedForm } from './sustained-form';
import type { KindPanelProps, DetailedJob } from '../kind-entry';
import { WriteCurveChart } from '../../../components/write-curve-chart';
import { sizeText } from '@model/report/figure-text';
import { formatBytesShort } from '@model/units';

const NO_MARKS: VerdictMarks = { knees: [], levels: [], band: null };

function SustainedSettings({ form: f, set, errors }: Pick<KindPanelProps<SustainedForm>, 'form' | 'set' | 'errors'>) {
  return (
    <>
      <ChipGroup
        label="Write up to"
        value={f.maxBytes}
        choices={SUSTAINED_SIZES.map((b) => ({ value: b, label: `${b / 1e9} GB` }))}
        onChange={(maxBytes) => set({ maxBytes })}
        testIdPrefix="sustained-size"
      />
      <RunsAndRest form={f} maxRuns={MAX_RUNS} maxRest={MAX_REST_MINUTES} errors={errors} set={set} testIdPrefix="sustained" />
    </>
  );
}

/** What the panel says under the chart's title: the verdict per run, or what is happening. */
function verdictLines(live: DetailedJob | null, result: ResultDocument | undefined): string[] {
  if (live) {
    const p = live.progress;
    if (live.outcome === 'stopped') return ['Stopped before the end: no verdict.'];
    if (p && p.stage === 'run' && p.bytesTotal > 0)
      return [`Writing… ${formatBytesShort(p.bytesDone)} of ${formatBytesShort(p.bytesTotal)}`];
    return live.outcome ? [] : ['Writing…'];
  }
  const runs = result?.sustained?.runs ?? [];
  // The one trust rule: a knee on a target flagged cached is withheld, with the reason.
  const said = (r: (typeof runs)[number]) => sustainedVerdictText(r, result?.flags);
  if (runs.length === 1) return [said(runs[0]!)];
  return runs.map((r) => `Run ${r.run}: ${said(r)}`);
}

/** Notes on what limited the test: the plan's or document's notes, and free space. */
function sustainedNotes(live: DetailedJob | null, result: ResultDocument | undefined): string[] {
  const notes = [...(live ? (live.plan?.notes ?? []) : (result?.notes ?? []))];
  const s = live ? undefined : result?.sustained;
  if (s?.limitedBy === 'free-space' && notes.length === 0) {
    notes.push(
      `Limited by free space: ${formatBytesShort(s.plannedBytes)} written of the ${sizeText(s.requestedBytes)} asked, ${formatBytesShort(s.reserveBytes)} kept free.`,
    );
  }
  return notes;
}

export function SustainedPanel({ form, set, errors, live, result, Frame }: KindPanelProps<SustainedForm>) {
  const target = useTargetsStore(selectSelectedTarget);

  const lines = useMemo(() => (live ? liveLines(live.live) : resultLines(result?.sustained?.runs ?? [])), [live, result]);
  const marks = useMemo(() => (live ? NO_MARKS : verdictMarks(result?.sustained?.runs ?? [])), [live, result]);
  // The ceiling of the link the shown figures went through: the document's, else the selected
  // target's when it is the one tested (or the one being tested now).
  const shownPath = live ? live.settings.target : result?.target.path;
  const ceilingMBps =
    (!live ? result?.target.device.linkInfo?.ceilingMBps : undefined) ??
    (target && target.path === shownPath ? targetLink(target)?.ceilingMBps : undefined);
  const xMaxGB = live ? (live.plan?.bytes ?? 0) / 1e9 : undefined;
  const verdict = verdictLines(live, result);
  const notes = sustainedNotes(live, result);
  const limited = !live && result?.sustained?.limitedBy === 'free-space';
  const shown = live ? undefined : result;

  return (
    <Frame
      title="Sustained write"
      subtitle="Writes one large file from start to end: many SSDs write fast into a cache, then slow down once it is full."
      settings={<SustainedSettings form={form} set={set} errors={errors} />}
      result={shown}
    >
      {verdict.length > 0 && (
        <div className="sustained-verdict" data-testid="sustained-verdict">
          {verdict.map((v) => (
            <p key={v}>{v}</p>
          ))}
        </div>
      )}
      {(limited || notes.length > 0) && (
        <ul className="panel-notes" data-testid="sustained-notes">
          {limited && <li className="panel-notes__tag">limited by free space</li>}
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      <figure className="chart-figure" aria-label="Write speed against the amount written">
        {lines.some((l) => l.points.length > 0) ? (
          <WriteCurveChart lines={lines} marks={marks} ceilingMBps={ceilingMBps} xMaxGB={xMaxGB} />
        ) : (
          <p className="empty chart-empty">The write speed will be drawn here against the amount written.</p>
        )}
      </figure>
    </Frame>
  );
}
