// The paced verdict overrides the average-based one: a Quick Test's Will-it-work row for a format,
// resolution and rate that a frame-paced test checked on the same drive shows that test's ✓/✗
// both ways and says so; the newest such test wins; another drive's test, or another format's,
// changes nothing. With the engine's real documents (test/fixtures/results): the video one wrote
// ProRes 422 Proxy HD 25 fps with 2 late frames and read it back with none.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { PACED_METHOD, videoVerdicts } from '../../../../app/src/model/video/will-it-work.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const fixture = (kind: string): ResultDocument =>
  JSON.parse(readFileSync(path.join(root, 'test/fixtures/results', `${kind}.json`), 'utf8')) as ResultDocument;

/** The quick fixture at 500 MB/s both ways: ProRes Proxy HD is ✓ by the average. */
function quick(): ResultDocument {
  const doc = fixture('quick');
  for (const t of doc.tests) t.mbps = 500;
  return doc;
}

/** The video fixture run on `target`, at `startedAt`. */
function paced(target: ResultDocument['target'], startedAt: string, id = 'paced-1'): ResultDocument {
  return { ...fixture('video'), id, target, startedAt };
}

const row = (v: ReturnType<typeof videoVerdicts>, format: string, res: string) =>
  v!.rows.find((r) => r.formatId === format && r.resolutionId === res)!;

describe('the paced verdict overrides the average-based one', () => {
  it('on the same drive: the row takes the paced ✓/✗ both ways, and says it was frame-paced, with the date', () => {
    const q = quick();
    const before = row(videoVerdicts(q, { fps: 25 }), 'prores-proxy', 'hd');
    expect([before.write.ok, before.read.ok, before.paced]).toEqual([true, true, undefined]);
    const v = videoVerdicts(q, { fps: 25 }, [paced(q.target, '2026-11-26T16:59:00.000Z')]);
    const r = row(v, 'prores-proxy', 'hd');
    expect(r.write.ok).toBe(false);
    expect(r.read.ok).toBe(true);
    expect(r.write.maxFps).toBe(before.write.maxFps);
    expect(r.paced).toEqual({
      resultId: 'paced-1',
      date: '2026-11-26',
      verdict: 'ProRes 422 Proxy HD 25 fps: ✗ write 2 of 50 frames late, first at 1.1 s',
      note: 'frame-paced test, 2026-11-26',
    });
    expect(v!.pacedMethod).toBe(PACED_METHOD);
    expect(v!.decidedBy).toBe('average');
    // Only that row: UHD of the same format, and other formats, keep the average's verdict.
    expect(row(v, 'prores-proxy', 'uhd').paced).toBeUndefined();
    expect(v!.rows.filter((x) => x.paced)).toHaveLength(1);
  });

  it('the newest paced test of a format wins', () => {
    const q = quick();
    const older = paced(q.target, '2026-11-20T10:00:00.000Z', 'old');
    const newer = paced(q.target, '2026-11-25T10:00:00.000Z', 'new');
    newer.video = { ...newer.video!, runs: newer.video!.runs.map((r) => ({ ...r, write: { ...r.write, ok: true } })) };
    for (const order of [
      [older, newer],
      [newer, older],
    ]) {
      const r = row(videoVerdicts(q, { fps: 25 }, order), 'prores-proxy', 'hd');
      expect(r.paced?.resultId).toBe('new');
      expect(r.write.ok).toBe(true);
    }
  });

  it('changes nothing for another drive, another rate, or a result that is not a paced test', () => {
    const q = quick();
    const other = paced({ ...q.target, path: '/media/other', mountPoint: '/media/other' }, '2026-11-26T16:59:00.000Z');
    expect(videoVerdicts(q, { fps: 25 }, [other])).toEqual(videoVerdicts(q, { fps: 25 }));
    expect(videoVerdicts(q, { fps: 29.97 }, [paced(q.target, '2026-11-26T16:59:00.000Z')])).toEqual(videoVerdicts(q, { fps: 29.97 }));
    expect(videoVerdicts(q, { fps: 25 }, [{ ...q, id: 'another-quick' }])).toEqual(videoVerdicts(q, { fps: 25 }));
  });
});
