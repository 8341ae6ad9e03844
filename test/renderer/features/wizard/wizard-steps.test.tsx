// The wizard's first four steps against the fake bridge: which disks are offered (the system
// disk never, internal ones behind the advanced switch, a disk with a mounted partition not
// until it is unmounted), which formats can be picked and what the disk is left as, the plan and
// its time estimate, the typed name that must match exactly, and the exact WizardSettings Start
// sends.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseTypedSize } from '@model/units';
import { aboutText, estimateSeconds, planSizes, DEFAULT_PLAN } from '../../../../renderer/src/features/wizard/wizard-model';
import { resetStores } from '../../helpers/reset-stores';
import { diskRow, formatBox, LOOP, renderWizard, SYSTEM, T7, wizardBridge } from '../../helpers/wizard-fixtures';
import { text } from '../../helpers/dom';

beforeEach(resetStores);
afterEach(resetStores);

const next = () => screen.getByTestId('wizard-next') as HTMLButtonElement;

/** Picks T7, ticks ext4, the encrypted ext4 and XFS, and goes to the plan step. */
async function toPlan(user: Awaited<ReturnType<typeof renderWizard>>['user']) {
  await screen.findAllByTestId('wizard-disk');
  await user.click(within(diskRow(T7.path)).getByTestId('wizard-disk-select'));
  await user.click(next());
  await user.click(formatBox('ext4'));
  await user.click(formatBox('ext4-fscrypt'));
  await user.click(formatBox('xfs'));
  await user.click(next());
  await screen.findByTestId('wizard-plan-quick');
}

describe('the tab', () => {
  it('sits after Hash and before Compare setups; arrow keys reach it', async () => {
    const { user } = await renderWizard();
    const tab = screen.getByTestId('nav-wizard');
    expect(text(tab)).toBe('Format & compare');
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(text(screen.getByTestId('brand-tag'))).toBe('Format & compare');
    expect(screen.getAllByRole('tab').map((t) => t.dataset.testid)).toEqual([
      'nav-quick',
      'nav-detailed',
      'nav-hash',
      'nav-wizard',
      'nav-campaign',
      'nav-history',
    ]);
    tab.focus();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByTestId('nav-campaign'));
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByTestId('nav-hash'));
  });
});

describe('step 1: the disk', () => {
  it('lists whole disks with what is on them; the system disk is greyed with its reason', async () => {
    const { fake } = await renderWizard();
    await screen.findAllByTestId('wizard-disk');
    expect(fake.wizardCalls.listDisks).toEqual([false]);
    // Internal disks are not listed without the switch (the system disk always is, greyed).
    expect(screen.getAllByTestId('wizard-disk').map((r) => r.dataset.path)).toEqual(['/dev/vda', '/dev/sdb', '/dev/loop7', '/dev/sdc']);
    const sys = diskRow(SYSTEM.path);
    expect((within(sys).getByTestId('wizard-disk-select') as HTMLInputElement).disabled).toBe(true);
    expect(text(sys)).toContain('holds the system (/)');
    const t7 = diskRow(T7.path);
    expect(text(t7)).toContain('Samsung PSSD T7');
    expect(text(t7)).toContain('1 TB');
    expect(text(t7)).toContain('USB');
    expect(text(t7)).toContain('/dev/sdb');
    expect(text(t7)).toContain('sdb1 · exfat “T7” · 999 GB');
    expect(text(diskRow(LOOP.path))).toContain('disk image /var/tmp/diskdial.img');
    // Nothing picked yet.
    expect(next().disabled).toBe(true);
  });

  it('a disk with a mounted partition says it is in use and keeps Next disabled until refreshed unmounted', async () => {
    const { fake, user } = await renderWizard();
    await screen.findAllByTestId('wizard-disk');
    const row = diskRow('/dev/sdc');
    expect(text(row)).toContain('mounted at /media/ana/EXTREME — in use: unmount it first');
    await user.click(within(row).getByTestId('wizard-disk-select'));
    expect(next().disabled).toBe(true);
    expect(text(screen.getByTestId('wizard-next-reason'))).toMatch(/in use \(mounted\)/);
    // The user unmounts it and presses Refresh.
    fake.wizard.disks = fake.wizard.disks.map((d) =>
      d.path === '/dev/sdc' ? { ...d, partitions: d.partitions.map((p) => ({ ...p, mountpoints: [] })) } : d,
    );
    await user.click(screen.getByTestId('wizard-refresh'));
    await waitFor(() => expect(next().disabled).toBe(false));
    expect(fake.wizardCalls.listDisks).toEqual([false, false]);
  });

  it('the advanced switch lists internal disks again, and picking one warns', async () => {
    const { fake, user } = await renderWizard();
    await screen.findAllByTestId('wizard-disk');
    await user.click(screen.getByTestId('wizard-internal'));
    await waitFor(() => expect(screen.getAllByTestId('wizard-disk')).toHaveLength(5));
    expect(fake.wizardCalls.listDisks).toEqual([false, true]);
    expect(screen.queryByTestId('wizard-internal-warning')).toBeNull();
    await user.click(within(diskRow('/dev/nvme1n1')).getByTestId('wizard-disk-select'));
    expect(text(screen.getByTestId('wizard-internal-warning'))).toContain('WD Blue SN570 is an internal disk');
    expect(next().disabled).toBe(false);
    // Switching it off again drops the internal disk and its selection.
    await user.click(screen.getByTestId('wizard-internal'));
    await waitFor(() => expect(screen.getAllByTestId('wizard-disk')).toHaveLength(4));
    expect(next().disabled).toBe(true);
    expect(screen.queryByTestId('wizard-internal-warning')).toBeNull();
  });

  it('with no external disk it says how to connect one or attach a disk image', async () => {
    await renderWizard(wizardBridge([SYSTEM]));
    const empty = await screen.findByTestId('wizard-disks-empty');
    expect(text(empty)).toBe('No external disk found. Connect one, or attach a disk image (losetup -fP image.img) and refresh.');
    expect(screen.getAllByTestId('wizard-disk')).toHaveLength(1);
  });
});

