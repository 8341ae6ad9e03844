// Test helpers: reset every renderer store and unmount what a test rendered (vitest runs
// without globals, so testing-library's auto-cleanup is not registered).
import { cleanup } from '@testing-library/react';
import { useDetailedStore } from '../../../renderer/src/features/detailed/store';
import { useHashStore } from '../../../renderer/src/features/hash/store';
import { useCheckStore } from '../../../renderer/src/features/hash/check-store';
import { useHistoryStore } from '../../../renderer/src/features/history/store';
import { useQuickTestStore } from '../../../renderer/src/features/quick-test/store';
import { useTargetsStore } from '../../../renderer/src/lib/targets-store';
import { useWizardStore } from '../../../renderer/src/features/wizard/store';
import { useCampaignStore } from '../../../renderer/src/features/campaign/store';
import { setBridgeForTests } from '../../../renderer/src/lib/bridge';
import { useNavigationStore } from '../../../renderer/src/lib/navigation';

export function resetStores(): void {
  cleanup();
  useQuickTestStore.getState().reset();
  useDetailedStore.getState().reset();
  useHashStore.getState().reset();
  useCheckStore.getState().reset();
  useHistoryStore.getState().reset();
  useTargetsStore.getState().reset();
  useWizardStore.getState().reset();
  useCampaignStore.getState().reset();
  useNavigationStore.getState().reset();
  setBridgeForTests(null);
}

/** A requestAnimationFrame the test drives: `flush(n, ms)` runs n frames, ms apart. */
export function controllableRaf() {
  let queue: Array<{ id: number; cb: FrameRequestCallback }> = [];
  let id = 0;
  let now = 1000;
  const raf = (cb: FrameRequestCallback): number => {
    queue.push({ id: ++id, cb });
    return id;
  };
  const caf = (h: number): void => {
    queue = queue.filter((q) => q.id !== h);
  };
  return {
    install() {
      window.requestAnimationFrame = raf;
      window.cancelAnimationFrame = caf;
    },
    flush(frames: number, ms = 16.7) {
      for (let i = 0; i < frames; i++) {
        now += ms;
        const run = queue;
        queue = [];
        for (const q of run) q.cb(now);
      }
    },
    get pending() {
      return queue.length;
    },
  };
}
