// The CrystalDiskMark panel: CrystalDiskMark's settings (runs, size, profile, mode, measure
// time, interval) plus a rest between runs, the unit switch, and the grid — filling live as each
// step finishes, then showing the finished document (best of the runs, median beside it).
import { useMemo } from 'react';
import { cdmGridView, type CdmGridView } from '../../lib/cdm-model';
import { CdmGrid } from '../../components/cdm-grid';
import { formatBinarySize } from '../../lib/figure-format';
import { SelectField } from '../../components/fields';
import { RestField } from '../../components/repeat-fields';
import { Panel } from './panel';
import {
  CDM_INTERVAL_CHOICES,
  CDM_MODES,
  CDM_PRESETS,
  CDM_RUN_CHOICES,
  CDM_SECONDS_CHOICES,
  CDM_SIZES,
  cdmErrors,
  MAX_REST_MINUTES,
} from './settings';
import { selectLiveJob, selectResult, useDetailedStore } from './store';
import { UnitToggle } from './unit-toggle';

function CdmSettings() {
  const f = useDetailedStore((s) => s.cdm);
  const set = useDetailedStore((s) => s.setCdm);
  const errors = cdmErrors(f);
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

export function CdmPanel({ lockedReason }: { lockedReason?: string | undefined }) {
  const live = useDetailedStore(selectLiveJob('cdm'));
  const result = useDetailedStore(selectResult('cdm'));
  const unit = useDetailedStore((s) => s.unit);
  const preset = useDetailedStore((s) => s.cdm.preset);
  const mode = useDetailedStore((s) => s.cdm.mode);

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
    <Panel
      kind="cdm"
      title="CrystalDiskMark"
      subtitle={subtitle}
      headerExtra={<UnitToggle />}
      settings={<CdmSettings />}
      lockedReason={lockedReason}
      result={live ? undefined : result}
    >
      <CdmGrid view={view} unit={unit} />
    </Panel>
  );
}
