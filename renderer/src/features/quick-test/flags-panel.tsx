// The "Trust" panel under the dials: the latest Quick Test's flags (components/flags-list).
// No flags, no panel.
import { useId } from 'react';

import { FlagsList, flagsSummary } from '../../components/flags-list';

import { useQuickTestStore } from './store';

export function FlagsPanel() {
  const flags = useQuickTestStore((s) => s.flags);
  const titleId = useId();
  if (flags.length === 0) return null;
  return (
    <section className="flags card" aria-labelledby={titleId} data-testid="flags-panel">
      <header className="card__header card__header--wrap">
        <div>
          <h2 id={titleId} className="card__title">
            Trust
          </h2>
          <p className="card__subtitle">{flagsSummary(flags)}</p>
        </div>
      </header>
      <FlagsList flags={flags} />
    </section>
  );
}
