// The bottleneck verdict (model/verdict/bottleneck.ts): its law over generated ceilings — a named
// limit's ceiling is within 15 % of the measured rate, and when it names none no single ceiling
// explains the rate — and the cases the Hash test, the folder check and the encryption verdict meet.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bottleneck,
  bottleneckText,
  BOTTLENECK_TOLERANCE,
  cipherCeiling,
  roomToSpare,
  type Ceiling,
  type Limit,
} from '../../../../app/src/model/verdict/bottleneck.js';
import { hashVerdict } from '../../../../app/src/model/kinds/hash.js';
import { cipherSection } from '../../../helpers/cipher.js';

const LIMITS: readonly Limit[] = ['disk', 'link', 'cipher', 'hash-cpu'];
const rate = fc.double({ min: 0.01, max: 1e5, noNaN: true });
const ceiling: fc.Arbitrary<Ceiling> = fc.record({
  limit: fc.constantFrom(...LIMITS),
  mbps: fc.oneof(rate, fc.constantFrom(0, -1, Number.NaN, Number.POSITIVE_INFINITY)),
  what: fc.constant('a ceiling'),
  includes: fc.option(fc.subarray([...LIMITS]), { nil: undefined }),
});
// Ceilings near the measured rate on purpose: otherwise almost every case would name none.
const near = (m: number): fc.Arbitrary<Ceiling> =>
  fc.record({
    limit: fc.constantFrom(...LIMITS),
    mbps: fc.double({ min: m * 0.7, max: m * 1.3, noNaN: true }),
    what: fc.constant('a near ceiling'),
    includes: fc.option(fc.subarray([...LIMITS]), { nil: undefined }),
  });
const cases = rate.chain((m) => fc.tuple(fc.constant(m), fc.array(fc.oneof(ceiling, near(m)), { maxLength: 6 })));

