// Plans, disks and fake providers for wizard tests, so each test names only what it is about: the
// settings default to one quick ext4 pass of 16 MiB, once, with no rest. Real ones: wizard-real.ts.
import type { WizardProvider } from '../../app/src/core/wizard/provider.js';
import type { WizardDisk, WizardPlanState } from '../../app/src/model/wizard/types.js';
import type { WizardSettings } from '../../app/src/model/settings.js';

const MiB = 1024 * 1024;

/** What a person confirms for `device`; the rest is the quick one-format default unless given. */
export function wizardSettings(
  over: Pick<WizardSettings, 'device' | 'identity' | 'confirmName'> & Partial<WizardSettings>,
): WizardSettings {
  return { formats: ['ext4'], plan: 'quick', sizes: [16 * MiB], runs: 1, restSeconds: 0, finalFormat: 'ext4', ...over };
}

/** A stopped plan of `settings` whose one ext4 step and final format are still to do. */
export function stoppedPlan(settings: WizardSettings, over: Partial<WizardPlanState> = {}): WizardPlanState {
  return {
    schema: 1,
    id: 'p1',
    createdAt: '',
    updatedAt: '',
    settings,
    steps: [{ format: 'ext4', label: 'ext4', status: 'pending', resultIds: [] }],
    final: { format: 'ext4', label: 'ext4', status: 'pending' },
    status: 'stopped',
    ...over,
  };
}

/** An external USB disk the safety rules offer. */
export function usbDisk(over: Pick<WizardDisk, 'name' | 'sizeBytes'> & Partial<WizardDisk>): WizardDisk {
  return {
    path: '/dev/sdx',
    model: over.name,
    bus: 'usb',
    removable: true,
    internal: false,
    system: false,
    partitions: [],
    offered: true,
    ...over,
  };
}

/** A provider that lists `disks`, makes no formats and must never erase. */
export function listingProvider(disks: WizardDisk[], over: Partial<WizardProvider> = {}): WizardProvider {
  return {
    platform: 'linux',
    listDisks: async () => disks,
    formats: async () => [],
    prepare: async () => {
      throw new Error('not reached');
    },
    ...over,
  };
}
