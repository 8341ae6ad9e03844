// The throttle helper is the ground truth of every throttled test: it must name the right device
// and find a cgroup v2 io controller where v1 blkio is missing (a default Debian 12).
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { majorMinor } from '../../../app/src/core/volume.js';
import { cgroup2Mounts } from '../../helpers/blkio.js';

describe('the throttle helper', () => {
  it('names a device as the kernel does, minors past 255 included', () => {
    // Linux's encoding: minor's low byte, major << 8, minor's high bits << 12.
    expect(majorMinor(BigInt((300 & 0xff) | (7 << 8) | ((300 & ~0xff) << 12)))).toBe('7:300');
    expect(majorMinor(BigInt((5 & 0xff) | (259 << 8)))).toBe('259:5');
    const s = spawnSync('stat', ['-c', '%t:%T', '/dev/null'], { encoding: 'utf8' });
    const [maj, min] = s.stdout
      .trim()
      .split(':')
      .map((h) => parseInt(h, 16));
    expect(majorMinor(statSync('/dev/null', { bigint: true }).rdev)).toBe(`${maj}:${min}`);
  });

  it('finds cgroup2 mounts in mountinfo, hybrid or unified', () => {
    const hybrid = [
      '30 25 0:26 / /sys/fs/cgroup rw,nosuid - tmpfs tmpfs ro,mode=755',
      '31 30 0:27 / /sys/fs/cgroup/unified rw,nosuid shared:10 - cgroup2 cgroup2 rw,nsdelegate',
      '37 30 0:33 / /sys/fs/cgroup/blkio rw,nosuid shared:16 - cgroup cgroup rw,blkio',
    ].join('\n');
    expect(cgroup2Mounts(hybrid)).toEqual(['/sys/fs/cgroup/unified']);
    expect(cgroup2Mounts('29 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n')).toEqual([
      '/sys/fs/cgroup',
    ]);
    expect(cgroup2Mounts('37 30 0:33 / /sys/fs/cgroup/blkio rw - cgroup cgroup rw,blkio\n')).toEqual([]);
  });
});
