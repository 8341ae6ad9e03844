// The Detailed screen: every kind's panel (the CrystalDiskMark grid, the sustained-write curve,
// the many-file scatter, …), one above the other in the kinds' map's order, each with its own
// settings and Start, under a row of jump links that stays at the top while the page scrolls
// (eight panels make a page several screens long; the running test's link says so). A panel
// another screen asks for (lib/navigation.ts) is brought into view the same way. One test runs
// at a time (across this screen and the Quick Test): the app passes in why Start is locked when
// the Quick Test is running, and this screen locks the other panels while one of its own runs.
import { useEffect, useRef } from 'react';
import type { DetailedKind } from '@model/settings';
import { useNavigationStore, type PanelRequest } from '../../lib/navigation';
import { DETAILED_KIND_IDS, DETAILED_KINDS } from './kinds/index';
import { KindSlot } from './panel';
import { selectRunningKind, useDetailedStore } from './store';
import { useDetailedEvents } from './use-detailed-events';

/** Brings a panel to the top, below the sticky links, and its heading into focus for keyboards. */
function jumpTo(kind: DetailedKind): void {
  const panel = document.getElementById(`detailed-${kind}`);
  if (!panel) return;
  panel.scrollIntoView?.({ block: 'start' });
  const heading = panel.querySelector<HTMLElement>('h2');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
}

/** A panel asked for from another screen, brought into view once it is laid out; each request once. */
function usePanelRequest(): void {
  const asked = useNavigationStore((s) => s.panel);
  const taken = useRef<PanelRequest | null>(null);
  useEffect(() => {
    if (!asked || taken.current === asked) return;
    taken.current = asked;
    const kind = DETAILED_KIND_IDS.find((k) => k === asked.kind);
    // The screen may have been hidden a moment ago: scroll once it is laid out.
    if (kind) requestAnimationFrame(() => jumpTo(kind));
  }, [asked]);
}

function JumpLinks() {
  const running = useDetailedStore(selectRunningKind);
  return (
    <nav className="detailed-jump" aria-label="Detailed tests" data-testid="detailed-jump">
      {DETAILED_KIND_IDS.map((kind) => (
        <a
          key={kind}
          href={`#detailed-${kind}`}
          className={`detailed-jump__link${running === kind ? ' detailed-jump__link--running' : ''}`}
          data-testid={`jump-${kind}`}
          onClick={(e) => {
            e.preventDefault();
            jumpTo(kind);
          }}
        >
          {DETAILED_KINDS[kind].label}
          {/* A dot on the link's corner, not a word beside it: a wider link wrapped the row at
              1024 px and moved the page when a test started. */}
          {running === kind && (
            <span className="detailed-jump__running">
              <span className="sr-only"> · running</span>
            </span>
          )}
        </a>
      ))}
    </nav>
  );
}

export interface DetailedScreenProps {
  /** Why no detailed test can start now for a reason outside this screen (a Quick Test is running). */
  lockedReason?: string | undefined;
}

export function DetailedScreen({ lockedReason }: DetailedScreenProps = {}) {
  useDetailedEvents();
  usePanelRequest();
  return (
    <div className="detailed">
      <JumpLinks />
      {DETAILED_KIND_IDS.map((kind) => (
        <KindSlot key={kind} kind={kind} lockedReason={lockedReason} />
      ))}
    </div>
  );
}
