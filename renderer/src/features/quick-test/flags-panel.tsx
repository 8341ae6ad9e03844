// The "Trust" panel under the Quick Test's chart: the latest Quick Test's flags (components/flags-list).
// No flags, no panel.
import { useId } from 'react';

import { FlagsList, flagsSummary } from '../../components/flags-list';

import { useQuickTestStore } from './store';
import { CardHeader } from '../../components/card-header';

export function FlagsPanel() {
  const flags = useQuickTestStore((s) => s.flags);
  const titleId = useId();
  if (flags.length === 0) return null;
  return (
    <section className="flags card" aria-labelledby={titleId} data-testid="flags-panel">
      <CardHeader titleId={titleId} title={<>Trust</>} subtitle={flagsSummary(flags)} />
      <FlagsList flags={flags} />
    </section>
  );
}
