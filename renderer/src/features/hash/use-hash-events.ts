// Routes the bridge's hash-test events into the store for as long as the screen is mounted.
import { useEffect } from 'react';
import { getBridge } from '../../lib/bridge';
import { useHashStore } from './store';

export function useHashEvents(): void {
  useEffect(() => {
    const bridge = getBridge();
    const { onProgress, onStage, onDone } = useHashStore.getState();
    const offs = [bridge.onHashProgress(onProgress), bridge.onHashStage(onStage), bridge.onHashDone(onDone)];
    return () => {
      for (const off of offs) off();
    };
  }, []);
}
