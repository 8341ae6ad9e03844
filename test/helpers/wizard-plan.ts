// A stopped one-format plan (ext4, quick, one 16 MiB size) for the wizard tests to resume or check.
import type { DiskIdentity, WizardPlanState } from '../../app/src/core/wizard/types.js';

export function stoppedPlan(
  device: { path: string; name: string; identity: DiskIdentity },
  over: Partial<WizardPlanState> = {},
): WizardPlanState {
  return {
    schema: 1,
    id: 'p1',
    createdAt: '',
    updatedAt: '',
    settings: {
      device: device.path,
      identity: device.identity,
      confirmName: device.name,
      formats: ['ext4'],
      plan: 'quick',
      sizes: [16 * 1024 * 1024],
      runs: 1,
      restSeconds: 0,
      finalFormat: 'ext4',
    },
    steps: [{ format: 'ext4', label: 'ext4', status: 'pending', resultIds: [] }],
    final: { format: 'ext4', label: 'ext4', status: 'pending' },
    status: 'stopped',
    ...over,
  };
}
