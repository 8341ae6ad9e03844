// The Dial component: the needle glides to the value over animation frames, never jumps, and
// the peak mark sits at the peak's angle.
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Dial } from '../../../renderer/src/components/dial/dial';
import { controllableRaf, resetStores } from '../helpers/reset-stores';

const angleOf = (el: Element): number => Number(el.getAttribute('data-angle'));
const rotateOf = (el: Element): number => Number(/rotate\(([-\d.]+)/.exec(el.getAttribute('transform') ?? '')![1]);

describe('Dial', () => {
  const raf = controllableRaf();
  const saved = { raf: window.requestAnimationFrame, caf: window.cancelAnimationFrame };
  beforeEach(() => {
    resetStores();
    raf.install();
  });
  afterEach(() => {
    resetStores(); // unmount while the fake rAF is still installed
    window.requestAnimationFrame = saved.raf;
    window.cancelAnimationFrame = saved.caf;
  });

  it('starts at zero, then eases toward the value frame by frame and settles on it', () => {
    const { rerender } = render(<Dial label="WRITE" variant="write" value={0} peak={0} max={1000} />);
    const needle = screen.getByTestId('needle-write');
    expect(angleOf(needle)).toBe(-135);

    rerender(<Dial label="WRITE" variant="write" value={500} peak={500} max={1000} />);
    raf.flush(1);
    const first = angleOf(needle);
    expect(first).toBeGreaterThan(-135);
    expect(first).toBeLessThan(-120); // no jump: one frame is a small step

    let prev = first;
    for (let i = 0; i < 10; i++) {
      raf.flush(1);
      expect(angleOf(needle)).toBeGreaterThanOrEqual(prev);
      prev = angleOf(needle);
    }
    raf.flush(120);
    expect(angleOf(needle)).toBe(0); // 500 of 1000 = straight up
    expect(rotateOf(needle)).toBe(0);
    expect(raf.pending).toBe(0); // at rest it stops asking for frames
    expect(screen.getByTestId('value-write').textContent).toBe('500');
  });

  it('keeps running at display rate while the value keeps changing', () => {
    const { rerender } = render(<Dial label="READ" variant="read" value={0} peak={0} max={2000} />);
    rerender(<Dial label="READ" variant="read" value={1800} peak={1800} max={2000} />);
    raf.flush(5);
    rerender(<Dial label="READ" variant="read" value={1000} peak={1800} max={2000} />);
    expect(raf.pending).toBe(1); // one loop, not one per update
    raf.flush(200);
    expect(angleOf(screen.getByTestId('needle-read'))).toBeCloseTo(0, 1);
  });

  it('clamps above full scale and draws the peak mark at the peak', () => {
    render(<Dial label="READ" variant="read" value={3000} peak={1500} max={2000} />);
    raf.flush(200);
    expect(angleOf(screen.getByTestId('needle-read'))).toBe(135);
    expect(angleOf(screen.getByTestId('peak-read'))).toBeCloseTo(67.5);
  });

  it('draws the scale labels for its full scale and hides the peak mark at zero', () => {
    const { container } = render(<Dial label="WRITE" variant="write" value={0} peak={0} max={2000} />);
    const labels = [...container.querySelectorAll('.dial__tick-label')].map((t) => t.textContent);
    expect(labels).toEqual(['0', '500', '1000', '1500', '2000']);
    expect(screen.queryByTestId('peak-write')).toBeNull();
    expect(screen.getByRole('img', { name: /WRITE: 0 megabytes per second/ })).toBeTruthy();
  });

  it('snaps with prefers-reduced-motion', () => {
    const mm = window.matchMedia;
    window.matchMedia = ((q: string) => ({ matches: q.includes('reduce'), media: q })) as unknown as typeof window.matchMedia;
    try {
      const { rerender } = render(<Dial label="WRITE" variant="write" value={0} peak={0} max={1000} />);
      rerender(<Dial label="WRITE" variant="write" value={1000} peak={1000} max={1000} />);
      expect(angleOf(screen.getByTestId('needle-write'))).toBe(135);
      expect(raf.pending).toBe(0);
    } finally {
      window.matchMedia = mm;
    }
  });

  it('glows without an SVG filter, and its arc and glow follow the needle together', () => {
    // A blur filter on the gliding needle and arc was re-rasterised every frame: 47–51 fps
    // against 55–58 without it in the same quiet minutes (npm run bench:ui, docs/benchmarks.md).
    const { container, rerender } = render(<Dial label="READ" variant="read" value={0} peak={0} max={1000} />);
    expect(container.querySelectorAll('filter, [filter]')).toHaveLength(0);
    rerender(<Dial label="READ" variant="read" value={500} peak={500} max={1000} />);
    raf.flush(60);
    const arc = container.querySelector('.dial__arc')!.getAttribute('stroke-dasharray');
    expect(arc).toMatch(/^13\d(\.\d+)? 400$/); // half of the 270° sweep
    expect(container.querySelector('.dial__arc-halo')!.getAttribute('stroke-dasharray')).toBe(arc);
  });
});
