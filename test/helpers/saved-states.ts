// A sound saved campaign and a sound saved wizard plan, as DiskDial writes them: the bases the
// hostile-file tests change one thing of (test/app/model/hostile-saved-files.test.ts) or mutate
// ten thousand ways (test/app/core/reader-fuzz.test.ts).

export const SAVED_ID = '0123456789abcdef0123456789abcdef';
const RESULT_ID = 'b141b8d5-239f-4ff4-8683-3befc5aaaaa9';
const AT = '2026-11-28T00:00:00.000Z';

export const soundCampaign = {
  schema: 1,
  id: SAVED_ID,
  createdAt: AT,
  updatedAt: AT,
  status: 'stopped',
  target: '/mnt/nas',
  setups: [
    { key: 'setup-1', name: 'GigE' },
    { key: 'setup-2', name: 'Wi-Fi' },
  ],
  kinds: ['quick', 'sweep'],
  runArgs: ['--runs', '1'],
  steps: [
    { setup: 0, kind: 'quick', resultId: RESULT_ID },
    { setup: 0, kind: 'sweep' },
    { setup: 1, kind: 'quick' },
    { setup: 1, kind: 'sweep' },
  ],
  reason: 'Stopped before Wi-Fi.',
};

export const soundPlan = {
  schema: 1,
  id: SAVED_ID,
  createdAt: AT,
  updatedAt: AT,
  settings: {
    device: '/dev/loop7',
    identity: { path: '/dev/loop7', sizeBytes: 2 ** 30, backingFile: '/var/tmp/disk.img', backingInode: { ino: 12, dev: '254:0' } },
    confirmName: 'loop7',
    formats: ['ext4', 'xfs'],
    plan: 'quick',
    sizes: [64 * 2 ** 20],
    runs: 1,
    restSeconds: 0,
    finalFormat: 'ext4',
  },
  steps: [
    { format: 'ext4', label: 'ext4', status: 'done', resultIds: [RESULT_ID], error: 'mkfs said:\nno' },
    { format: 'xfs', label: 'XFS', status: 'pending', resultIds: [] },
  ],
  final: { format: 'ext4', label: 'ext4', status: 'pending' },
  status: 'stopped',
  ptuuid: { value: '5f0c1f9e-0000-4000-8000-000000000000', written: true },
};
