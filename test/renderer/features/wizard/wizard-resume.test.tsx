// Resuming an interrupted plan against the fake bridge: opening the screen asks the core for
// unfinished plans; one that was running in a process that is gone, or that was stopped or
// failed with formats left, is offered in a banner; Resume asks for the disk's name again and
// follows the resumed job with the finished formats already ticked; Discard forgets the plan.
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useWizardStore } from '../../../../renderer/src/features/wizard/store';
import { isInterrupted } from '../../../../renderer/src/features/wizard/wizard-model';
import { resetStores } from '../../helpers/reset-stores';
import { confirmPlanOnT7, renderWizard, savedPlan, T7, wizardBridge, wprogress } from '../../helpers/wizard-fixtures';
import { text } from '../../helpers/dom';

beforeEach(resetStores);
afterEach(resetStores);

describe('interrupted plans', () => {
  it('which plans are offered', () => {
    const p = savedPlan();
    expect(isInterrupted(p, null)).toBe(true);
    expect(isInterrupted(p, 'plan-old')).toBe(false);
    expect(isInterrupted({ ...p, status: 'done' }, null)).toBe(false);
    expect(isInterrupted({ ...p, status: 'stopped' }, null)).toBe(true);
    const allDone = {
      ...p,
      status: 'failed' as const,
      steps: p.steps.map((s) => ({ ...s, status: 'done' as const })),
      final: { ...p.final, status: 'done' as const },
    };
    expect(isInterrupted(allDone, null)).toBe(false);
  });

  it('opening the screen offers to resume; Resume asks for the name again and follows the resumed plan', async () => {
    const fake = wizardBridge();
    fake.wizard.plans = [savedPlan(), savedPlan({ id: 'plan-done', status: 'done' })];
    fake.wizard.startResult = { ok: true, value: { jobId: 'wjob-9', planId: 'plan-old' } };
    const { user } = await renderWizard(fake);
    const banner = await screen.findByTestId('wizard-resume-banner');
    expect(screen.getAllByTestId('wizard-resume-banner')).toHaveLength(1);
    expect(text(banner)).toContain('A plan was interrupted: 3 of 5 formats done on Samsung PSSD T7 (/dev/sdb).');
    expect(fake.wizardCalls.plans).toBe(1);

    await user.click(within(banner).getByTestId('wizard-resume'));
    const input = within(banner).getByTestId('wizard-resume-input');
    const go = within(banner).getByTestId('wizard-resume-confirm') as HTMLButtonElement;
    expect(go.disabled).toBe(true);
    await user.type(input, 'Samsung PSSD');
    expect(go.disabled).toBe(true);
    await user.type(input, ' T7');
    expect(go.disabled).toBe(false);
    await user.click(go);
    expect(fake.wizardCalls.resume).toEqual([{ planId: 'plan-old', confirmName: 'Samsung PSSD T7' }]);

    await screen.findByTestId('wizard-run');
    expect(screen.queryByTestId('wizard-resume-banner')).toBeNull();
    const steps = () => screen.getAllByTestId('wizard-step').map((s) => `${s.dataset.format}:${s.dataset.status}`);
    expect(steps()).toEqual(['ext4:done', 'xfs:done', 'exfat:done', 'ext4-fscrypt:pending', 'ntfs:pending']);
    expect(text(screen.getByTestId('wizard-step-final'))).toContain('Leave the disk as exFAT');
    await waitFor(() => expect(useWizardStore.getState().status).toBe('running'));
    act(() =>
      fake.emitWizardProgress(
        wprogress({
          jobId: 'wjob-9',
          planId: 'plan-old',
          formatIndex: 3,
          formatCount: 5,
          format: 'ext4-fscrypt',
          formatLabel: 'ext4 (fscrypt encrypted)',
          stage: 'erasing',
        }),
      ),
    );
    expect(steps()).toEqual(['ext4:done', 'xfs:done', 'exfat:done', 'ext4-fscrypt:running', 'ntfs:pending']);
    expect(text(screen.getByTestId('wizard-run'))).toContain('3 of 5 formats done');
  });

  it('Resume lists the disk again and shows it beside what was confirmed; a disk with no serial says its identity is weak', async () => {
    const fake = wizardBridge();
    const weakPlan = savedPlan({
      id: 'plan-loop',
      settings: {
        ...savedPlan().settings,
        device: '/dev/loop7',
        identity: { path: '/dev/loop7', sizeBytes: 2e9, backingFile: '/var/tmp/diskdial.img' },
        confirmName: 'loop7',
      },
    });
    fake.wizard.plans = [savedPlan(), weakPlan];
    const { user } = await renderWizard(fake);
    const banners = await screen.findAllByTestId('wizard-resume-banner');
    const t7 = banners.find((b) => b.getAttribute('data-plan') === 'plan-old')!;
    const loop = banners.find((b) => b.getAttribute('data-plan') === 'plan-loop')!;

    await user.click(within(t7).getByTestId('wizard-resume'));
    const relisting = within(t7).getByTestId('wizard-resume-relisting');
    expect(relisting.getAttribute('data-strength')).toBe('unique');
    await waitFor(() =>
      expect(text(within(t7).getByTestId('wizard-resume-now'))).toBe('At /dev/sdb now: Samsung PSSD T7, 1 TB, serial S5T7NS0R123.'),
    );
    expect(text(relisting)).toContain('Confirmed when the plan started: Samsung PSSD T7, 1 TB, serial S5T7NS0R123.');
    expect(text(relisting)).toContain('Identified by its serial number S5T7NS0R123.');
    // Internal disks too: a plan may have been allowed one.
    expect(fake.wizardCalls.listDisks.at(-1)).toBe(true);

    await user.click(within(loop).getByTestId('wizard-resume'));
    const weak = within(loop).getByTestId('wizard-resume-relisting');
    expect(weak.getAttribute('data-strength')).toBe('weak');
    await waitFor(() =>
      expect(text(within(loop).getByTestId('wizard-resume-now'))).toBe(
        'At /dev/loop7 now: loop7, 2 GB, no serial number, image /var/tmp/diskdial.img.',
      ),
    );
    expect(text(weak)).toContain(
      'It has no serial number, no WWN and no partition table DiskDial wrote: only its path, size and disk image say it is the same disk. Check it before you type its name.',
    );

    // The disk is gone: the banner says so instead of showing another disk.
    fake.wizard.disks = [T7];
    await user.click(within(loop).getByText('Cancel'));
    await user.click(within(loop).getByTestId('wizard-resume'));
    await waitFor(() =>
      expect(text(within(loop).getByTestId('wizard-resume-now'))).toBe(
        'Nothing is at /dev/loop7 now: connect the disk, then press Resume again.',
      ),
    );
  });

  it('a refused resume says why in the banner', async () => {
    const fake = wizardBridge();
    fake.wizard.plans = [savedPlan()];
    fake.wizard.startResult = { ok: false, error: { code: 'ERR_DISK_CHANGED', message: 'Samsung PSSD T7 is not connected.' } };
    const { user } = await renderWizard(fake);
    const banner = await screen.findByTestId('wizard-resume-banner');
    await user.click(within(banner).getByTestId('wizard-resume'));
    await user.type(within(banner).getByTestId('wizard-resume-input'), 'Samsung PSSD T7{Enter}');
    // The banner is shown again (it hides while a plan starts), with the core's reason.
    const again = await screen.findByTestId('wizard-resume-banner');
    expect(text(await within(again).findByTestId('wizard-error'))).toBe('Samsung PSSD T7 is not connected.');
    expect(screen.queryByTestId('wizard-run')).toBeNull();
    expect(screen.getAllByTestId('wizard-disk').length).toBeGreaterThan(0);
  });

  it('Discard forgets the plan', async () => {
    const fake = wizardBridge();
    fake.wizard.plans = [savedPlan({ status: 'failed' })];
    const { user } = await renderWizard(fake);
    const banner = await screen.findByTestId('wizard-resume-banner');
    await user.click(within(banner).getByTestId('wizard-discard'));
    await waitFor(() => expect(screen.queryByTestId('wizard-resume-banner')).toBeNull());
    expect(fake.wizardCalls.discard).toEqual(['plan-old']);
  });

  it('the plans are asked for again each time the screen is shown, and a plan this window stopped is offered', async () => {
    const fake = wizardBridge();
    const { user } = await renderWizard(fake);
    await screen.findAllByTestId('wizard-disk');
    expect(fake.wizardCalls.plans).toBe(1);
    await user.click(screen.getByTestId('nav-quick'));
    await user.click(screen.getByTestId('nav-wizard'));
    await waitFor(() => expect(fake.wizardCalls.plans).toBe(2));
    expect(screen.queryByTestId('wizard-resume-banner')).toBeNull();

    // Start and stop a plan: the core keeps it as stopped, with formats left.
    await confirmPlanOnT7(user, ['ext4', 'xfs']);
    await user.click(screen.getByTestId('wizard-start'));
    await waitFor(() => expect(useWizardStore.getState().status).toBe('running'));
    fake.wizard.plans = [savedPlan({ id: 'plan-1', status: 'running' })];
    await user.click(screen.getByTestId('nav-quick'));
    await user.click(screen.getByTestId('nav-wizard'));
    await waitFor(() => expect(fake.wizardCalls.plans).toBe(3));
    // Our own running plan is not "interrupted".
    expect(screen.queryByTestId('wizard-resume-banner')).toBeNull();
    fake.wizard.plans = [savedPlan({ id: 'plan-1', status: 'stopped' })];
    act(() => fake.emitWizardDone({ jobId: 'wjob-1', planId: 'plan-1', outcome: 'stopped', resultIds: [] }));
    const banner = await screen.findByTestId('wizard-resume-banner');
    expect(banner.dataset.plan).toBe('plan-1');
  });
});