describe('step 2: formats', () => {
  it('only formats this machine can make are tickable; at least one; the final format is never an encrypted one', async () => {
    const { fake, user } = await renderWizard();
    await screen.findAllByTestId('wizard-disk');
    await user.click(within(diskRow(T7.path)).getByTestId('wizard-disk-select'));
    await user.click(next());
    expect(fake.wizardCalls.listFormats).toBe(1);
    expect(screen.getAllByTestId('wizard-format').map((b) => b.dataset.format)).toEqual(['ext4', 'ext4-fscrypt', 'xfs', 'btrfs', 'exfat']);
    expect(formatBox('btrfs').disabled).toBe(true);
    expect(text(formatBox('btrfs').closest('li'))).toContain('mkfs.btrfs is not installed (Debian: btrfs-progs)');
    expect(next().disabled).toBe(true);
    expect(text(screen.getByTestId('wizard-next-reason'))).toBe('Tick at least one format.');

    // The encrypted format first: the default final format is the first unencrypted one chosen.
    await user.click(formatBox('ext4-fscrypt'));
    await user.click(formatBox('xfs'));
    const final = screen.getByTestId('wizard-final') as HTMLSelectElement;
    expect(final.value).toBe('xfs');
    expect([...final.options].map((o) => o.value)).toEqual(['ext4', 'xfs', 'exfat']);
    expect(text(screen.getByTestId('wizard'))).toContain(
      'The wizard leaves the disk unencrypted; encrypt it afterwards with your own passphrase.',
    );
    expect(next().disabled).toBe(false);

    // A chosen final format stays while it is valid.
    await user.selectOptions(final, 'exfat');
    await user.click(formatBox('ext4'));
    expect((screen.getByTestId('wizard-final') as HTMLSelectElement).value).toBe('exfat');

    // Back keeps the picks.
    await user.click(screen.getByTestId('wizard-back'));
    expect((within(diskRow(T7.path)).getByTestId('wizard-disk-select') as HTMLInputElement).checked).toBe(true);
  });
});

