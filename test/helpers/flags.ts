// Flags as the core raises them, for tests of the trust rule on every side (core and renderer).
import type { ResultFlag } from '../../app/src/model/result.js';

/** A warning: the figures may be the page cache's. */
export const loopCached: ResultFlag = {
  code: 'loop-cached',
  severity: 'warning',
  message: 'The volume is a loop device over a file: the figures can be the cache’s.',
  fix: 'Attach it with direct I/O.',
};

/** Only information: it never turns the badge amber. */
export const cow: ResultFlag = { code: 'copy-on-write', severity: 'info', message: 'Btrfs is copy-on-write.', fix: 'Nothing to fix.' };
