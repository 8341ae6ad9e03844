// Routes the bridge's wizard events into the store for as long as the screen is mounted.
import { useEffect } from 'react';
import { getBridge } from '../../lib/bridge';
import { useWizardStore } from './store';

export function useWizardEvents(): void {
  useEffect(() => {
    const bridge = getBridge();
    const { onProgress, onFormat, onDone } = useWizardStore.getState();
    const offs = [bridge.onWizardProgress(onProgress), bridge.onWizardFormat(onFormat), bridge.onWizardDone(onDone)];
    return () => {
      for (const off of offs) off();
    };
  }, []);
}
