// The Detailed screen: every kind's panel (the CrystalDiskMark grid, the sustained-write curve,
// the many-file scatter, …), one above the other in the kinds' map's order, each with its own
// settings and Start. One test runs at a time (across this screen and the Quick Test): the app
// passes in why Start is locked when the Quick Test is running, and this screen locks the other
// panels while one of its own runs.
import { DETAILED_KIND_IDS } from './kinds/index';
import { KindSlot } from './panel';
import { useDetailedEvents } from './use-detailed-events';

export interface DetailedScreenProps {
  /** Why no detailed test can start now for a reason outside this screen (a Quick Test is running). */
  lockedReason?: string | undefined;
}

export function DetailedScreen({ lockedReason }: DetailedScreenProps = {}) {
  useDetailedEvents();
  return (
    <div className="detailed">
      {DETAILED_KIND_IDS.map((kind) => (
        <KindSlot key={kind} kind={kind} lockedReason={lockedReason} />
      ))}
    </div>
  );
}
