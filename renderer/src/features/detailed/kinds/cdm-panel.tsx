// The CrystalDiskMark panel: CrystalDiskMark's settings (runs, size, profile, mode, measure
// time, interval) plus a rest between runs, the unit switch, and the grid — filling live as each
// step finishes, then showing the finished document (best of the runs, median beside it).
import { useMemo, useState } from 'react';
import { cdmGridView, type CdmGridView } from '../../../lib/cdm-model';
import { CdmGrid } from '../../../components/cdm-grid';
import { CDM_UNITS, formatBinarySize, type CdmUnit } from '../../../lib/figure-format';
import { SelectField } from '../../../components/fields';
import { RestField } from '../../../components/repeat-fields';
import { MAX_REST_MINUTES } from '../form-rules';
import { CDM_INTERVAL_CHOICES, CDM_MODES, CDM_PRESETS, CDM_RUN_CHOICES, CDM_SECONDS_CHOICES, CDM_SIZES, type CdmForm } from './cdm-form';
import type { KindPanelProps } from '../kind-entry';

function CdmSettings({ form: f, set, errors }: Pick<KindPanelProps<CdmForm>, 'form' | 'set' | 'errors'>) {
  return (
    <>
      <SelectField
        label="Runs"
        value={f.runs}
        choices={CDM_RUN_CHOICES.map((n) => ({ value: n, label: String(n) }))}
        onChange={(runs) => set({ runs })}
        testId="cdm-runs"
      />
      <SelectField
        label="Size"
        value={f.sizeBytes}
        choices={CDM_SIZES.map((b) => ({ value: b, label: formatBinarySize(b) }))}
        onChange={(sizeBytes) => set({ sizeBytes })}
        testId="cdm-size"
      />
      <SelectField label="Profile" value={f.preset} choices={CDM_PRESETS} onChange={(preset) => set({ preset })} testId="cdm-preset" />
      <SelectField label="Mode" value={f.mode} choices={CDM_MODES} onChange={(mode) => set({ mode })} testId="cdm-mode" />
      <SelectField
        label="Measure"
        value={f.seconds}
        choices={CDM_SECONDS_CHOICES.map((n) => ({ value: n, label: `${n} s` }))}
        onChange={(seconds) => set({ seconds })}
        testId="cdm-seconds"
      />
      <SelectField
        label="Interval"
        value={f.intervalSeconds}
        choices={CDM_INTERVAL_CHOICES.map((n) => ({ value: n, label: `${n} s` }))}
        onChange={(intervalSeconds) => set({ intervalSeconds })}
        testId="cdm-interval"
      />
      <RestField
        runs={f.runs}
        restMinutes={f.restMinutes}
        maxRest={MAX_REST_MINUTES}
        error={errors.restMinutes}
        onChange={(restMinutes) => set({ restMinutes })}
        testId="cdm-rest"
      />
    </>
  );
}

/** CrystalDiskMark's unit switch for the grid: MB/s, GB/s, IOPS, or µs (mean latency big). */
function UnitToggle({ unit, setUnit }: { unit: CdmUnit; setUnit(u: CdmUnit): void }) {
  return (
    <div className="segmented" role="radiogroup" aria-label="Unit">
      {CDM_UNITS.map((u) => (
        <button
          key={u.value}
          type="button"
          role="radio"
          aria-checked={unit === u.value}
          className="segment"
          data-testid={`cdm-unit-${u.value}`}
          onClick={() => setUnit(u.value)}
        >
          {u.label}
        </button>
      ))}
    </div>
  );
}

export function CdmPanel({ form, set, errors, live, result, Frame }: KindPanelProps<CdmForm>) {
  // The screen stays mounted once opened (app.tsx), so the unit chosen lasts the session.
  const [unit, setUnit] = useState<CdmUnit>('MBps');
  const { preset, mode } = form;

  const view: CdmGridView = useMemo(() => {
    if (live && live.settings.kind === 'cdm') {
      return cdmGridView({
        tests: live.steps.map((s) => s.test),
        stepNames: live.plan?.steps ?? [],
        preset: live.settings.preset,
        mode: live.settings.mode,
        progress: live.outcome ? null : live.progress,
      });
    }
    if (result) {
      return cdmGridView({
        tests: result.tests,
        summary: result.summary,
        stepNames: [],
        preset: result.settings.preset,
        mode: result.settings.mode,
      });
    }
    // Nothing measured yet: the grid the chosen profile and mode will fill.
    return cdmGridView({ tests: [], stepNames: [], preset, mode });
  }, [live, result, preset, mode]);

  const runs = live ? (live.plan?.runs ?? live.settings.runs) : result?.settings.runs;
  const subtitle =
    runs && runs > 1
      ? `Best of ${runs} runs, as CrystalDiskMark reports, with the median across runs beside it; IOPS and latency of the best run.`
      : 'Sequential and random reads and writes at CrystalDiskMark’s queue depths, with IOPS and latency percentiles.';

  return (
    <Frame
      title="CrystalDiskMark"
      subtitle={subtitle}
      headerExtra={<UnitToggle unit={unit} setUnit={setUnit} />}
      settings={<CdmSettings form={form} set={set} errors={errors} />}
      result={live ? undefined : result}
    >
      <CdmGrid view={view} unit={unit} />
    </Frame>
  );
}
