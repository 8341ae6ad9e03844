// The Detailed screen: the CrystalDiskMark grid, the sustained-write curve, the many-file
// scatter, the frame-paced video test, the transfer-size sweep and the small-file test, one above the other, each with its own settings and
// Start ("Check this format" on the Will-it-work table lands on the video panel). One test runs at a time
// (across this screen and the Quick Test): the app passes in why Start is locked when the Quick
// Test is running, and this screen locks the other panels while one of its own runs.
import { useEffect } from 'react';
import { useNavigationStore } from '../../lib/navigation';
import { CdmPanel } from './cdm-panel';
import { FilesPanel } from './files-panel';
import { SmallFilesPanel } from './small-files-panel';
import { SustainedPanel } from './sustained-panel';
import { SweepPanel } from './sweep-panel';
import { useDetailedEvents } from './use-detailed-events';
import { useDetailedStore } from './store';
import { VideoPanel } from './video-panel';

export interface DetailedScreenProps {
  /** Why no detailed test can start now for a reason outside this screen (a Quick Test is running). */
  lockedReason?: string | undefined;
}

export function DetailedScreen({ lockedReason }: DetailedScreenProps = {}) {
  useDetailedEvents();
  const check = useNavigationStore((s) => s.videoCheck);
  const checkVideo = useDetailedStore((s) => s.checkVideo);
  useEffect(() => {
    if (!check) return;
    checkVideo(check);
    // The screen may have been hidden a moment ago: scroll once it is laid out.
    requestAnimationFrame(() => {
      const panel = document.querySelector<HTMLElement>('[data-testid="video-panel"]');
      panel?.scrollIntoView?.({ block: 'start' });
      panel?.querySelector<HTMLElement>('[data-testid="video-format"]')?.focus();
    });
  }, [check, checkVideo]);
  return (
    <main className="detailed">
      <CdmPanel lockedReason={lockedReason} />
      <SustainedPanel lockedReason={lockedReason} />
      <FilesPanel lockedReason={lockedReason} />
      <VideoPanel lockedReason={lockedReason} />
      <SweepPanel lockedReason={lockedReason} />
      <SmallFilesPanel lockedReason={lockedReason} />
    </main>
  );
}
