// Routes the bridge's Quick Test events into the store for as long as the screen is mounted, and
// the end of a paced test launched from its result.
// Progress is queued and applied at most once per display frame: each store update re-renders
// the dials, and rendering per event (~20 a second) starved a loaded machine's main thread.
import { useEffect } from 'react';

import { getBridge } from '../../lib/bridge';
import { useQuickTestStore } from './store';
import type { QuickProgressEvent } from '@model/events';

/** Without a display (a hidden page throttles frames to nothing), still apply within this long. */
export const PROGRESS_MAX_WAIT_MS = 250;

export function useQuickEvents(): void {
  useEffect(() => {
    const bridge = getBridge();
    const store = useQuickTestStore.getState();
    let queue: Array<readonly [QuickProgressEvent, number]> = [];
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = (): void => {
      if (frame) cancelAnimationFrame(frame);
      clearTimeout(timer);
      frame = 0;
      timer = undefined;
      if (queue.length === 0) return;
      const events = queue;
      queue = [];
      store.onProgressBatch(events);
    };
    const onProgress = (e: QuickProgressEvent): void => {
      queue.push([e, Date.now()]);
      if (timer !== undefined) return;
      timer = setTimeout(flush, PROGRESS_MAX_WAIT_MS);
      if (typeof requestAnimationFrame === 'function') frame = requestAnimationFrame(flush);
    };
    // A cycle or the end lands after the progress that preceded it.
    const offs = [
      bridge.onQuickProgress(onProgress),
      bridge.onQuickCycle((e) => (flush(), store.onCycle(e))),
      bridge.onQuickDone((e) => (flush(), store.onDone(e))),
      // A paced test launched from this result ("Check this format") decides its rows here too.
      bridge.onDetailedDone((e) => store.onPaced(e.result)),
    ];
    return () => {
      for (const off of offs) off();
      flush();
    };
  }, []);
}
