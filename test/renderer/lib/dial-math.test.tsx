// The dial's arithmetic: needle angle from value, scale choice, ticks, the spring.
import { describe, expect, it } from 'vitest';
import {
  chooseScale,
  initialScale,
  labelAngle,
  polar,
  SCALE_LADDER,
  springStep,
  tickLabel,
  tickValues,
  valueToAngle,
} from '../../../renderer/src/lib/dial-math';

describe('valueToAngle', () => {
  it('maps 0, half and full scale onto a 270° sweep', () => {
    expect(valueToAngle(0, 1000)).toBe(-135);
    expect(valueToAngle(500, 1000)).toBe(0);
    expect(valueToAngle(1000, 1000)).toBe(135);
    expect(valueToAngle(250, 1000)).toBeCloseTo(-67.5);
  });
  it('clamps above full scale and below zero, and survives junk', () => {
    expect(valueToAngle(5000, 1000)).toBe(135);
    expect(valueToAngle(-10, 1000)).toBe(-135);
    expect(valueToAngle(Number.NaN, 1000)).toBe(-135);
    expect(valueToAngle(100, 0)).toBe(-135);
  });
  it('is linear in between: 1234 of 2000 is 61.7 % of the 270° sweep', () => {
    expect(valueToAngle(1234, 2000)).toBeCloseTo(-135 + (1234 / 2000) * 270);
  });
});

describe('chooseScale', () => {
  it('picks the smallest ladder step holding the peak with 10 % headroom', () => {
    expect(chooseScale(0)).toBe(100);
    expect(chooseScale(80)).toBe(100);
    expect(chooseScale(95)).toBe(250); // 104.5 with headroom
    expect(chooseScale(430)).toBe(500);
    expect(chooseScale(1036)).toBe(3000);
    expect(chooseScale(2800)).toBe(8000);
    expect(chooseScale(7000)).toBe(8000);
    expect(chooseScale(10_000)).toBe(16000);
  });
  it('goes past the ladder in steps of 8000', () => {
    expect(chooseScale(20_000)).toBe(24000);
    expect(SCALE_LADDER.at(-1)).toBe(16000);
  });
  it('never shrinks below the current scale', () => {
    expect(chooseScale(50, 3000)).toBe(3000);
    expect(chooseScale(3000, 3000)).toBe(8000);
  });
});

describe('the scale while a test runs', () => {
  // A figure rising from 0 to its top, as progress events bring it.
  const rise = (top: number, from = 1000): number[] => {
    const scales = [from];
    for (let v = 0; v <= top; v += top / 200) {
      const s = chooseScale(v, scales.at(-1)!);
      if (s !== scales.at(-1)) scales.push(s);
    }
    return scales;
  };

  it('moves at most twice from the default for a drive up to 7.2 GB/s (three times up to 14 GB/s), never shrinking, holding the top', () => {
    expect(rise(2212)).toEqual([1000, 3000]);
    expect(rise(7000)).toEqual([1000, 3000, 8000]);
    for (let top = 50; top <= 14_000; top += 50) {
      const scales = rise(top);
      expect(scales.length, `${top} MB/s: ${scales.join(' → ')}`).toBeLessThanOrEqual(top <= 7200 ? 3 : 4);
      expect(scales.at(-1)!).toBeGreaterThanOrEqual(top);
      for (let i = 1; i < scales.length; i++) expect(scales[i]!).toBeGreaterThan(scales[i - 1]!);
    }
  });
});

describe('ticks', () => {
  it('puts labelled ticks at round steps, at most 6 intervals, including 0 and full scale', () => {
    expect(tickValues(1000).major).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(tickValues(2000).major).toEqual([0, 500, 1000, 1500, 2000]);
    expect(tickValues(250).major).toEqual([0, 50, 100, 150, 200, 250]);
    expect(tickValues(12000).major).toEqual([0, 2000, 4000, 6000, 8000, 10000, 12000]);
    for (const max of SCALE_LADDER) {
      const { major, minor } = tickValues(max);
      expect(major[0]).toBe(0);
      expect(major.at(-1)).toBe(max);
      expect(major.length - 1).toBeLessThanOrEqual(6);
      expect(minor.every((m) => !major.includes(m))).toBe(true);
    }
  });
  it('labels every scale in one style: the plain MB/s figure', () => {
    for (const max of SCALE_LADDER) for (const v of tickValues(max).major) expect(tickLabel(v)).toBe(String(v));
    expect(tickLabel(8000)).toBe('8000');
  });
});

describe('springStep', () => {
  it('moves toward the target without overshoot and settles', () => {
    let s = { x: 0, v: 0 };
    let last = 0;
    for (let i = 0; i < 120; i++) {
      s = springStep(s.x, s.v, 100, 9, 1 / 60);
      expect(s.x).toBeGreaterThanOrEqual(last - 1e-9);
      expect(s.x).toBeLessThanOrEqual(100 + 1e-9);
      last = s.x;
    }
    expect(s.x).toBeCloseTo(100, 1);
  });
  it('never jumps: one frame moves a small part of the way', () => {
    const s = springStep(0, 0, 270, 9, 1 / 60);
    expect(s.x).toBeGreaterThan(0);
    expect(s.x).toBeLessThan(10);
  });
});

describe('what the dial shows before and at rest', () => {
  it('starts from what is known with headroom, else the default range', () => {
    expect(initialScale(0)).toBe(1000);
    expect(initialScale(Number.NaN)).toBe(1000);
    expect(initialScale(1212)).toBe(3000);
    expect(initialScale(550)).toBe(1000);
    expect(initialScale(80)).toBe(100);
  });

  it('keeps the "0" label clear of the needle at rest (at least 12 units from its line)', () => {
    for (const max of SCALE_LADDER) {
      // The needle at rest: a line from the centre (120,120) along the start angle.
      const a = valueToAngle(0, max);
      const dir = polar(0, 0, 1, a);
      const label = polar(120, 120, 68, labelAngle(0, max));
      const vx = label.x - 120;
      const vy = label.y - 120;
      const distance = Math.abs(vx * dir.y - vy * dir.x);
      expect(distance).toBeGreaterThanOrEqual(12);
      // Every other label stays on its tick.
      expect(labelAngle(max, max)).toBe(valueToAngle(max, max));
    }
  });
});