describe('step 3: the plan', () => {
  it('estimates the time: per run the write and read at 500 MB/s, a rest before every run but the first, 30 s a format', () => {
    // 3 formats × 2 sizes × 5 runs = 30 runs: 3 × 5 × (4 s + 20 s) = 360 s of I/O (the sizes as
    // the plan rounds them, a little under), 29 rests of 300 s, 3 formats and the final one ×
    // 30 s → about 9,180 s.
    expect(estimateSeconds({ kind: 'quick', sizes: [1e9, 5e9], runs: 5, restSeconds: 300, formats: 3 }).seconds).toBeCloseTo(9180, -1);
    // The common-mode pass on two of them: 5 passes (50 runs, 49 rests).
    expect(
      estimateSeconds({ kind: 'quick', sizes: [1e9, 5e9], runs: 5, restSeconds: 300, formats: 3, commonPasses: 2 }).seconds,
    ).toBeCloseTo(15420, -1);
    // Stibium Standard on a 1 TB disk: 53 GB written and read at 500 MB/s, once, per format.
    const stibium = estimateSeconds({
      kind: 'files',
      filesSet: 'standard',
      sizes: [],
      runs: 1,
      restSeconds: 0,
      formats: 1,
      diskBytes: 1e12,
    });
    expect(stibium.seconds).toBeGreaterThan(200);
    expect(stibium.scaled).toBeUndefined();
    // …and on a 16 GB card, scaled down, and it says to what.
    expect(
      estimateSeconds({ kind: 'files', filesSet: 'standard', sizes: [], runs: 1, restSeconds: 0, formats: 1, diskBytes: 16e9 }).scaled,
    ).toMatch(/scaled down to \d+ files/);
    expect(aboutText(9450)).toBe('about 2 h 38 min');
    expect(aboutText(7800)).toBe('about 2 h 10 min');
    expect(aboutText(7200)).toBe('about 2 h');
    expect(aboutText(45 * 60)).toBe('about 45 min');
    expect(aboutText(20)).toBe('under a minute');
    expect(planSizes(DEFAULT_PLAN)).toEqual([1e9, 5e9]);
    expect(planSizes({ ...DEFAULT_PLAN, custom: true, customText: '256 MiB' })).toEqual([256 * 1024 * 1024, 1e9, 5e9]);
    expect(planSizes({ ...DEFAULT_PLAN, kind: 'cdm' })).toEqual([1024 ** 3]);
    expect(parseTypedSize('2 GB')).toBe(2e9);
    expect(parseTypedSize('256 MiB')).toBe(268435456);
  });

  it('defaults to the quick test at 1 and 5 GB, 5 runs, 5 min rest, and updates the estimate', async () => {
    const { user } = await renderWizard();
    await toPlan(user);
    expect((screen.getByTestId('wizard-plan-quick') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId('wizard-size-1000000000') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId('wizard-size-5000000000') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId('wizard-runs') as HTMLInputElement).value).toBe('5');
    expect((screen.getByTestId('wizard-rest') as HTMLInputElement).value).toBe('5');
    // ext4 + fscrypt is among the formats: the common-mode pass is on, for ext4 and XFS.
    expect((screen.getByTestId('wizard-common-mode') as HTMLInputElement).checked).toBe(true);
    expect(text(screen.getByTestId('wizard-estimate'))).toContain('about 4 h 17 min for 3 formats');
    await user.click(screen.getByTestId('wizard-common-mode'));
    expect(text(screen.getByTestId('wizard-estimate'))).toContain('about 2 h 33 min for 3 formats');
    await user.click(screen.getByTestId('wizard-common-mode'));

    // No size: Next is off; a custom size that is not a size says so.
    await user.click(screen.getByTestId('wizard-size-1000000000'));
    await user.click(screen.getByTestId('wizard-size-5000000000'));
    expect(next().disabled).toBe(true);
    await user.click(screen.getByTestId('wizard-size-custom'));
    await user.type(screen.getByTestId('wizard-size-input'), 'lots');
    expect(text(screen.getByTestId('wizard'))).toContain('Type a size like 500 MB or 2 GB.');
    expect(next().disabled).toBe(true);
    // Too small: the limits in the plan's own unit (its sizes are 1 GB and 5 GB), never GiB beside them.
    await user.clear(screen.getByTestId('wizard-size-input'));
    await user.type(screen.getByTestId('wizard-size-input'), '8 MB');
    expect(text(screen.getByTestId('wizard'))).toContain('Between 17 MB and 68 GB.');
    await user.clear(screen.getByTestId('wizard-size-input'));
    await user.type(screen.getByTestId('wizard-size-input'), '2 GB');
    expect(next().disabled).toBe(false);

    // Runs outside 1–20 are refused; no rest is allowed.
    await user.clear(screen.getByTestId('wizard-runs'));
    await user.type(screen.getByTestId('wizard-runs'), '21');
    expect(next().disabled).toBe(true);
    await user.clear(screen.getByTestId('wizard-runs'));
    await user.type(screen.getByTestId('wizard-runs'), '3');
    await user.clear(screen.getByTestId('wizard-rest'));
    await user.type(screen.getByTestId('wizard-rest'), '0');
    expect(next().disabled).toBe(false);
    // 5 passes (3 formats, 2 of them twice) × 3 runs × 8 s + (3 + the final one) × 30 s = 240 s.
    expect(text(screen.getByTestId('wizard-estimate'))).toContain('about 4 min');

    await user.click(screen.getByTestId('wizard-plan-cdm'));
    expect(screen.queryByTestId('wizard-size-1000000000')).toBeNull();
  });
});

