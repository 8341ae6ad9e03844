// Links as the core classifies them, for tests of the interface ceiling and the result schema.
import type { LinkInfo } from '../../app/src/model/link-types.js';

/** USB 3.2 Gen 2 as sysfs reports it: 10 Gb/s raw, 1,212 MB/s after 128b/132b. */
export const USB32G2: LinkInfo = {
  kind: 'usb',
  label: 'USB 3.2 Gen 2 (10 Gb/s)',
  rawMbps: 10000,
  encoding: '128b/132b',
  ceilingMBps: 1212,
  typicalMBps: [900, 1050],
  source: 'sysfs',
};
