// Keeps a popover inside the window: after it opens (and on every resize while open) it is
// shifted sideways by as much as it sticks out, so a menu anchored to a control near an edge
// (the header wraps at narrow widths) never opens off-screen.
import { useLayoutEffect, type RefObject } from 'react';

/** Clear space kept to the window's edges, px. */
export const EDGE = 8;

/** How far to move a box spanning [left, right] sideways to fit a window `width` wide. */
export function shiftIntoView(left: number, right: number, width: number): number {
  if (right - left > width - 2 * EDGE) return EDGE - left; // wider than the window: pin its left edge
  if (left < EDGE) return EDGE - left;
  if (right > width - EDGE) return width - EDGE - right;
  return 0;
}

export function useKeepInWindow(ref: RefObject<HTMLElement | null>, open: boolean): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!open || !el) return;
    const place = (): void => {
      el.style.translate = '';
      const r = el.getBoundingClientRect();
      const dx = shiftIntoView(r.left, r.right, document.documentElement.clientWidth);
      el.style.translate = dx ? `${Math.round(dx)}px 0` : '';
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [ref, open]);
}
