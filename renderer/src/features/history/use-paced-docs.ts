// The saved frame-paced video results, fetched when a view shows a Quick Test's "Will it work?":
// one launched from that result decides rows, others of its drive are dated lines
// (model/kinds/video/will-it-work.ts).
import { useEffect, useMemo } from 'react';
import type { ResultDocument } from '@model/result';
import { kindOf } from '@model/kinds/registry';
import { useHistoryStore } from './store';

export function usePacedDocs(wanted: boolean): ResultDocument[] {
  const entries = useHistoryStore((s) => s.listing?.entries);
  const docs = useHistoryStore((s) => s.docs);
  const fetchDoc = useHistoryStore((s) => s.fetchDoc);
  const ids = useMemo(() => (wanted ? (entries ?? []).filter((e) => kindOf(e.kind)?.paced).map((e) => e.id) : []), [entries, wanted]);
  useEffect(() => {
    for (const id of ids) void fetchDoc(id);
  }, [ids, fetchDoc]);
  return useMemo(() => ids.flatMap((id) => (docs[id]?.state === 'ok' ? [(docs[id] as { doc: ResultDocument }).doc] : [])), [ids, docs]);
}
