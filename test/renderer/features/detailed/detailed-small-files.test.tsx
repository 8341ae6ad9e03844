// The small-file panel: the preset, file count, file size and runs Start sends; after the run,
// files/s, ms per file (p50/p99), the payload MB/s, each operation's p50/p99/max and the sentence
// saying what is measured. The document is a real one (test/fixtures/results/small-files.json:
// 300 files of 16 KiB on this machine's virtio disk).
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResultDocument } from '@model/result';
import { DetailedSettings } from '@model/settings';
import smallJson from '../../../fixtures/results/small-files.json';
import { JOB, renderDetailed } from '../../helpers/detailed-fixtures';
import { retype } from '../../helpers/dom';
import { resetStores } from '../../helpers/reset-stores';

const smallDoc = (): ResultDocument => JSON.parse(JSON.stringify(smallJson)) as ResultDocument;
const panel = () => screen.getByTestId('small-files-panel');
const count = () => within(panel()).getByTestId('small-files-count') as HTMLInputElement;

describe('Small-file panel', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('Start sends the preset, file count, file size and runs the controls show', async () => {
    const { fake, user } = await renderDetailed();
    expect(count().value).toBe('1000');
    // The NAS preset fills in its set; the fields then change it.
    await user.click(within(panel()).getByTestId('small-files-preset-nas'));
    expect(count().value).toBe('25600');
    await retype(user, 'small-files-count', '500');
    await user.click(within(panel()).getByTestId(`small-files-size-${64 * 1024}`));
    await retype(user, 'small-files-runs', '2');
    await user.click(screen.getByTestId('small-files-start'));
    const sent = { kind: 'small-files', target: '/media/t7', preset: 'nas', count: 500, fileBytes: 65536, runs: 2, restSeconds: 300 };
    expect(fake.calls.detailedStart).toEqual([sent]);
    expect(DetailedSettings.parse(fake.calls.detailedStart[0])).toEqual(sent);
  });

  it('a file count out of range is marked and Start is held back', async () => {
    const { fake, user } = await renderDetailed();
    await retype(user, 'small-files-count', '0');
    expect(panel().textContent).toContain('Files: a whole number from 1 to 100,000.');
    expect((screen.getByTestId('small-files-start') as HTMLButtonElement).disabled).toBe(true);
    expect(fake.calls.detailedStart).toEqual([]);
  });

  it('after the run: files/s, time per file, file data MB/s, every operation’s times and what it measures', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('small-files-start'));
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: smallDoc() }));
    const result = within(panel()).getByTestId('small-files-result');
    const figures = [...within(result).getByTestId('small-files-figures').querySelectorAll('div')].map((d) => [
      d.querySelector('dt')!.textContent,
      d.querySelector('dd')!.textContent,
    ]);
    expect(figures).toEqual([
      ['Files/s', '168'],
      ['Time per file', '5.95 ms'],
      ['p50 per file', '5.06 ms'],
      ['p99 per file', '16.3 ms'],
      ['File data written', '6.8 MB/s'],
      ['File data read', '247 MB/s'],
    ]);
    const rows = [...within(result).getByTestId('small-files-ops').querySelectorAll('tbody tr')];
    expect(rows.map((r) => r.querySelector('th')!.textContent)).toEqual([
      'create',
      'write',
      'fsync',
      'close',
      'stat',
      'open',
      'read',
      'delete',
    ]);
    // One unit for the whole table (fsync takes milliseconds), never "51 µs" beside "0.12 ms".
    expect([...rows[0]!.querySelectorAll('td')].map((c) => c.textContent)).toEqual(['0.05 ms', '0.08 ms', '0.12 ms']);
    expect(new Set([...result.querySelectorAll('.small-files-ops td')].map((c) => c.textContent!.split(' ')[1]))).toEqual(new Set(['ms']));
    expect(within(result).getByTestId('small-files-scope').textContent).toMatch(
      /^This measures the file system and, on a share, every network round trip.*not only the disk/,
    );
  });
});
