// Drives a dial's needle toward its target angle on every display frame with a critically
// damped spring: progress arrives a few times a second, the needle glides between updates and
// never jumps. It writes the DOM directly (no React render per frame); with
// prefers-reduced-motion it snaps instead.
import { useEffect, useRef } from 'react';
import { springStep } from '../../lib/dial-math';

/** rad/s: settles in about half a second, quick enough to follow a test's swings. */
const OMEGA = 9;
/** Frame gaps longer than this (a hidden tab) are not integrated as one leap. */
const MAX_DT = 0.1;

export function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

/** Calls `apply(angle)` each frame until the needle rests at `target`. */
export function useNeedle(target: number, apply: (angle: number) => void): void {
  const state = useRef({ x: target, v: 0, last: 0, frame: 0, target });
  const applyRef = useRef(apply);
  applyRef.current = apply;

  // First paint: the needle starts where it should be.
  useEffect(() => {
    applyRef.current(state.current.x);
  }, []);

  useEffect(() => {
    const s = state.current;
    s.target = target;
    if (prefersReducedMotion() || typeof window.requestAnimationFrame !== 'function') {
      s.x = target;
      s.v = 0;
      applyRef.current(target);
      return;
    }
    if (s.frame) return; // already animating; it picks up the new target
    s.last = 0;
    const tick = (now: number): void => {
      const dt = s.last ? Math.min(MAX_DT, Math.max(0, (now - s.last) / 1000)) : 1 / 60;
      s.last = now;
      const next = springStep(s.x, s.v, s.target, OMEGA, dt);
      s.x = next.x;
      s.v = next.v;
      if (Math.abs(s.x - s.target) < 0.02 && Math.abs(s.v) < 0.05) {
        s.x = s.target;
        s.v = 0;
        s.frame = 0;
        applyRef.current(s.x);
        return;
      }
      applyRef.current(s.x);
      s.frame = window.requestAnimationFrame(tick);
    };
    s.frame = window.requestAnimationFrame(tick);
  }, [target]);

  useEffect(
    () => () => {
      const s = state.current;
      if (s.frame) window.cancelAnimationFrame(s.frame);
      s.frame = 0;
    },
    [],
  );
}
