// Before a test, the dials' scale comes from what is known of the target: its link's ceiling
// and, from History, its newest saved Quick Test. Asked once per target, when it is chosen.
import { useEffect } from 'react';
import type { TargetInfo } from '@model/history';
import { lastResultPeak } from '../../lib/last-result';
import { useQuickTestStore } from './store';

export function useLastResult(target: TargetInfo | null | undefined): void {
  const path = target?.path;
  const name = target?.name;
  const mountPoint = target?.mountPoint;
  const known = useQuickTestStore((s) => path !== undefined && path in s.lastByTarget);
  useEffect(() => {
    if (path === undefined || name === undefined || mountPoint === undefined || known) return;
    let current = true;
    void lastResultPeak({ path, name, mountPoint }).then((mbps) => {
      if (current) useQuickTestStore.getState().learn(path, mbps);
    });
    return () => {
      current = false;
    };
  }, [path, name, mountPoint, known]);
}
