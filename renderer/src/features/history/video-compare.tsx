// "Will it work?" side by side: for the Quick Test results being compared, one format family at
// one frame rate (chosen as on the live screen), a row per format × resolution and a column per
// result, each cell ✓/✗/? for writing (recording) and reading (playing). Decided by
// model/kinds/video/will-it-work.ts from each result's mean speeds against the need with the margin,
// except where a frame-paced test launched from that result decided (marked †).
import { useId, useMemo, useState } from 'react';
import type { ResultDocument } from '@model/result';
import { videoData } from '@model/kinds/video/data';
import { formatFps } from '@model/kinds/video/math';
import { willItWork, type WillItWork, type WorkSide } from '@model/kinds/video/will-it-work';
import { quickAggregate } from '@model/verdict/aggregate';
import { byPaced, measuredLine, outcomeWord, sideTitle, workNotes } from '@model/kinds/video/will-it-work-words';
import { formatMBpsFigure } from '@model/units';
import { FilterSelect } from '../../components/filter-select';
import { usePacedDocs } from './use-paced-docs';

const CELL = { ok: ['vg-cell--ok', '✓'], fail: ['vg-cell--no', '✗'], unproven: ['vg-cell--unproven', '?'] } as const;

function Mark({ s, side, title }: { s: WorkSide; side: 'write' | 'read'; title: string }) {
  const [className, mark] = CELL[s.outcome];
  return (
    <span className={className} title={title}>
      <span aria-hidden="true">
        {mark}
        {byPaced(s) ? '†' : ''}
      </span>
      <span className="sr-only">
        {side} {outcomeWord(s.outcome)}
        {s.reason ? ` (${s.reason})` : ''}
      </span>
    </span>
  );
}

/** True when any of `docs` gets a "Will it work?" column (a Quick Test with both speeds). */
export const hasWillItWork = (docs: readonly ResultDocument[]): boolean => docs.some((d) => quickAggregate(d) !== null);

/** `fps` and `onFps`: the frame rate, held by the compare view so its exports follow it. */
export function WillItWorkCompare(props: {
  docs: readonly ResultDocument[];
  labels: readonly string[];
  fps: number;
  onFps: (fps: number) => void;
}) {
  const { docs, labels, fps, onFps: setFps } = props;
  const [family, setFamily] = useState(videoData.families[0]?.id ?? 'prores');
  const titleId = useId();
  // A row a frame-paced test of that result's drive decided takes its verdict, marked †.
  const paced = usePacedDocs(hasWillItWork(docs));
  const cols = useMemo(
    () =>
      docs.flatMap((d, i) => {
        const v = willItWork(d, { fps, families: [family] }, paced);
        return v ? [{ id: d.id, label: labels[i] ?? d.id, v }] : [];
      }),
    [docs, labels, fps, family, paced],
  );
  const pacedNotes = [...new Set(cols.flatMap((c) => workNotes(c.v, c.label).slice(1)))];
  const first: WillItWork | undefined = cols[0]?.v;
  if (!first) return null;
  const key = (r: { formatId: string; resolutionId: string }): string => `${r.formatId}/${r.resolutionId}`;

  return (
    <section className="compare-video" aria-labelledby={titleId} data-testid="compare-video">
      <h3 id={titleId} className="result-view__h3">
        Will it work? At {formatFps(fps)} fps
      </h3>
      <div className="compare-controls">
        <FilterSelect label="Formats" value={family} onChange={setFamily} testId="compare-video-family">
          {videoData.families.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect label="Frame rate" value={String(fps)} onChange={(v) => setFps(Number(v))} testId="compare-video-fps">
          {videoData.frameRates.map((r) => (
            <option key={r} value={String(r)}>
              {formatFps(r)} fps
            </option>
          ))}
        </FilterSelect>
      </div>
      <div className="table-scroll">
        <table className="data-table video-grid__table" data-testid="compare-video-table">
          <caption className="sr-only">
            Whether each result&apos;s drive can write (record) and read (play) each format at {formatFps(fps)} fps
          </caption>
          <thead>
            <tr>
              <th scope="col">Format</th>
              <th scope="col" className="num">
                Needs with margin (MB/s)
              </th>
              {cols.map((c) => (
                <th key={c.id} scope="col">
                  {c.label}
                  <span className="compare-row__unit">write · read</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {first.rows.map((r) => (
              <tr key={key(r)}>
                <th scope="row">
                  {r.format} {r.resolution}
                </th>
                <td className="num">
                  {formatMBpsFigure(r.needsMBps)}
                  {r.estimated && <span title="Estimate">*</span>}
                </td>
                {cols.map((c) => {
                  const mine = c.v.rows.find((x) => key(x) === key(r));
                  return (
                    <td key={c.id} data-testid={`compare-video-${c.id}-${key(r)}`}>
                      {mine ? (
                        <>
                          <Mark s={mine.write} side="write" title={sideTitle(mine, mine.write)} />{' '}
                          <Mark s={mine.read} side="read" title={sideTitle(mine, mine.read)} />
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="compare-rule" data-testid="compare-video-method">
        {first.method} {cols.map((c) => `${c.label}: ${measuredLine(c.v)}`).join(' ')}
      </p>
      {pacedNotes.length > 0 && (
        <p className="compare-rule" data-testid="compare-video-paced">
          {pacedNotes.join(' ')}
        </p>
      )}
    </section>
  );
}
