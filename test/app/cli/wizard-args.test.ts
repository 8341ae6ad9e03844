// `diskdial compare`'s plan flags, parsed: the seeds' protocols by name, the many-file set, the
// write-only, sustained and hash plans, and the common-mode pass (on by default with fscrypt).
import { describe, expect, it } from 'vitest';
import { parseWizardCommand } from '../../../app/src/cli/wizard-args.js';
import type { WizardSettings } from '../../../app/src/model/settings.js';
import { planLine } from '../../../app/src/cli/wizard-commands.js';

const base = ['--device', '/dev/sdz', '--confirm', 'x'];
function settings(...args: string[]): WizardSettings {
  const cmd = parseWizardCommand('compare', [...base, ...(args.includes('--formats') ? [] : ['--formats', 'ext4,xfs']), ...args]);
  if (cmd.command !== 'compare' || cmd.action !== 'run') throw new Error('not a run');
  return cmd.settings;
}
const usage = (...args: string[]): string => {
  try {
    settings(...args);
  } catch (err) {
    return (err as Error).message;
  }
  return 'no error';
};

describe('compare --protocol', () => {
  it('names the seeds: Blackmagic 1 GB + 5 GB × 5, Stibium Standard, Write only', () => {
    expect(settings('--protocol', 'blackmagic')).toMatchObject({ plan: 'quick', sizes: [1e9, 5e9], runs: 5 });
    expect(settings('--protocol', 'stibium-standard')).toMatchObject({ plan: 'files', filesSet: 'standard', runs: 1 });
    expect(settings('--protocol', 'write-only')).toMatchObject({ plan: 'write', sizes: [1e9, 5e9], runs: 5 });
    expect(settings('--protocol', 'sustained')).toMatchObject({ plan: 'sustained' });
    expect(settings('--protocol', 'hash')).toMatchObject({ plan: 'hash', sizes: [1e9] });
    // The flags still say what differs from the protocol.
    expect(settings('--protocol', 'write-only', '--runs', '2', '--size', '256MiB')).toMatchObject({ runs: 2, sizes: [256 * 1024 ** 2] });
    expect(usage('--protocol', 'atto')).toMatch(/^unknown protocol "atto"; protocols: blackmagic, stibium-standard/);
    expect(usage('--protocol', 'blackmagic', '--plan', 'cdm')).toBe('give --protocol or --plan, not both');
  });

  it('the plan line names the protocol and its time, and what Stibium Standard was scaled to', () => {
    const s = { ...settings('--protocol', 'stibium-standard', '--rest', '0'), identity: { path: '/dev/sdz', sizeBytes: 640 * 1024 ** 2 } };
    const line = planLine(s, 2);
    expect(line).toMatch(
      /^Stibium Standard: about \d+ (s|min) at 500 MB\/s, with the rests and 30 s per format to erase and format \(and once more for the one it is left in\)\. /,
    );
    expect(line).toMatch(/scaled down to \d+ files/);
  });
});

describe('compare --plan files', () => {
  it('takes the Quick, Standard or a custom set', () => {
    expect(settings('--plan', 'files')).toMatchObject({ filesSet: 'quick' });
    expect(settings('--plan', 'files', '--files-set', 'standard')).toMatchObject({ filesSet: 'standard' });
    expect(settings('--plan', 'files', '--files', '100', '--min-size', '1MB', '--max-size', '64MB')).toMatchObject({
      filesSet: 'custom',
      files: { count: 100, minBytes: 1e6, maxBytes: 64e6 },
    });
    expect(usage('--plan', 'files', '--files-set', 'huge')).toBe('--files-set must be quick, standard or custom, not "huge"');
    expect(usage('--plan', 'quick', '--files', '10')).toBe('--files-set, --files, --min-size and --max-size apply to --plan files only');
    expect(usage('--plan', 'files', '--files', '1')).toBe('--files must be a whole number from 2 to 10000, not "1"');
    expect(usage('--plan', 'files', '--min-size', '64MB', '--max-size', '1MB')).toMatch(
      /^--files: the largest file must be at least as large as the smallest/,
    );
  });

  it('write, sustained and hash are plans too; --size applies to the sized ones', () => {
    expect(settings('--plan', 'write', '--size', '1GB')).toMatchObject({ plan: 'write', sizes: [1e9] });
    expect(settings('--plan', 'hash', '--size', '4GiB')).toMatchObject({ plan: 'hash', sizes: [4 * 1024 ** 3] });
    expect(usage('--plan', 'sustained', '--size', '1GB')).toBe('--size applies to the quick, write and hash plans only');
    expect(usage('--plan', 'atto')).toBe('--plan must be quick, cdm, files, write, sustained, hash; not "atto"');
  });
});

describe('the common-mode pass', () => {
  it('is on by default when a format cannot do direct I/O (fscrypt), and can be asked for or left out', () => {
    expect(settings().commonMode).toBeUndefined();
    expect(settings('--formats', 'ext4,ext4-fscrypt').commonMode).toBe(true);
    expect(settings('--formats', 'ext4,ext4-fscrypt', '--no-common-mode').commonMode).toBeUndefined();
    expect(settings('--common-mode').commonMode).toBe(true);
  });
});
