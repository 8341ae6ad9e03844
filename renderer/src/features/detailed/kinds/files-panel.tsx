// The many-file panel (after Howard Oakley's Stibium): a set of files of log-uniform sizes is
// written in a shuffled order, then read in another. Two scatters — write and read — place each
// file's MB/s against its size as it finishes; afterwards the Theil–Sen model is drawn over them
// and a table per pass gives the aggregate, per-file averages and both line fits.
import { useMemo } from 'react';
import type { FilesSection } from '@model/result';
import { ChipGroup, NumberField } from '../../../components/fields';
import { RunsAndRest } from '../../../components/repeat-fields';
import { livePoints, modelLine, resultPoints, sizeDomain, type FilePoint, type Pass } from '../../../lib/files-model';
import { FilesScatter, type FitLine } from '../../../components/files-scatter';
import { FilesStats } from '../../../components/files-stats';
import type { DetailedPlanEvent } from '@model/events';
import { MAX_REST_MINUTES, MAX_RUNS } from '../form-rules';
import { FILE_MAX_BYTES, FILE_MIN_BYTES, FILES_MAX_COUNT, FILES_MIN_COUNT, FILES_PRESETS, type FilesForm } from './files-form';
import type { KindPanelProps } from '../kind-entry';
import { formatBytesShort } from '@model/units';

/** The set's smallest and largest file, in MB as the field says. */
const SIZE_BOUNDS = [
  ['Smallest', 'minMB', 'files-min'],
  ['Largest', 'maxMB', 'files-max'],
] as const;

function FilesSettings({ form: f, set, errors }: Pick<KindPanelProps<FilesForm>, 'form' | 'set' | 'errors'>) {
  const chosen = FILES_PRESETS.find((p) => p.value === f.preset);
  return (
    <>
      <ChipGroup
        label="Set"
        value={f.preset}
        choices={FILES_PRESETS}
        onChange={(preset) => set({ preset })}
        testIdPrefix="files-preset"
        after={chosen && <span className="field__hint">{chosen.detail}</span>}
      />
      {f.preset === 'custom' && (
        <>
          <NumberField
            label="Files"
            value={f.count}
            min={FILES_MIN_COUNT}
            max={FILES_MAX_COUNT}
            onChange={(count) => set({ count })}
            error={errors.count}
            testId="files-count"
          />
          {SIZE_BOUNDS.map(([label, key, testId]) => (
            <NumberField
              key={key}
              label={label}
              unit="MB"
              value={f[key]}
              min={FILE_MIN_BYTES / 1e6}
              max={FILE_MAX_BYTES / 1e6}
              step="any"
              onChange={(mb) => set({ [key]: mb })}
              error={errors[key]}
              testId={testId}
            />
          ))}
        </>
      )}
      <RunsAndRest form={f} maxRuns={MAX_RUNS} maxRest={MAX_REST_MINUTES} errors={errors} set={set} testIdPrefix="files" />
    </>
  );
}

/** "24 files, 3.1 MB – 168 MB, 1.4 GB in all": the set as planned or as measured. */
function setLine(plan: DetailedPlanEvent | null | undefined, files: FilesSection | undefined): string | null {
  if (files)
    return `${files.count} files, ${formatBytesShort(files.minBytes)} – ${formatBytesShort(files.maxBytes)}, ${formatBytesShort(files.totalBytes)} in all · seed ${files.seed}`;
  const set = plan?.files;
  if (!set || set.length === 0) return null;
  const sizes = set.map((f) => f.bytes);
  return `${set.length} files, ${formatBytesShort(Math.min(...sizes))} – ${formatBytesShort(Math.max(...sizes))}, ${formatBytesShort(sizes.reduce((a, b) => a + b, 0))} in all`;
}

function PassView({
  pass,
  points,
  fits,
  domain,
  files,
  total,
}: {
  pass: Pass;
  points: FilePoint[];
  fits: FitLine[];
  domain: [number, number] | null;
  files: FilesSection | undefined;
  total: number | null;
}) {
  const name = pass === 'write' ? 'Write' : 'Read';
  const count = total ? `${points.length} of ${total} files` : `${points.length} files`;
  return (
    <div className="files-pass">
      <h3 className={`files-pass__title files-pass__title--${pass}`}>
        {name} <span className="files-pass__count">· {count}</span>
      </h3>
      <figure className="chart-figure" data-testid={`files-scatter-${pass}`} aria-label={`${name} speed of each file against its size`}>
        {domain && points.length > 0 ? (
          <FilesScatter pass={pass} points={points} fits={fits} domain={domain} />
        ) : (
          <p className="empty chart-empty">
            {pass === 'write' ? 'Each file’s write speed will appear here as it finishes.' : 'Read speeds appear after the write pass.'}
          </p>
        )}
      </figure>
      {files && files.runs.length > 0 && <FilesStats pass={pass} runs={files.runs} />}
    </div>
  );
}

export function FilesPanel({ form, set, errors, live, result, Frame }: KindPanelProps<FilesForm>) {
  const files = live ? undefined : result?.files;

  const view = useMemo(() => {
    const points: Record<Pass, FilePoint[]> = live
      ? { write: livePoints(live.steps, 'write'), read: livePoints(live.steps, 'read') }
      : files
        ? { write: resultPoints(files, 'write'), read: resultPoints(files, 'read') }
        : { write: [], read: [] };
    const sizes = live?.plan?.files?.map((f) => f.bytes / 1e6) ?? files?.runs[0]?.items.map((i) => i.bytes / 1e6) ?? [];
    const domain = sizeDomain(sizes.length > 0 ? sizes : [...points.write, ...points.read].map((p) => p.mb));
    const fitsOf = (pass: Pass): FitLine[] =>
      domain && files
        ? files.runs.flatMap((r) => (r[pass].theilSen ? [{ run: r.run, points: modelLine(r[pass].theilSen!, domain) }] : []))
        : [];
    const total = live?.plan?.files ? live.plan.files.length * live.plan.runs : files ? files.count * files.runs.length : null;
    return { points, domain, fits: { write: fitsOf('write'), read: fitsOf('read') }, total };
  }, [live, files]);

  const line = setLine(live?.plan, files);
  const scaled = files?.scaled ?? (live ? live.plan?.scaled : undefined);
  const notes = (live ? (live.plan?.notes ?? []) : (result?.notes ?? [])).filter((n) => n !== scaled);

  return (
    <Frame
      title="Many files"
      subtitle="Writes a set of files of many sizes in random order, then reads them back: how the drive handles real folders of files, and the fixed cost each file pays."
      settings={<FilesSettings form={form} set={set} errors={errors} />}
      result={live ? undefined : result}
    >
      {line && <p className="files-set">{line}</p>}
      {scaled && (
        <p className="warning-box" role="note" data-testid="files-scaled">
          <span aria-hidden="true">⚠ </span>
          {scaled}
        </p>
      )}
      {notes.length > 0 && (
        <ul className="panel-notes">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      <div className="files-passes">
        <PassView pass="write" points={view.points.write} fits={view.fits.write} domain={view.domain} files={files} total={view.total} />
        <PassView pass="read" points={view.points.read} fits={view.fits.read} domain={view.domain} files={files} total={view.total} />
      </div>
    </Frame>
  );
}
