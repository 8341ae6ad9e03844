// Routes the bridge's Quick Test events into the store for as long as the screen is mounted.
import { useEffect } from 'react';
import { getBridge } from '../../lib/bridge';
import { useQuickTestStore } from './store';

export function useQuickEvents(): void {
  useEffect(() => {
    const bridge = getBridge();
    const { onProgress, onCycle, onDone } = useQuickTestStore.getState();
    const offs = [bridge.onQuickProgress((e) => onProgress(e)), bridge.onQuickCycle(onCycle), bridge.onQuickDone(onDone)];
    return () => {
      for (const off of offs) off();
    };
  }, []);
}
