// Routes the bridge's campaign events into the store for as long as the screen is mounted.
import { useEffect } from 'react';
import { getBridge } from '../../lib/bridge';
import { useCampaignStore } from './store';

export function useCampaignEvents(): void {
  useEffect(() => {
    const bridge = getBridge();
    const { onWaiting, onProgress, onDone } = useCampaignStore.getState();
    const offs = [bridge.onCampaignWaiting(onWaiting), bridge.onCampaignProgress(onProgress), bridge.onCampaignDone(onDone)];
    return () => {
      for (const off of offs) off();
    };
  }, []);
}
