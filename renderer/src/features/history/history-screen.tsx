// The History screen: every finished test, saved with its full context. The list (filter,
// rename, import, delete, pick results to compare), one result in full, or a comparison — one at
// a time. The list is read again each time the screen is shown: tests finish on other screens.
import { useEffect } from 'react';
import { CompareView } from './compare-view';
import { HistoryList } from './history-list';
import { ResultView } from './result-view';
import { useHistoryStore } from './store';

export interface HistoryScreenProps {
  /** True while the screen is the one shown. */
  active?: boolean;
  /** History runs no test: nothing locks it. Accepted so the app can treat every screen alike. */
  lockedReason?: string | undefined;
}

export function HistoryScreen({ active = true }: HistoryScreenProps) {
  const view = useHistoryStore((s) => s.view);
  const load = useHistoryStore((s) => s.load);

  useEffect(() => {
    if (active) void load();
  }, [active, load]);

  return (
    <div className="history">
      {view.kind === 'result' ? <ResultView id={view.id} /> : view.kind === 'compare' ? <CompareView ids={view.ids} /> : <HistoryList />}
    </div>
  );
}
