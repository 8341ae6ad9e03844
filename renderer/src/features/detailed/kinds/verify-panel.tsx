// The verify panel: where (the chosen folder's free space, or a whole unmounted disk: verify-disk.tsx)
// and how much to verify (all of it by default); while it runs, which file or part is being written
// or read back; then the verdict in the one renderer's words, a capacity bar (intact / read back
// wrong / not verified) and the write and read-and-verify curves.
import type { ResultDocument } from '@model/result';
import { verifyVerdictText } from '@model/kinds/verify/report';
import { formatBytesShort } from '@model/units';
import { ChipGroup } from '../../../components/fields';
import type { DetailedJob, KindPanelProps } from '../kind-entry';
import { VerifyChart } from './verify-chart';
import { VERIFY_SIZES, type VerifyForm } from './verify-form';
import { useEraseRefused, VerifyDiskPicker } from './verify-disk';

function VerifySettings({ form: f, set, errors }: Pick<KindPanelProps<VerifyForm>, 'form' | 'set' | 'errors'>) {
  useEraseRefused(set);
  const disk = f.face === 'disk';
  return (
    <>
      <ChipGroup
        label="Where"
        value={f.face}
        choices={[
          { value: 'folder', label: 'free space of the folder' },
          { value: 'disk', label: 'a whole disk (erases it)', detail: 'Writes the whole unmounted disk from its first byte' },
        ]}
        onChange={(face) => set({ face })}
        testIdPrefix="verify-face"
        variant="segmented"
      />
      <ChipGroup
        label="Verify"
        value={f.maxBytes}
        choices={VERIFY_SIZES.map((b) => ({
          value: b,
          label: b === 0 ? (disk ? 'the whole disk' : 'all free space') : `up to ${b / 1e9} GB`,
        }))}
        onChange={(maxBytes) => set({ maxBytes })}
        testIdPrefix="verify-size"
      />
      {disk && <VerifyDiskPicker form={f} set={set} errors={errors} />}
    </>
  );
}

/** What the panel says: the verdict, or what is happening now. */
function statusLine(live: DetailedJob | null, result: ResultDocument | undefined): string | undefined {
  if (live) {
    if (live.outcome === 'stopped') return 'Stopped before anything was read back: nothing proven yet.';
    const p = live.progress;
    if (p && p.stage === 'run') return `${p.testName}… ${formatBytesShort(p.bytesDone)} of ${formatBytesShort(p.bytesTotal)}`;
    return live.outcome ? undefined : 'Writing…';
  }
  return result?.verify ? verifyVerdictText(result.verify) : undefined;
}

/** The capacity bar: shares of the planned bytes read back intact, wrong, or not read. */
function CapacityBar({ doc }: { doc: ResultDocument }) {
  const f = doc.verify!.verdict.figures;
  const planned = Math.max(1, f.plannedBlocks);
  const parts = [
    { key: 'intact', label: 'intact', blocks: f.intactBlocks },
    { key: 'bad', label: 'read back wrong', blocks: f.checkedBlocks - f.intactBlocks },
    { key: 'unverified', label: 'not verified', blocks: Math.max(0, f.plannedBlocks - f.checkedBlocks) },
  ].filter((p) => p.blocks > 0);
  return (
    <figure className="verify-bar" data-testid="verify-bar" aria-label="What was written, by how it read back">
      <div className="verify-bar__track">
        {parts.map((p) => (
          <span key={p.key} className={`verify-bar__${p.key}`} style={{ width: `${(p.blocks / planned) * 100}%` }} />
        ))}
      </div>
      <figcaption>
        {parts.map((p) => (
          <span key={p.key} className={`verify-bar__legend verify-bar__legend--${p.key}`}>
            {p.label} {formatBytesShort(p.blocks * f.blockBytes)}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

export function VerifyPanel({ form, set, errors, live, result, Frame }: KindPanelProps<VerifyForm>) {
  const shown = live ? undefined : result;
  const line = statusLine(live, result);
  const bad = shown?.verify && !['genuine', 'stopped'].includes(shown.verify.verdict.outcome);
  return (
    <Frame
      title="Verify capacity"
      subtitle={
        form.face === 'disk'
          ? 'Writes the whole disk with blocks that name themselves, then reads every one back: a fake drive’s real capacity, any byte read back wrong, and the write and read speed across the disk.'
          : "Fills the free space with blocks that name themselves, then reads every one back: a fake drive's real capacity, any byte read back wrong, and the write and read speed across the volume."
      }
      settings={<VerifySettings form={form} set={set} errors={errors} />}
      result={shown}
    >
      {line && (
        <p className={bad ? 'verify-verdict verify-verdict--bad' : 'verify-verdict'} data-testid="verify-verdict">
          {line}
        </p>
      )}
      {shown?.verify && <CapacityBar doc={shown} />}
      <figure className="chart-figure" aria-label="Write and read-and-verify speed against position on the volume">
        {shown?.verify && shown.verify.writeCurve.length > 0 ? (
          <VerifyChart write={shown.verify.writeCurve} read={shown.verify.readCurve} where={shown.verify.device ? 'disk' : 'volume'} />
        ) : (
          <p className="empty chart-empty">The write and read-back speeds will be drawn here against position on the volume.</p>
        )}
      </figure>
    </Frame>
  );
}
