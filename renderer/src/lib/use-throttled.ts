// A value that follows its source at most once per interval (the latest value, trailing), for
// views that need not redraw at the rate their data changes: a chart of the last minutes redrawn
// on every progress event kept a slow machine's main thread busy (npm run bench:ui).
import { useEffect, useRef, useState } from 'react';

export function useThrottled<T>(value: T, intervalMs: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    // Mounting is not a redraw: the first change after it shows at once.
    if (Object.is(value, shown)) return;
    const wait = last.current + intervalMs - Date.now();
    if (wait <= 0) {
      last.current = Date.now();
      setShown(value);
      return;
    }
    const timer = setTimeout(() => {
      last.current = Date.now();
      setShown(value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, shown, intervalMs]);
  return shown;
}
