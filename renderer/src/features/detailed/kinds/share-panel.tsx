// The share panel: what limits a network share, the link, the server's disk or the protocol. Its
// settings (the large file, the small files, runs); while it runs, the step under way; then per run
// the verdict in the one renderer's words (model/verdict/share.ts), the figures it was decided
// from, and the small-file verdict. A folder not on a share is refused before Start by the frame
// (the kind's `networkOnly`), in the runner's own words.
import type { ShareRun, ShareSection } from '@model/kinds/share/result';
import { linkRateText, msText } from '@model/kinds/share/section';
import { shareText, smallFileText } from '@model/verdict/share';
import type { ResultDocument } from '@model/result';
import { sizeText } from '@model/report/figure-text';
import { formatBytes, formatBytesShort, formatMBpsFigure } from '@model/units';
import { ChipGroup, NumberField } from '../../../components/fields';
import { RunsAndRest } from '../../../components/repeat-fields';
import { MAX_REST_MINUTES, MAX_RUNS } from '../form-rules';
import type { DetailedJob, KindPanelProps } from '../kind-entry';
import { SHARE_MAX_FILES, SHARE_SIZES, type ShareForm } from './share-form';

function ShareSettings({ form: f, set, errors }: Pick<KindPanelProps<ShareForm>, 'form' | 'set' | 'errors'>) {
  return (
    <>
      <ChipGroup
        label="Large file"
        value={f.sizeBytes}
        choices={SHARE_SIZES.map((b) => ({ value: b, label: sizeText(b) }))}
        onChange={(sizeBytes) => set({ sizeBytes })}
        testIdPrefix="share-size"
        after={<span className="field__hint">more than the server keeps in memory, so it is read from its disk</span>}
      />
      <NumberField
        label="Small files"
        value={f.files}
        min={1}
        max={SHARE_MAX_FILES}
        onChange={(files) => set({ files })}
        error={errors.files}
        testId="share-files"
      />
      <RunsAndRest form={f} maxRuns={MAX_RUNS} maxRest={MAX_REST_MINUTES} errors={errors} set={set} testIdPrefix="share" />
    </>
  );
}

/** What is happening now: the step under way, with how far it is. */
function liveLine(live: DetailedJob): string {
  if (live.outcome === 'stopped') return 'Stopped before the end: no verdict.';
  if (live.outcome === 'failed') return 'Failed before the end: no verdict.';
  const p = live.progress;
  if (p && p.stage === 'run')
    return p.bytesTotal > 0 ? `${p.testName}… ${formatBytesShort(p.bytesDone)} of ${formatBytesShort(p.bytesTotal)}` : `${p.testName}…`;
  return 'Preparing…';
}

const mb = (x: number): string => `${formatMBpsFigure(x)} MB/s`;

/** The figures a run's verdicts were decided from, as [what, value]. */
function evidence(s: ShareSection, r: ShareRun): Array<[string, string]> {
  const f = r.verdict.figures;
  const rate = linkRateText(r.verdict);
  const trips = r.fileVerdict.figures.roundTrips;
  return [
    ["From the server's memory", mb(f.ceilingMBps)],
    ["Server's disk, read cold", mb(f.diskReadMBps)],
    ["Server's disk, written", mb(f.diskWriteMBps)],
    ['Link ceiling', rate ? `${mb(f.linkCeilingMBps)} (${rate})` : 'not known'],
    ['Round trip', s.rttMs !== undefined ? `${msText(s.rttMs)} ms` : 'not measured'],
    ['A small file', `${msText(r.fileVerdict.figures.fileMs)} ms`],
    ['Round trips a small file', trips > 0 ? trips.toFixed(1) : '—'],
  ];
}

function ResultView({ share, doc }: { share: ShareSection; doc: ResultDocument }) {
  const many = share.runs.length > 1;
  return (
    <div className="share-result" data-testid="share-result">
      {share.runs.map((r) => (
        <div key={r.run} className="share-run">
          {many && <h3 className="share-run__title">Run {r.run}</h3>}
          <p
            className={r.verdict.outcome === 'could-not-separate' ? 'share-verdict share-verdict--unsure' : 'share-verdict'}
            data-testid="share-verdict"
          >
            {shareText(r.verdict)}
          </p>
          <dl className="share-figures" data-testid="share-figures">
            {evidence(share, r).map(([name, value]) => (
              <div key={name} className="share-figure">
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <p className="share-file-verdict" data-testid="share-file-verdict">
            {smallFileText(r.fileVerdict)}
          </p>
        </div>
      ))}
      <p className="share-method">
        {`${sizeText(doc.settings.size)} written and read cold; ${formatBytes(share.cacheFileBytes)} read twice from the server's memory; ${share.files.toLocaleString('en-US')} files of 4 KiB, each one's stat, open, read and close timed against the round trip.`}
      </p>
    </div>
  );
}

export function SharePanel({ form, set, errors, live, result, Frame }: KindPanelProps<ShareForm>) {
  const share = live ? undefined : result?.share;
  return (
    <Frame
      title="Share limits"
      subtitle="What limits a network share: the link, the server's disk or the protocol. Reads a file from the server's memory and a larger one from its disk, and times small files against the round trip, all through the share, nothing installed on the server."
      settings={<ShareSettings form={form} set={set} errors={errors} />}
      result={live ? undefined : result}
    >
      {live ? (
        <p className="empty chart-empty" data-testid="share-live">
          {liveLine(live)}
        </p>
      ) : share && result ? (
        <ResultView share={share} doc={result} />
      ) : (
        <p className="empty chart-empty">What limits the share, and the figures that show it, will be shown here.</p>
      )}
    </Frame>
  );
}
