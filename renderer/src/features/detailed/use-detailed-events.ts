// Routes the bridge's detailed-test events into the store for as long as the screen is mounted.
import { useEffect } from 'react';
import { getBridge } from '../../lib/bridge';
import { useDetailedStore } from './store';

export function useDetailedEvents(): void {
  useEffect(() => {
    const bridge = getBridge();
    const { onPlan, onProgress, onStep, onDone } = useDetailedStore.getState();
    const offs = [
      bridge.onDetailedPlan(onPlan),
      bridge.onDetailedProgress(onProgress),
      bridge.onDetailedStep(onStep),
      bridge.onDetailedDone(onDone),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, []);
}
