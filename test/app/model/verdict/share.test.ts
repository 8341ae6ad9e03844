// The share verdicts (model/verdict/share.ts): each outcome at and around its boundaries, the
// laws every verdict keeps (scaling every figure changes nothing; a verdict's words state its own
// figures), and the words of the examples.
import { describe, expect, it } from 'vitest';
import {
  shareChange,
  shareChangeText,
  shareText,
  shareVerdict,
  smallFileText,
  smallFileVerdict,
  type ShareFigures,
} from '../../../../app/src/model/verdict/share.js';
import { mulberry32 } from '../../../helpers/prng.js';

type Measured = Omit<ShareFigures, 'ceilingMBps'>;
const fig = (o: Partial<Measured>): Measured => ({
  cacheFirstMBps: 112,
  cacheMBps: 112,
  diskWriteMBps: 60,
  diskReadMBps: 58,
  linkCeilingMBps: 0,
  linkMbps: 0,
  ...o,
});
const GBE = { linkCeilingMBps: 118.7, linkMbps: 1000 };
const eth = { name: 'eth0', wireless: false };

describe('the large-transfer verdict', () => {
  it("server-bound when the cold read is more than 15 % below the server's memory, with both figures", () => {
    const v = shareVerdict(fig(GBE), eth);
    expect(v.outcome).toBe('server-bound');
    expect(shareText(v)).toBe(
      "Server-bound: the server's disk gives 58.0 MB/s read cold (written at 60.0 MB/s, flushed to the server); the link carried 112 MB/s from the server's memory.",
    );
    // The boundary: 0.85 × 100 = 85.
    expect(shareVerdict(fig({ cacheFirstMBps: 100, cacheMBps: 100, diskReadMBps: 84.9 })).outcome).toBe('server-bound');
    expect(shareVerdict(fig({ cacheFirstMBps: 100, cacheMBps: 100, diskReadMBps: 85 })).outcome).toBe('link-bound');
  });

  it('link-bound when the disk keeps up and the ceiling is 70 % of the known link or more, naming the share of it', () => {
    const v = shareVerdict(fig({ ...GBE, diskReadMBps: 110 }), eth);
    expect(v.outcome).toBe('link-bound');
    expect(shareText(v)).toBe(
      "Link-bound: 112 MB/s from the server's memory = 94 % of the 1 Gbit/s link (119 MB/s of payload); its disk keeps up (110 MB/s read cold).",
    );
    // The boundary: 0.7 × 118.7 = 83.09.
    expect(shareVerdict(fig({ ...GBE, cacheFirstMBps: 83.1, cacheMBps: 83.1, diskReadMBps: 83 })).outcome).toBe('link-bound');
    expect(shareVerdict(fig({ ...GBE, cacheFirstMBps: 83, cacheMBps: 83, diskReadMBps: 83 })).outcome).toBe('protocol-bound');
  });

  it('protocol-bound when the disk keeps up but the ceiling is under 70 % of the known link', () => {
    const v = shareVerdict(fig({ ...GBE, cacheFirstMBps: 40, cacheMBps: 42, diskReadMBps: 40 }), eth);
    expect(v.outcome).toBe('protocol-bound');
    expect(shareText(v)).toMatch(/^Protocol-bound: 41\.0 MB\/s from the server's memory is only 35 % of the 1 Gbit\/s link/);
  });

  it('link-bound and inferred on a link of unknown rate (a veth, loopback)', () => {
    const v = shareVerdict(fig({ cacheFirstMBps: 11.8, cacheMBps: 11.9, diskReadMBps: 11.7 }));
    expect(v.outcome).toBe('link-bound');
    expect(shareText(v)).toMatch(/the ceiling is inferred/);
  });

  it('could not separate: two reads that disagree, a cold read faster than the cache, a missing figure', () => {
    const split = shareVerdict(fig({ cacheFirstMBps: 100, cacheMBps: 70, diskReadMBps: 65 }));
    expect(split.outcome).toBe('could-not-separate');
    expect(shareText(split)).toBe(
      "Could not separate: the two reads from the server's memory (100 MB/s, then 70.0 MB/s) disagree about what limits the share (the cold read gave 65.0 MB/s).",
    );
    // Reads 17 % apart that agree (a busy machine's noise): the verdict holds, on their mean.
    const agree = shareVerdict(fig({ cacheFirstMBps: 310, cacheMBps: 256, diskReadMBps: 18 }));
    expect(agree.outcome).toBe('server-bound');
    expect(agree.figures.ceilingMBps).toBe(283);
    expect(shareVerdict(fig({ cacheFirstMBps: 100, cacheMBps: 85, diskReadMBps: 72 })).outcome).toBe('server-bound');
    expect(shareVerdict(fig({ cacheFirstMBps: 50, cacheMBps: 50, diskReadMBps: 57.6 })).outcome).toBe('could-not-separate');
    expect(shareVerdict(fig({ cacheFirstMBps: 50, cacheMBps: 50, diskReadMBps: 57.4 })).outcome).toBe('link-bound');
    expect(shareVerdict(fig({ diskReadMBps: 0 })).outcome).toBe('could-not-separate');
    expect(shareVerdict(fig({ cacheMBps: Number.NaN })).reason).toBe('a read was not measured');
  });

  it("takes the first read as the ceiling when this computer's cache answered the second (more than 4 × the first)", () => {
    const v = shareVerdict(fig({ cacheFirstMBps: 155, cacheMBps: 1020, diskReadMBps: 19.7 }));
    expect(v.figures.ceilingMBps).toBe(155);
    expect(v.outcome).toBe('server-bound');
    expect(shareText(v)).toMatch(
      /the link carried 155 MB\/s from the server's memory\. \(The second read, 1,020 MB\/s, came from this computer's own cache/,
    );
    // Under 4 ×: both reads crossed the link, and their mean is the ceiling.
    expect(shareVerdict(fig({ cacheFirstMBps: 100, cacheMBps: 400, diskReadMBps: 245 })).figures.ceilingMBps).toBe(250);
  });

  it('does not change when every rate is scaled (3,000 seeded cases)', () => {
    const rnd = mulberry32(34);
    for (let i = 0; i < 3000; i++) {
      const f = {
        cacheFirstMBps: 1 + rnd() * 1000,
        cacheMBps: 1 + rnd() * 1000,
        diskWriteMBps: rnd() * 1000,
        diskReadMBps: 1 + rnd() * 1000,
        linkCeilingMBps: rnd() < 0.5 ? 0 : 1 + rnd() * 1000,
        linkMbps: 1000,
      };
      const k = 2 ** Math.floor(rnd() * 8 - 4);
      const scaled = { ...f, cacheFirstMBps: f.cacheFirstMBps * k, cacheMBps: f.cacheMBps * k, diskWriteMBps: f.diskWriteMBps * k };
      Object.assign(scaled, { diskReadMBps: f.diskReadMBps * k, linkCeilingMBps: f.linkCeilingMBps * k });
      expect(shareVerdict(scaled).outcome, JSON.stringify({ f, k })).toBe(shareVerdict(f).outcome);
    }
  });

  it('never says server-bound when the cold read keeps up, nor link- or protocol-bound when it does not', () => {
    const rnd = mulberry32(35);
    for (let i = 0; i < 3000; i++) {
      const f = fig({
        cacheFirstMBps: 10 + rnd() * 100,
        cacheMBps: 10 + rnd() * 100,
        diskReadMBps: 10 + rnd() * 100,
        ...(rnd() < 0.5 ? GBE : {}),
      });
      const v = shareVerdict(f);
      const c = v.figures.ceilingMBps;
      if (v.outcome === 'server-bound') expect(f.diskReadMBps).toBeLessThan(0.85 * c);
      if (v.outcome === 'link-bound' || v.outcome === 'protocol-bound') expect(f.diskReadMBps).toBeGreaterThanOrEqual(0.85 * c);
    }
  });
});

describe('the small-file verdict', () => {
  it('protocol-bound when one round trip an operation is a quarter of the time or more, naming the round trip', () => {
    const v = smallFileVerdict({ fileMs: 1.2, ops: 4, rttMs: 0.4, rttMeasured: 1 });
    expect(v.outcome).toBe('protocol-bound');
    expect(v.figures.roundTrips).toBeCloseTo(3, 9);
    expect(smallFileText(v)).toBe(
      'Protocol-bound: small files take 3.0 round trips each (1.20 ms at a 0.400 ms round trip to the server): the round trip sets their speed.',
    );
    // The boundary: 4 × 0.25 = 1.0 = a quarter of 4.0.
    expect(smallFileVerdict({ fileMs: 4, ops: 4, rttMs: 0.25, rttMeasured: 1 }).outcome).toBe('protocol-bound');
    expect(smallFileVerdict({ fileMs: 4.01, ops: 4, rttMs: 0.25, rttMeasured: 1 }).outcome).toBe('processing-bound');
  });

  it('processing-bound when the time is far above its round trips, or the round trip too short to time', () => {
    expect(smallFileText(smallFileVerdict({ fileMs: 5, ops: 4, rttMs: 0.1, rttMeasured: 1 }))).toBe(
      "Processing-bound: a small file takes 5.00 ms, 50 times the 0.100 ms round trip: the server's or this computer's work per operation, not the round trip, sets their speed.",
    );
    const zero = smallFileVerdict({ fileMs: 0.4, ops: 4, rttMs: 0, rttMeasured: 1 });
    expect(zero.outcome).toBe('processing-bound');
    expect(smallFileText(zero)).toMatch(/too short to time here/);
  });

  it('could not separate without a round trip or without the files', () => {
    expect(smallFileVerdict({ fileMs: 1, ops: 4, rttMs: 0, rttMeasured: 0 }).outcome).toBe('could-not-separate');
    expect(smallFileVerdict({ fileMs: 0, ops: 4, rttMs: 1, rttMeasured: 1 }).outcome).toBe('could-not-separate');
  });

  it('does not change when every time is scaled', () => {
    const rnd = mulberry32(36);
    for (let i = 0; i < 2000; i++) {
      const f = { fileMs: 0.01 + rnd() * 100, ops: 4, rttMs: 0.01 + rnd() * 50, rttMeasured: 1 };
      const k = 2 ** Math.floor(rnd() * 8 - 4);
      expect(smallFileVerdict({ ...f, fileMs: f.fileMs * k, rttMs: f.rttMs * k }).outcome).toBe(smallFileVerdict(f).outcome);
    }
  });
});

describe('what changed between two setups', () => {
  const v = (o: Partial<Measured>, rttMs = 0.3) => ({
    bulk: shareVerdict(fig(o)),
    files: smallFileVerdict({ fileMs: 1.5, ops: 4, rttMs, rttMeasured: 1 }),
  });
  const gige = v({ ...GBE, cacheFirstMBps: 112, cacheMBps: 112, diskReadMBps: 58 });

  it('names the link when the read from the memory moved and the disk was hidden under it', () => {
    const wifi = v({ cacheFirstMBps: 38, cacheMBps: 38, diskReadMBps: 37 }, 2.1);
    const c = shareChange(gige, wifi);
    expect(c.parts).toEqual(['link', 'round-trip']);
    expect(c.outcome).toBe('several');
    expect(shareChangeText(c, 'GigE', 'Wi-Fi')).toBe(
      "From GigE to Wi-Fi the link and the round trip changed: 112 MB/s → 38.0 MB/s from the server's memory; the server's disk 58.0 MB/s → 37.0 MB/s read cold; round trip 0.300 ms → 2.10 ms.",
    );
    expect(shareChange(gige, v({ cacheFirstMBps: 38, cacheMBps: 38, diskReadMBps: 37 })).outcome).toBe('link');
  });

  it('does not call two LAN round trips within the connect timing’s resolution a change (0.137 → 0.000 ms in CI)', () => {
    const lan = v({ ...GBE, cacheFirstMBps: 180, cacheMBps: 180, diskReadMBps: 156 }, 0.137);
    const fast = v({ cacheFirstMBps: 12, cacheMBps: 12, diskReadMBps: 11.9 }, 0);
    expect(shareChange(lan, fast).parts).toEqual(['link']);
  });

  it("names the server's disk when both setups were server-bound and the cold read moved, or the verdict flipped on one link", () => {
    expect(shareChange(gige, v({ ...GBE, diskReadMBps: 20 })).outcome).toBe('server-disk');
    expect(shareChange(gige, v({ ...GBE, diskReadMBps: 110 })).outcome).toBe('server-disk');
    expect(shareChange(gige, v({ ...GBE, diskReadMBps: 60 })).outcome).toBe('none');
    expect(shareChangeText(shareChange(gige, gige), 'A', 'B')).toMatch(/^From A to B no part of the path changed by more than 15 %/);
  });
});
