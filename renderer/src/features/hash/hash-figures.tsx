// "Disk or CPU?": the verdict in one big line with its bound as a badge, and four horizontal bars
// on one scale — uncached read alone, read while hashing, and hashing in memory on one core and
// on all of them. Bars fill in as stages finish; the running one grows from progress. Under
// them, what the reader's and hasher's waits say and why the all-cores figure is not one file's.
import { useId, useMemo } from 'react';
import { hashVerdictWithheld } from '@model/trust';
import { formatRate } from '../../lib/figure-format';
import { barsFromJob, barsFromSection, boundLabel, waitLine, type Bar } from '../../lib/hash-model';
import { selectHashBusy, selectLiveJob, useHashStore } from './store';
import { CardHeader } from '../../components/card-header';

const pct = (x: number): string => `${Math.round(x * 1000) / 10}%`;

function HashBar({ bar }: { bar: Bar }) {
  return (
    <li className={`hash-bar hash-bar--${bar.stage} hash-bar--${bar.state}`} data-testid={`hash-bar-${bar.stage}`} data-state={bar.state}>
      <span className="hash-bar__label">{bar.label}</span>
      <span className="hash-bar__track" aria-hidden="true">
        <span className="hash-bar__fill" style={{ width: pct(bar.width) }} />
        {bar.state === 'live' && (
          <span className="hash-bar__progress" style={{ transform: `scaleX(${Math.min(1, Math.max(0, bar.fraction))})` }} />
        )}
      </span>
      <span className="hash-bar__value">
        {bar.mbps === null ? '—' : formatRate(bar.mbps)}
        {bar.state === 'live' && <span className="hash-bar__live"> so far</span>}
      </span>
    </li>
  );
}

export function HashFigures() {
  const live = useHashStore(selectLiveJob);
  const busy = useHashStore(selectHashBusy);
  const result = useHashStore((s) => s.result);
  const titleId = useId();
  const section = live ? undefined : result?.hash;
  const bars = useMemo(
    () => (section ? barsFromSection(section) : barsFromJob(live ?? { stages: [], progress: null }, busy)),
    [section, live, busy],
  );
  const verdict = section?.verdict;
  // The one trust rule: a verdict the figures contradict is withheld, with the reason.
  const withheld = section ? hashVerdictWithheld(section) : undefined;
  const waits = section ? waitLine(section.readHash, withheld ? undefined : verdict?.bound) : null;
  const threads = section?.memoryParallel?.threads ?? live?.stages.find((s) => s.stage === 'memory-parallel')?.threads;
  const hasParallel = bars.some((b) => b.stage === 'memory-parallel' && b.state === 'done');

  let lead: string | null = null;
  if (!verdict) {
    if (busy) lead = 'Measuring… the bars fill in as each stage finishes.';
    else if (live?.outcome === 'stopped') lead = 'Stopped before the end: no verdict.';
    else if (live?.outcome === 'failed') lead = 'The test failed: no verdict.';
    else lead = 'Start a test: four rates will appear here on one scale, and whether the disk or the CPU sets the pace.';
  }

  return (
    <section className="card hash-figures" aria-labelledby={titleId} data-testid="hash-figures">
      <CardHeader
        titleId={titleId}
        title={<>Disk or CPU?</>}
        subtitle={
          <>Reading alone is the storage’s rate; hashing in memory is the CPU’s. Read + hash can be no faster than the slower of the two.</>
        }
      />
      <div className="hash-figures__body">
        {verdict && withheld ? (
          <div className="hash-verdict-row">
            <p className="hash-verdict hash-verdict--withheld" data-testid="hash-verdict">
              {withheld}
            </p>
          </div>
        ) : verdict ? (
          <div className="hash-verdict-row">
            <span className={`badge hash-bound hash-bound--${verdict.bound}`} data-testid="hash-bound">
              {boundLabel(verdict.bound)}
            </span>
            <p className="hash-verdict" data-testid="hash-verdict">
              {verdict.text}
            </p>
          </div>
        ) : (
          <p className="hash-lead" data-testid="hash-lead">
            {lead}
          </p>
        )}
        <ol className="hash-bars" aria-label="Rates in MB/s, on one scale">
          {bars.map((b) => (
            <HashBar key={b.stage} bar={b} />
          ))}
        </ol>
        {(waits || hasParallel) && (
          <ul className="panel-notes hash-notes" data-testid="hash-notes">
            {waits && <li data-testid="hash-waits">{waits}</li>}
            {section && !withheld && Number.isFinite(section.verdict.efficiency) && (
              <li data-testid="hash-efficiency">
                Read + hash reached {Math.round(section.verdict.efficiency * 100)} % of the slower of reading and one-core hashing.
              </li>
            )}
            {hasParallel && (
              <li>
                One file is hashed on one core: the {threads && threads > 1 ? `${threads}-core` : 'all-cores'} figure is what several files
                hashed at once could reach.
              </li>
            )}
          </ul>
        )}
      </div>
    </section>
  );
}
