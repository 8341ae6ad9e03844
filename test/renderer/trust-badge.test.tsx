// The badge follows the one trust rule on every screen: green only when no warning flag fired
// (direct I/O and random data are not enough), amber naming the flag when one did; a hash
// verdict the figures contradict is withheld with the reason, and "evenly matched" is not said
// beside a bound verdict.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResultFlag } from '@model/result';
import { waitLine } from '../../renderer/src/features/hash/hash-model';
import { CacheBadge } from '../../renderer/src/features/quick-test/cache-badge';

const loopCached: ResultFlag = {
  code: 'loop-cached',
  severity: 'warning',
  message: 'The volume is a loop device: the figures can be the cache’s.',
  fix: 'Use direct I/O.',
};
const cow: ResultFlag = { code: 'copy-on-write', severity: 'info', message: 'Btrfs is copy-on-write.', fix: 'Nothing to fix.' };

describe('the cache badge follows the trust rule', () => {
  afterEach(cleanup);
  it('direct I/O with a warning flag is amber and names the flag (was: green "the figures are the disk’s")', () => {
    render(<CacheBadge cacheMode="direct" dataPattern="random" notes={[loopCached.message]} flags={[loopCached]} />);
    const badge = screen.getByTestId('cache-badge');
    expect(badge.className).toContain('badge--warn');
    expect(badge.textContent).toContain('direct I/O · random data · loop device over the page cache');
    expect(badge.getAttribute('title')).toContain(loopCached.message);
    expect(badge.getAttribute('title')).not.toContain('the figures are the disk’s');
  });

  it('only info flags: green', () => {
    render(<CacheBadge cacheMode="direct" dataPattern="random" notes={[]} flags={[cow]} />);
    expect(screen.getByTestId('cache-badge').className).toContain('badge--ok');
  });
});

describe('hash wait line', () => {
  const r = { readerWaitSeconds: 0.01, hasherWaitSeconds: 0.01, seconds: 2 } as Parameters<typeof waitLine>[0];
  it('says "evenly matched" only when the verdict is balanced', () => {
    expect(waitLine(r, 'balanced')).toMatch(/evenly matched/);
    expect(waitLine(r, 'storage')).toBe('Reader and hasher hardly waited for each other (0.0 s and 0.0 s).');
  });
});
