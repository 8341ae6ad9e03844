// Ground truth for the frame-paced video test, free: `diskdial run <dir> --test video --format
// prores-hq-uhd-2997 --seconds 10` (the issue's command was 30 s: 10 s proves the same in a third
// of the CI time) on a real ext4 on a loop device, its image in RAM (test/helpers/video-run.ts).
// The throttled half is video-paced-throttled.test.ts. Root only: loop devices and mount need it.
//
// Unthrottled the device keeps up with ProRes 422 HQ UHD 29.97 fps (~111 MB/s): every one of the
// 300 frames each way is on time, and the verdict is ✓. (On a machine loaded far past its cores —
// a load of 17 on 2 — the loop device's kernel worker can be starved past a 33 ms frame, and the
// engine rightly counts such a frame late.) Under `stress-ng --cpu 2` and a fio job
// (scripts/test-loaded.sh) 2 of 10 runs had one late frame, and with two more test jobs on the
// machine all of 10 had 17–84: a true ✗ of a busy machine. So this file runs alone (`SOLO`).
import { describe, expect, it } from 'vitest';
import { rootOnly } from '../../helpers/loopfs.js';
import { FORMAT, FRAMES, runVideo, useVideoVolume } from '../../helpers/video-run.js';

describe.runIf(rootOnly())('the paced video test on a loop-mounted ext4, free', () => {
  const vol = useVideoVolume();

  it('unthrottled: ✓, every frame on time both ways at the format’s rate', () => {
    const r = runVideo(vol.fs.dir, vol.home);
    expect(r.stderr).toBe('');
    const v = r.doc!.video!;
    expect(v.id).toBe(FORMAT);
    expect(v.frames).toBe(FRAMES);
    const [run] = v.runs;
    for (const p of [run!.write, run!.read]) {
      expect(p.frames).toBe(FRAMES);
      expect(p.late).toBe(0);
      expect(p.dropped).toBe(0);
      expect(p.cacheMode).toBe('direct');
      expect(p.maxMs).toBeLessThan(v.budgetMs);
      // Paced: the sustained rate is the format's, not the device's.
      expect(p.mbps).toBeGreaterThan(v.dataRateMBps * 0.95);
      expect(p.mbps).toBeLessThan(v.dataRateMBps * 1.05);
      expect(p.timeline).toBe('.'.repeat(FRAMES));
      expect(p.ok).toBe(true);
      expect(p.verdict).toMatch(/^✓ 300 frames, none late; worst \d+(\.\d)? ms of a 33 ms budget$/);
    }
    expect(v.ok).toBe(true);
    expect(v.verdict).toMatch(/^ProRes 422 HQ UHD 29\.97 fps: ✓ /);
    console.log(
      `unthrottled: write ${run!.write.verdict}, p99 ${run!.write.p99Ms.toFixed(1)} ms, ${run!.write.mbps.toFixed(1)} MB/s; read ${run!.read.verdict}, p99 ${run!.read.p99Ms.toFixed(1)} ms, ${run!.read.mbps.toFixed(1)} MB/s`,
    );
  }, 240_000);
});