describe('step 3: tests that cannot fit on the disk', () => {
  it('a 5 GB test on a 2 GB disk is refused with what fits; the plan goes ahead without it', async () => {
    const { user } = await renderWizard();
    await screen.findAllByTestId('wizard-disk');
    await user.click(within(diskRow(LOOP.path)).getByTestId('wizard-disk-select'));
    await user.click(next());
    await user.click(formatBox('ext4'));
    await user.click(next());
    await screen.findByTestId('wizard-plan-quick');
    expect(text(screen.getByTestId('wizard-plan-fit'))).toBe(
      "Not enough free space: the 5 GB Quick Test needs 5 GB and keeps 16.8 MB free for the file system's own bookkeeping and other programs writing meanwhile; 1.8 GB is free. The largest that fits is 1.7 GB. (about 90 % of this 2 GB disk is free once formatted.)",
    );
    expect(next().disabled).toBe(true);
    // Said once: Next points at it.
    expect(text(screen.getByTestId('wizard-next-reason'))).toBe('The plan does not fit on this disk: see above.');
    await user.click(screen.getByTestId('wizard-size-5000000000'));
    expect(screen.queryByTestId('wizard-plan-fit')).toBeNull();
    expect(next().disabled).toBe(false);
  });
});

describe('step 4: confirm and start', () => {
  it('summarises what will be erased; Start only when the name is typed exactly; sends the exact settings', async () => {
    const { fake, user } = await renderWizard();
    await toPlan(user);
    await user.click(next());
    const summary = screen.getByTestId('wizard-summary');
    expect(text(summary)).toContain(
      'Erase Samsung PSSD T7 (Samsung PSSD T7, 1 TB, USB, /dev/sdb)? Everything on it will be lost: sdb1 · exfat “T7” · 999 GB.',
    );
    expect(text(summary)).toContain(
      'It will be formatted 3 times (ext4, ext4 (fscrypt encrypted) and XFS), tested with the Quick Test at 1 GB and 5 GB, 5 runs per size, 5 min rest between runs, every format also as applications see it (page cache, flushed), and left as ext4.',
    );
    const start = screen.getByTestId('wizard-start') as HTMLButtonElement;
    const input = screen.getByTestId('wizard-confirm-input');
    expect(start.disabled).toBe(true);
    await user.type(input, 'samsung pssd t7');
    expect(start.disabled).toBe(true);
    await user.clear(input);
    await user.type(input, 'Samsung PSSD T7 ');
    expect(start.disabled).toBe(true);
    await user.clear(input);
    await user.type(input, 'Samsung PSSD T7');
    expect(start.disabled).toBe(false);
    await user.click(start);
    expect(fake.wizardCalls.start).toEqual([
      {
        device: '/dev/sdb',
        identity: { path: '/dev/sdb', sizeBytes: 1e12, model: 'Samsung PSSD T7', serial: 'S5T7NS0R123' },
        confirmName: 'Samsung PSSD T7',
        formats: ['ext4', 'ext4-fscrypt', 'xfs'],
        plan: 'quick',
        sizes: [1e9, 5e9],
        runs: 5,
        restSeconds: 300,
        finalFormat: 'ext4',
        commonMode: true,
      },
    ]);
    await screen.findByTestId('wizard-run');
    expect(screen.getAllByTestId('wizard-step').map((s) => `${s.dataset.format}:${s.dataset.status}`)).toEqual([
      'ext4:pending',
      'ext4-fscrypt:pending',
      'xfs:pending',
    ]);
  });

  it('an internal disk sends allowInternal; a loop device has no model or serial to send', async () => {
    const { fake, user } = await renderWizard();
    await screen.findAllByTestId('wizard-disk');
    await user.click(screen.getByTestId('wizard-internal'));
    await waitFor(() => expect(screen.getAllByTestId('wizard-disk')).toHaveLength(5));
    await user.click(within(diskRow('/dev/nvme1n1')).getByTestId('wizard-disk-select'));
    await user.click(next());
    await user.click(formatBox('exfat'));
    await user.click(next());
    await user.click(screen.getByTestId('wizard-plan-files'));
    await user.click(next());
    expect(text(screen.getByTestId('wizard-summary'))).toContain('This is an internal disk.');
    await user.type(screen.getByTestId('wizard-confirm-input'), 'WD Blue SN570');
    await user.click(screen.getByTestId('wizard-start'));
    expect(fake.wizardCalls.start[0]).toEqual({
      device: '/dev/nvme1n1',
      identity: { path: '/dev/nvme1n1', sizeBytes: 500e9, model: 'WD Blue SN570', serial: 'WD123' },
      confirmName: 'WD Blue SN570',
      formats: ['exfat'],
      plan: 'files',
      sizes: [1024 ** 3],
      runs: 5,
      restSeconds: 300,
      finalFormat: 'exfat',
      filesSet: 'quick',
      allowInternal: true,
    });
  });

  it('offers the seeds’ protocols: Stibium Standard or a custom set, write only; the common-mode pass is sent when ticked', async () => {
    const { fake, user } = await renderWizard();
    await toPlan(user);
    expect(text(screen.getByTestId('wizard'))).toContain('Blackmagic 1 GB + 5 GB × 5');
    expect(text(screen.getByTestId('wizard'))).toContain('Write only');
    await user.click(screen.getByTestId('wizard-plan-files'));
    await user.click(screen.getByTestId('wizard-files-custom'));
    await user.clear(screen.getByTestId('wizard-files-max'));
    await user.type(screen.getByTestId('wizard-files-max'), 'huge');
    expect(text(screen.getByTestId('wizard'))).toContain('Largest file: a size like 600 MB');
    expect(next().disabled).toBe(true);
    await user.click(screen.getByTestId('wizard-files-standard'));
    expect(next().disabled).toBe(false);
    await user.click(next());
    expect(text(screen.getByTestId('wizard-summary'))).toContain('tested with the many-file test (Stibium Standard set)');
    await user.type(screen.getByTestId('wizard-confirm-input'), 'Samsung PSSD T7');
    await user.click(screen.getByTestId('wizard-start'));
    expect(fake.wizardCalls.start[0]).toMatchObject({ plan: 'files', filesSet: 'standard', commonMode: true });
  });

  it('a refused start says why and stays on Confirm', async () => {
    const fake = wizardBridge();
    fake.wizard.startResult = {
      ok: false,
      error: { code: 'ERR_DISK_CHANGED', message: 'The disk at /dev/sdb is not the one you confirmed (its serial changed).' },
    };
    const { user } = await renderWizard(fake);
    await screen.findAllByTestId('wizard-disk');
    await user.click(within(diskRow(LOOP.path)).getByTestId('wizard-disk-select'));
    await user.click(next());
    await user.click(formatBox('ext4'));
    await user.click(next());
    // The 2 GB image holds the 1 GB test, not the 5 GB one.
    await user.click(screen.getByTestId('wizard-size-5000000000'));
    await user.click(next());
    await user.type(screen.getByTestId('wizard-confirm-input'), 'loop7');
    await user.click(screen.getByTestId('wizard-start'));
    expect(fake.wizardCalls.start[0]!.identity).toEqual({ path: '/dev/loop7', sizeBytes: 2e9 });
    expect(text(await screen.findByTestId('wizard-error'))).toBe('The disk at /dev/sdb is not the one you confirmed (its serial changed).');
    expect(screen.getByTestId('wizard-confirm-input')).toBeTruthy();
    expect(screen.queryByTestId('wizard-run')).toBeNull();
  });
});
