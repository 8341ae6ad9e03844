// Start on every Detailed panel follows the core's fit rule: a test that cannot fit on the target
// is not offered, the reason says what it needs and what it keeps free and why, CrystalDiskMark
// is offered the largest of its sizes that fits, and the sized tests say what they keep free.
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MiB } from '../../../../renderer/src/features/detailed/form-rules';
import { longestFittingSeconds, videoForm } from '../../../../renderer/src/features/detailed/kinds/video-form';
import { useDetailedStore } from '../../../../renderer/src/features/detailed/store';
import { renderDetailed } from '../../helpers/detailed-fixtures';
import { createFakeBridge, target } from '../../helpers/fake-bridge';
import { resetStores } from '../../helpers/reset-stores';

const disabled = (id: string) => screen.getByTestId(id).matches(':disabled');

describe('Detailed panels: tests that cannot fit', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('52.7 MB free: every Start is disabled with the reason; CrystalDiskMark is offered 32 MiB and then starts', async () => {
    const fake = createFakeBridge([target({ freeBytes: 52.7e6, totalBytes: 1.1e9 })]);
    const { user } = await renderDetailed(fake);
    expect(disabled('cdm-start')).toBe(true);
    expect(screen.getByTestId('cdm-status').textContent).toBe(
      "Not enough free space: this test needs 1 GiB and keeps 16 MiB free for the file system's own bookkeeping and other programs writing meanwhile; 50.3 MiB is free. The largest that fits is 32 MiB.",
    );
    expect(disabled('sustained-start')).toBe(true);
    expect(screen.getByTestId('sustained-status').textContent).toMatch(
      /^Not enough free space: this test needs at least 67.1 MB and keeps 537 MB free so the system and other apps keep working \(5 % of the volume, at least 537 MB\); 52.7 MB is free\./,
    );
    expect(disabled('files-start')).toBe(true);
    expect(screen.getByTestId('files-status').textContent).toMatch(/keeps 537 MB free so the system and other apps keep working/);

    await user.click(screen.getByTestId('cdm-fit-offer'));
    expect((screen.getByTestId('cdm-size') as HTMLSelectElement).value).toBe(String(32 * MiB));
    expect(disabled('cdm-start')).toBe(false);
    await user.click(screen.getByTestId('cdm-start'));
    expect(fake.calls.detailedStart[0]).toMatchObject({ kind: 'cdm', sizeBytes: 32 * MiB });
  });

  it('the video test, chosen by duration, says the longest duration that fits and offers it; one second more would not fit', async () => {
    const free = { freeBytes: 1.12e9, totalBytes: 2e9 };
    const fake = createFakeBridge([target(free)]);
    const { user } = await renderDetailed(fake);
    await user.click(screen.getByTestId('video-seconds-600'));
    expect(disabled('video-start')).toBe(true);
    const status = screen.getByTestId('video-status').textContent!;
    expect(status).toMatch(
      /^Not enough free space: 10 min of this format writes [\d.]+ GB; 1\.12 GB is free and the test keeps 16\.8 MB free .*\. The longest that fits is \d+ s\.$/,
    );
    expect(status).not.toMatch(/largest that fits/);
    const longest = Number(/The longest that fits is (\d+) s/.exec(status)![1]);
    // The boundary: the offered duration fits, one second more does not (the core's one fit rule).
    const form = { ...useDetailedStore.getState().forms.video };
    expect(videoForm.fit('video', { ...form, seconds: longest }, free).fits).toBe(true);
    expect(videoForm.fit('video', { ...form, seconds: longest + 1 }, free).fits).toBe(false);
    expect(longestFittingSeconds(form, free)).toBe(longest);
    expect(screen.getByTestId('video-fit-offer').textContent).toBe(`Use ${longest} s`);
    await user.click(screen.getByTestId('video-fit-offer'));
    expect(screen.getByTestId(`video-seconds-${longest}`).getAttribute('aria-checked')).toBe('true');
    expect(disabled('video-start')).toBe(false);
    await user.click(screen.getByTestId('video-start'));
    expect(fake.calls.detailedStart[0]).toMatchObject({ kind: 'video', seconds: longest });
  });

  it('with room, the sized tests say how much they keep free and why', async () => {
    await renderDetailed();
    expect(disabled('sustained-start')).toBe(false);
    expect(screen.getByTestId('sustained-fit').textContent).toBe(
      'Writes at most what is free and keeps 50 GB free so the system and other apps keep working (5 % of the volume, at least 537 MB).',
    );
    expect(screen.getByTestId('files-fit').textContent).toMatch(/keeps 50 GB free/);
  });
});
