// "The drive is not answering" in the window: the core's job.notAnswering event shows a banner
// while a test runs, with the silence's length and the file, and it goes when no test runs.
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotAnsweringBanner } from '../../../renderer/src/app/not-answering-banner';
import { setBridgeForTests } from '../../../renderer/src/lib/bridge';
import { createFakeBridge } from '../helpers/fake-bridge';
import { resetStores } from '../helpers/reset-stores';

describe('the not-answering banner', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('says the drive is not answering while the test runs, and goes when it has ended', () => {
    const fake = createFakeBridge();
    setBridgeForTests(fake.bridge);
    const { rerender } = render(<NotAnsweringBanner running />);
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => fake.emitNotAnswering({ jobId: 'j1', seconds: 5, path: '/mnt/share/.diskdial-x/testfile.dat' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'The drive is not answering: no data has moved for 5 s (/mnt/share/.diskdial-x/testfile.dat). Stop ends the test without waiting for it.',
    );
    rerender(<NotAnsweringBanner running={false} />);
    expect(screen.queryByRole('alert')).toBeNull();
    // A later test starts without the old notice.
    rerender(<NotAnsweringBanner running />);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
