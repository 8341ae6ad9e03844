// The Detailed screen: the CrystalDiskMark grid, the sustained-write curve and the many-file
// scatter, one above the other, each with its own settings and Start. One test runs at a time
// (across this screen and the Quick Test): the app passes in why Start is locked when the Quick
// Test is running, and this screen locks the other panels while one of its own runs.
import { CdmPanel } from './cdm-panel';
import { FilesPanel } from './files-panel';
import { SustainedPanel } from './sustained-panel';
import { useDetailedEvents } from './use-detailed-events';

export interface DetailedScreenProps {
  /** Why no detailed test can start now for a reason outside this screen (a Quick Test is running). */
  lockedReason?: string | undefined;
}

export function DetailedScreen({ lockedReason }: DetailedScreenProps = {}) {
  useDetailedEvents();
  return (
    <main className="detailed">
      <CdmPanel lockedReason={lockedReason} />
      <SustainedPanel lockedReason={lockedReason} />
      <FilesPanel lockedReason={lockedReason} />
    </main>
  );
}
