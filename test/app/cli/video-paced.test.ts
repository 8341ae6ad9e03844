// Ground truth for the frame-paced video test, free: `diskdial run <dir> --test video --format
// prores-hq-uhd-2997 --seconds 10` (the issue's command was 30 s: 10 s proves the same in a third
// of the CI time) on a real ext4 on a loop device, its image in RAM (test/helpers/video-run.ts).
// The throttled half is video-paced-throttled.test.ts. Root only: loop devices and mount need it.
//
// Unthrottled the device keeps up with ProRes 422 HQ UHD 29.97 fps (~111 MB/s): no frame of the
// 300 each way is late through the drive's fault, and the verdict is ✓. The machine itself may
// stand still (CI's VM once did for long enough to make 2 frames late while running alone): the
// engine's pause watch counts such frames as the computer's (hostLate), and the verdict says so.
// On a machine loaded far past its cores the loop device's kernel worker can be starved while
// the process itself runs, which the watch cannot see; so this file runs alone (`SOLO`).
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
      // Late only while the computer itself stood still, never through the drive.
      expect(p.late - p.hostLate!).toBe(0);
      expect(p.dropped).toBe(0);
      expect(p.cacheMode).toBe('direct');
      // A frame's time may hold the computer's own pause, nothing more.
      expect(p.maxMs).toBeLessThan(v.budgetMs + p.longestPauseMs!);
      // Paced: the sustained rate is the format's, not the device's.
      expect(p.mbps).toBeGreaterThan(v.dataRateMBps * 0.95);
      expect(p.mbps).toBeLessThan(v.dataRateMBps * 1.05);
      expect(p.timeline).toMatch(new RegExp(`^[.L]{${FRAMES}}$`));
      expect(p.timeline.split('L').length - 1).toBe(p.late);
      expect(p.ok).toBe(true);
      expect(p.verdict).toMatch(
        p.late === 0
          ? /^✓ 300 frames, none late; worst \d+(\.\d)? ms of a 33 ms budget$/
          : /^✓ 300 frames, none dropped; \d+ frames? late \(worst \d+(\.\d)? ms\) while this computer itself paused for up to \d+(\.\d)? ms, not the drive, absorbed by the 4-frame buffer$/,
      );
    }
    expect(v.ok).toBe(true);
    expect(v.verdict).toMatch(/^ProRes 422 HQ UHD 29\.97 fps: ✓ /);
    console.log(
      `unthrottled (longest pause of the machine: write ${run!.write.longestPauseMs} ms, read ${run!.read.longestPauseMs} ms): write ${run!.write.verdict}, p99 ${run!.write.p99Ms.toFixed(1)} ms, ${run!.write.mbps.toFixed(1)} MB/s; read ${run!.read.verdict}, p99 ${run!.read.p99Ms.toFixed(1)} ms, ${run!.read.mbps.toFixed(1)} MB/s`,
    );
  }, 240_000);
});