describe('the bottleneck law', () => {
  it('a named limit is a given ceiling within 15 % of the measured rate; none means no single unexplained one', () => {
    fc.assert(
      fc.property(cases, ([m, ceilings]) => {
        const b = bottleneck({ mbps: m, what: 'measured' }, ceilings);
        const within = ceilings.filter((c) => Number.isFinite(c.mbps) && c.mbps > 0 && Math.abs(c.mbps - m) <= BOTTLENECK_TOLERANCE * m);
        if (b.outcome !== 'none') {
          expect(b.limit).toBeDefined();
          expect(ceilings).toContain(b.limit);
          expect(b.limit!.limit).toBe(b.outcome);
          expect(Math.abs(b.limit!.mbps - m)).toBeLessThanOrEqual(BOTTLENECK_TOLERANCE * m);
          expect(bottleneckText(b)).toMatch(/^(Storage|Link|Encryption|CPU)-bound: /);
        } else {
          expect(b.near.length).not.toBe(1);
          expect(bottleneckText(b)).toMatch(/^No single limit: /);
          // Nothing near at all, or more than one near ceiling no other explains.
          if (within.length === 0) expect(b.near).toEqual([]);
          // A figure near the rate that gave way is said to be near, never "not within 15 %".
          if (within.length > 0) expect(bottleneckText(b)).not.toContain('is not within 15 % of any');
        }
        // Room to spare is the naming edge's other side: a ceiling above the rate, not within
        // 15 % of it, that no figure near the rate gave way to — never a named or near one.
        for (const l of LIMITS) {
          if (!roomToSpare(b, l)) continue;
          const c = b.ceilings.find((x) => x.limit === l)!;
          expect(b.outcome).not.toBe(l);
          expect(b.near).not.toContain(c);
          expect(c.mbps - m).toBeGreaterThan(BOTTLENECK_TOLERANCE * m);
          expect(b.gaveWay.some((g) => g.to.includes(c))).toBe(false);
        }
        // The figures carry every usable ceiling and the measured rate: the claim is checkable.
        expect(b.figures.measuredMBps).toBe(m);
      }),
      { numRuns: 2000 },
    );
  });

  it('scaling every figure by a constant changes no outcome', () => {
    fc.assert(
      fc.property(cases, fc.double({ min: 0.01, max: 100, noNaN: true }), ([m, ceilings], k) => {
        const a = bottleneck({ mbps: m, what: 'm' }, ceilings);
        const b = bottleneck(
          { mbps: m * k, what: 'm' },
          ceilings.map((c) => ({ ...c, mbps: c.mbps * k })),
        );
        // Rounding can move a ceiling across an edge: the 15 % one around the measured rate, or the
        // 30 % one within which a figure that contains another limit gives way to it (the near
        // ceilings' range ends at 0.7 m, so that edge is hit exactly). Away from both the outcome holds.
        const at = (x: number, of: number, edge: number): boolean => Math.abs(Math.abs(x - of) / of - edge) < 1e-9;
        const edge =
          ceilings.some((c) => at(c.mbps, m, BOTTLENECK_TOLERANCE)) ||
          ceilings.some((c) => ceilings.some((o) => o !== c && at(o.mbps, c.mbps, 2 * BOTTLENECK_TOLERANCE)));
        if (!edge) expect(b.outcome).toBe(a.outcome);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the bottleneck in the Hash test', () => {
  const r = (mbps: number) => ({ bytes: 1e9, seconds: 1e9 / mbps / 1e6, mbps });

  it('names the disk when read + hash is at reading alone, hashing when at one core, and no single limit between', () => {
    expect(hashVerdict(r(480), r(470), r(1900), 'sha512')).toMatchObject({ bound: 'storage', claim: { outcome: 'disk' } });
    expect(hashVerdict(r(6500), r(2550), r(2600), 'sha256')).toMatchObject({ bound: 'cpu', claim: { outcome: 'hash-cpu' } });
    expect(hashVerdict(r(2000), r(1000), r(2100), 'sha256')).toMatchObject({ bound: 'none' });
    expect(hashVerdict(r(1000), r(950), r(1050), 'sha256')).toMatchObject({ bound: 'balanced' });
  });

  it('names the link when reading alone is at the link’s ceiling: the read contains the link', () => {
    const v = hashVerdict(r(440), r(430), r(2000), 'sha256', { link: { label: 'USB 3.2 Gen 1 (5 Gb/s)', ceilingMBps: 450 } });
    expect(v).toMatchObject({ bound: 'link', claim: { outcome: 'link', figures: { linkMBps: 450, diskMBps: 440 } } });
    expect(v.text).toBe(
      "Link-bound: read + hash at 430 MB/s is within 5 % of the USB 3.2 Gen 1 (5 Gb/s) link's ceiling (450 MB/s); reading alone 440 MB/s (1.0×), SHA-256 in memory on one core 2,000 MB/s (4.7×).",
    );
  });

  it('on an encrypted folder names the cipher, not "the disk", when the cipher’s ceiling explains the read', () => {
    const cipher = cipherSection(6000, {
      observed: { mbps: 60, perCoreMBps: 52, bytes: 64e6, seconds: 1.1, cpuSeconds: 1.2, idleSeconds: 0.02 },
    });
    const v = hashVerdict(r(58), r(57), r(650), 'sha256', { encrypted: true, cipher });
    expect(v).toMatchObject({ bound: 'cipher', claim: { outcome: 'cipher', figures: { cipherMBps: 60 } } });
    expect(v.text).toMatch(/^Encryption-bound: read \+ hash at 57\.0 MB\/s is within 5 % of the kernel's decryption, software AES/);
    // The same figures on an unencrypted folder: reading alone is the disk.
    expect(hashVerdict(r(58), r(57), r(650), 'sha256')).toMatchObject({ bound: 'storage' });
    // A software kernel cipher without a kernel rate never borrows the library's AES-NI rate, and
    // reading alone, which contains that unmeasured cipher, is then never called the disk.
    const unmeasured = { ...cipher, kernel: { ...cipher.kernel!, observed: undefined } };
    expect(cipherCeiling(unmeasured)).toBeUndefined();
    expect(hashVerdict(r(58), r(57), r(650), 'sha256', { encrypted: true, cipher: unmeasured })).toMatchObject({ bound: 'none' });
    // Nor when the cipher's ceiling is near reading alone (within 30 %) though not near read + hash.
    const near = { ...cipher, kernel: { ...cipher.kernel!, observed: { ...cipher.kernel!.observed!, mbps: 75 } } };
    expect(hashVerdict(r(65), r(62), r(650), 'sha256', { encrypted: true, cipher: near })).toMatchObject({ bound: 'none' });
    // A cipher far faster than the read leaves the disk named.
    const fast = { ...cipher, kernel: { ...cipher.kernel!, observed: { ...cipher.kernel!.observed!, mbps: 3000 } } };
    expect(hashVerdict(r(65), r(62), r(650), 'sha256', { encrypted: true, cipher: fast })).toMatchObject({ bound: 'storage' });
  });
});
