import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findMount, parseMountinfo, unescapeMountField, volumeInfo } from '../../../app/src/core/volume.js';

const SAMPLE = [
  '27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard',
  '40 27 8:17 / /media/me/My\\040Disk rw,nosuid,nodev - exfat /dev/sdb1 rw,uid=1000',
  '41 27 0:45 / /mnt/pool rw,noatime shared:12 master:3 - btrfs /dev/loop3 rw,ssd,space_cache=v2',
  '42 41 0:46 / /mnt/pool/sub rw - tmpfs tmpfs rw',
  '43 27 0:47 / /mnt/pool2 rw - tmpfs tmpfs rw',
  'garbage line',
].join('\n');

describe('mountinfo', () => {
  it('parses fields, optional tags and escaped spaces', () => {
    const entries = parseMountinfo(SAMPLE);
    expect(entries).toHaveLength(5);
    expect(entries[1]).toMatchObject({
      devNumber: '8:17',
      mountPoint: '/media/me/My Disk',
      fsType: 'exfat',
      source: '/dev/sdb1',
      mountOptions: ['rw', 'nosuid', 'nodev'],
      superOptions: ['rw', 'uid=1000'],
    });
    expect(entries[2]).toMatchObject({ fsType: 'btrfs', source: '/dev/loop3', mountOptions: ['rw', 'noatime'] });
    expect(unescapeMountField('a\\011b\\134c')).toBe('a\tb\\c');
  });

  it('matches the longest mount point on path boundaries', () => {
    const entries = parseMountinfo(SAMPLE);
    expect(findMount(entries, '/media/me/My Disk/Videos')?.fsType).toBe('exfat');
    expect(findMount(entries, '/mnt/pool/sub/x')?.fsType).toBe('tmpfs');
    expect(findMount(entries, '/mnt/pool/a')?.fsType).toBe('btrfs');
    // /mnt/pool2 is not under /mnt/pool.
    expect(findMount(entries, '/mnt/pool2')?.mountId).toBe(43);
    expect(findMount(entries, '/home')?.fsType).toBe('ext4');
  });

  it('picks the mount on top when two share a mount point', () => {
    const entries = parseMountinfo(`${SAMPLE}\n50 40 7:9 / /media/me/My\\040Disk rw - xfs /dev/loop9 rw`);
    expect(findMount(entries, '/media/me/My Disk/a')?.fsType).toBe('xfs');
  });
});

describe('volumeInfo', () => {
  it('describes / from the real mount table and sysfs', async () => {
    const v = await volumeInfo('/');
    const mount = (await fsp.readFile('/proc/self/mountinfo', 'utf8')).split('\n').find((l) => l.split(' ')[4] === '/');
    const fsType = mount!.split(' - ')[1]!.split(' ')[0];
    expect(v.mountPoint).toBe('/');
    expect(v.fsType).toBe(fsType);
    expect(v.device).toBe(mount!.split(' - ')[1]!.split(' ')[1]);
    expect(v.mountOptions).toContain('rw');
    const st = await fsp.statfs('/');
    expect(v.totalBytes).toBe(st.blocks * st.bsize);
    expect(v.freeBytes).toBeGreaterThan(0);
    // The root disk of these machines is a real block device with a sysfs entry.
    expect(v.devNumber).toMatch(/^\d+:\d+$/);
    // The disk, or the disk holding the partition.
    const sysName = path.basename(await fsp.realpath(`/sys/dev/block/${v.devNumber}`));
    expect(sysName.startsWith(v.disk!.name)).toBe(true);
    expect(v.disk?.bus).not.toBe('unknown');
    expect(typeof v.disk?.rotational).toBe('boolean');
    expect(v.disk?.sizeBytes).toBeGreaterThanOrEqual(v.totalBytes);
  });

  it('resolves a folder inside the root file system to the same volume', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-vol-'));
    try {
      const [a, b] = await Promise.all([volumeInfo(dir), volumeInfo('/')]);
      const st = await fsp.stat(dir);
      const rootSt = await fsp.stat('/');
      if (st.dev === rootSt.dev) expect(a.mountPoint).toBe('/');
      else expect(a.mountPoint).not.toBe('/');
      expect(a.realPath).toBe(await fsp.realpath(dir));
      expect(b.path).toBe('/');
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });

  it('handles virtual file systems without a block device', async () => {
    const v = await volumeInfo('/proc/self');
    expect(v.fsType).toBe('proc');
    expect(v.mountPoint).toBe('/proc');
    expect(v.disk).toBeUndefined();
    const s = await volumeInfo('/sys/kernel');
    expect(s.fsType).toBe('sysfs');
    expect(s.disk).toBeUndefined();
  });

  it('rejects a path that does not exist', async () => {
    await expect(volumeInfo('/no/such/path/here')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
