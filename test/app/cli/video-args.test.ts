// `diskdial run --test video`'s options: --format, --layout, --buffer, checked before any disk is
// touched, and the help that documents a format id's parts.
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { HELP, parseCli, UsageError } from '../../../app/src/cli/args.js';

const dir = os.tmpdir();
const run = (...args: string[]): unknown => parseCli(['run', dir, ...args]);

describe('run --test video', () => {
  it('takes a format id, a layout and a buffer', () => {
    expect(
      run('--test', 'video', '--format', 'ProRes-HQ-UHD-2997', '--seconds', '30', '--layout', 'frames', '--buffer', '8'),
    ).toMatchObject({
      test: 'video',
      seconds: 30,
      video: { format: 'prores-hq-uhd-2997', layout: 'frames', buffer: 8 },
    });
    // Without --format: the default format, said in the help.
    expect(run('--test', 'video', '--buffer', '2')).toMatchObject({ video: { format: 'prores-hq-uhd-2997', buffer: 2 } });
    expect(run('--test', 'video')).not.toHaveProperty('video');
  });

  it('refuses what does not fit, in plain words', () => {
    expect(() => run('--test', 'video', '--format', 'prores-hq-4k')).toThrow(
      new UsageError(
        '--format "prores-hq-4k" is not a video format id; an id is format-resolution-rate, e.g. prores-hq-uhd-2997 (diskdial --help lists the parts)',
      ),
    );
    expect(() => run('--test', 'video', '--layout', 'dpx')).toThrow('--layout must be one of stream, frames, not "dpx"');
    expect(() => run('--test', 'video', '--buffer', '0')).toThrow('--buffer must be from 1 to 256, not 0');
    expect(() => run('--test', 'quick', '--format', 'prores-hq-uhd-2997')).toThrow('--format applies to --test video only');
    expect(() => run('--test', 'video', '--size', '1GiB')).toThrow(/--size does not apply to --test video/);
    expect(() => run('--test', 'video', '--qd', '4')).toThrow(/--qd does not apply to --test video/);
  });

  it('the help lists the parts of a format id from the format table', () => {
    expect(HELP).toMatch(/--format ID {8}format-resolution-rate \(default prores-hq-uhd-2997\)\n/);
    expect(HELP).toContain('prores-hq');
    expect(HELP).toContain('resolutions: hd, uhd, dci4k, 6k, 8k\n');
    expect(HELP).toContain('rates: 23976, 24, 25, 2997, 30, 50, 5994, 60, 100, 11988, 120\n');
    const block = HELP.slice(HELP.indexOf('--format ID'), HELP.indexOf('--layout L'));
    expect(block).toContain('unc-12-444');
    expect(Math.max(...block.split('\n').map((l) => l.length))).toBeLessThanOrEqual(86);
  });
});
