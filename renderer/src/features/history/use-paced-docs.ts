// The saved frame-paced video results, fetched when a view shows a Quick Test's "Will it work?":
// one launched from that result decides rows, others of its drive are dated lines
// (model/kinds/video/will-it-work.ts).
import { useEffect, useMemo } from 'react';
import type { ResultDocument } from '@model/result';
import { useHistoryStore } from './store';

export function usePacedDocs(wanted: boolean): ResultDocument[] {
  const paced = useHistoryStore((s) => s.paced);
  const loadPaced = useHistoryStore((s) => s.loadPaced);
  const docs = useHistoryStore((s) => s.docs);
  const fetchDoc = useHistoryStore((s) => s.fetchDoc);
  const ids = useMemo(() => (wanted ? (paced ?? []) : []), [paced, wanted]);
  useEffect(() => {
    if (wanted && !paced) void loadPaced();
  }, [wanted, paced, loadPaced]);
  useEffect(() => {
    for (const id of ids) void fetchDoc(id);
  }, [ids, fetchDoc]);
  return useMemo(() => ids.flatMap((id) => (docs[id]?.state === 'ok' ? [(docs[id] as { doc: ResultDocument }).doc] : [])), [ids, docs]);
}
