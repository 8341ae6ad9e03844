// What History knows of a target before a test runs: the newest saved result of a kind on the same
// folder or volume; of the Quick Test, its highest figure, so the dials can start on a scale that
// fits it.
// Shared here (not imported from the history feature) because features never import each other.
import type { DiskDialBridge } from '@ipc/contract';
import type { HistoryEntry, TargetInfo } from '@model/history';
import { getBridge } from './bridge';

export type SavedResult = Extract<Awaited<ReturnType<DiskDialBridge['getResult']>>, { ok: true }>['value'];

/** Documents read at most per lookup, and of those whose row does not name the target's volume:
 *  the listing is newest first, so the match is near the top. */
const MAX_READS = 10;
const MAX_UNNAMED_READS = 5;
/** Rows asked for at a time, and looked at in all: a page, not a thousand rows at once (a
 *  thousand rows were half a megabyte the server sent while History's first page waited). */
const PAGE_ROWS = 100;
const MAX_ROWS = 1000;

/** The highest rate a test reached: its samples' peak, at least its average (a run too short
 *  for a sample still has one). Peak and average thus come from the same samples. */
export function testPeak(test: { mbps: number; series?: ReadonlyArray<{ mbps: number }> } | undefined): number {
  if (!test) return 0;
  let peak = Number.isFinite(test.mbps) ? test.mbps : 0;
  for (const p of test.series ?? []) if (Number.isFinite(p.mbps) && p.mbps > peak) peak = p.mbps;
  return peak;
}

/** A row whose volume names this target's (a result lists its volume by label, else mount point).
 *  Others may still be on it (a folder typed on a labelled volume is named after the folder). */
const namesIt = (e: HistoryEntry, t: Pick<TargetInfo, 'name' | 'mountPoint'>): boolean => e.volume === t.mountPoint || e.volume === t.name;

/** The same target: the same folder, or another folder on the same mounted volume (same disk). */
const isOn = (doc: SavedResult, t: Pick<TargetInfo, 'path' | 'mountPoint'>): boolean =>
  doc.target.path === t.path || (doc.target.mountPoint !== 'unknown' && doc.target.mountPoint === t.mountPoint);

/** The newest saved result of `kind` on `target` (the same folder, or the same mounted volume),
 *  or undefined when History has none. Throws when the connection is lost. */
export async function newestResultOn(
  target: Pick<TargetInfo, 'path' | 'name' | 'mountPoint'>,
  kind: string,
): Promise<SavedResult | undefined> {
  const bridge = getBridge();
  // One kind only, newest first, a page at a time: the rows are only looked at, and the
  // documents read stop within the first few.
  let reads = 0;
  let unnamed = 0;
  for (let offset = 0; offset < MAX_ROWS; offset += PAGE_ROWS) {
    const list = await bridge.listHistory({ kind, limit: PAGE_ROWS, offset });
    if (!list.ok) return undefined;
    for (const entry of list.value.entries) {
      if (entry.kind !== kind) continue;
      if (!namesIt(entry, target) && ++unnamed > MAX_UNNAMED_READS) continue;
      if (++reads > MAX_READS) return undefined;
      const r = await bridge.getResult(entry.id);
      if (r.ok && isOn(r.value, target)) return r.value;
    }
    if (offset + PAGE_ROWS >= list.value.total) break;
  }
  return undefined;
}

/** The peak MB/s of the newest saved Quick Test on `target`, or 0 when History has none (or
 *  cannot be read: the scale then starts from the link alone, as before). */
export async function lastResultPeak(target: Pick<TargetInfo, 'path' | 'name' | 'mountPoint'>): Promise<number> {
  try {
    const doc = await newestResultOn(target, 'quick');
    if (doc) return Math.max(0, ...doc.tests.map(testPeak));
  } catch {
    // A lost connection: nothing is known, which is no error for a starting scale.
  }
  return 0;
}
