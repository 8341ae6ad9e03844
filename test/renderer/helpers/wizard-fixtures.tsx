// The wizard's test data: disks as the core lists them (the system disk, an external SSD, a
// loop device, a disk with a mounted partition, an internal NVMe), the formats of a Linux
// machine, saved plans, and wizard-made result documents cloned from the engine's real Quick
// Test document (test/fixtures/results/quick.json) with a campaign and a stress size each.
import { screen, within } from '@testing-library/react';
import type { ResultDocument } from '@model/result';
import type { FormatId, FormatInfo, WizardDisk, WizardPlanState } from '@model/wizard/types';
import type { WizardProgressEvent } from '@model/events';

import quickJson from '../../fixtures/results/quick.json';
import { createFakeBridge } from './fake-bridge';
import { noResizeObserver } from './dom';
import { renderApp } from './render-app';

noResizeObserver();

export const SYSTEM: WizardDisk = {
  path: '/dev/vda',
  name: 'vda',
  model: 'Virtual disk',
  sizeBytes: 270e9,
  bus: 'virtio',
  removable: false,
  internal: true,
  system: true,
  partitions: [{ path: '/dev/vda1', sizeBytes: 270e9, fs: 'ext4', mountpoints: ['/'] }],
  offered: false,
  reason: 'holds the system (/)',
};

export const T7: WizardDisk = {
  path: '/dev/sdb',
  name: 'Samsung PSSD T7',
  model: 'Samsung PSSD T7',
  serial: 'S5T7NS0R123',
  sizeBytes: 1e12,
  bus: 'usb',
  removable: true,
  internal: false,
  system: false,
  partitions: [{ path: '/dev/sdb1', sizeBytes: 999e9, fs: 'exfat', label: 'T7', mountpoints: [] }],
  offered: true,
};

export const LOOP: WizardDisk = {
  path: '/dev/loop7',
  name: 'loop7',
  sizeBytes: 2e9,
  bus: 'loop',
  removable: false,
  internal: false,
  system: false,
  partitions: [],
  backingFile: '/var/tmp/diskdial.img',
  offered: true,
};

export const MOUNTED: WizardDisk = {
  path: '/dev/sdc',
  name: 'SanDisk Extreme',
  model: 'SanDisk Extreme',
  sizeBytes: 500e9,
  bus: 'usb',
  removable: true,
  internal: false,
  system: false,
  partitions: [{ path: '/dev/sdc1', sizeBytes: 500e9, fs: 'exfat', label: 'EXTREME', mountpoints: ['/media/ana/EXTREME'] }],
  offered: true,
};

export const NVME: WizardDisk = {
  path: '/dev/nvme1n1',
  name: 'WD Blue SN570',
  model: 'WD Blue SN570',
  serial: 'WD123',
  sizeBytes: 500e9,
  bus: 'nvme',
  removable: false,
  internal: true,
  system: false,
  partitions: [{ path: '/dev/nvme1n1p1', sizeBytes: 500e9, fs: 'ntfs', label: 'Games', mountpoints: [] }],
  offered: true,
};

export const FORMATS: FormatInfo[] = [
  { id: 'ext4', label: 'ext4', encrypted: false, available: true },
  { id: 'ext4-fscrypt', label: 'ext4 (fscrypt encrypted)', encrypted: true, available: true },
  { id: 'xfs', label: 'XFS', encrypted: false, available: true },
  { id: 'btrfs', label: 'Btrfs', encrypted: false, available: false, reason: 'mkfs.btrfs is not installed (Debian: btrfs-progs)' },
  { id: 'exfat', label: 'exFAT', encrypted: false, available: true },
];

const clone = <T,>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** A wizard-made quick result: one format at one stress size, writes and reads scaled. */
export function wizardDoc(format: FormatId, formatLabel: string, size: number, w: number, r: number, planId = 'plan-1'): ResultDocument {
  const doc = clone(quickJson) as unknown as ResultDocument;
  doc.id = `${planId}-${format}-${size / 1e9}gb`;
  delete doc.label;
  doc.campaign = { planId, format, formatLabel };
  doc.settings = { ...doc.settings, size };
  for (const t of doc.tests) {
    const f = t.rw === 'write' ? w : r;
    t.mbps *= f;
    if (t.series) t.series = t.series.map((p) => ({ ...p, mbps: p.mbps * f }));
  }
  return doc;
}

/** ext4 (baseline), ext4 encrypted (writes clearly slower), XFS (the same within noise), at 1 and 5 GB. */
export function planDocs(planId = 'plan-1'): ResultDocument[] {
  return [
    wizardDoc('ext4', 'ext4', 1e9, 1, 1, planId),
    wizardDoc('ext4', 'ext4', 5e9, 1, 1, planId),
    wizardDoc('ext4-fscrypt', 'ext4 (fscrypt encrypted)', 1e9, 0.6, 1, planId),
    wizardDoc('ext4-fscrypt', 'ext4 (fscrypt encrypted)', 5e9, 0.6, 1, planId),
    wizardDoc('xfs', 'XFS', 1e9, 1.001, 0.999, planId),
    wizardDoc('xfs', 'XFS', 5e9, 1.001, 0.999, planId),
  ];
}

export function savedPlan(over: Partial<WizardPlanState> = {}): WizardPlanState {
  return {
    schema: 1,
    id: 'plan-old',
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T11:00:00.000Z',
    settings: {
      device: '/dev/sdb',
      identity: { path: '/dev/sdb', sizeBytes: 1e12, model: 'Samsung PSSD T7', serial: 'S5T7NS0R123' },
      confirmName: 'Samsung PSSD T7',
      formats: ['ext4', 'xfs', 'exfat', 'ext4-fscrypt', 'ntfs'],
      plan: 'quick',
      sizes: [1e9, 5e9],
      runs: 5,
      restSeconds: 300,
      finalFormat: 'exfat',
    },
    steps: [
      { format: 'ext4', label: 'ext4', status: 'done', resultIds: ['old-ext4-1', 'old-ext4-5'] },
      { format: 'xfs', label: 'XFS', status: 'done', resultIds: ['old-xfs-1', 'old-xfs-5'] },
      { format: 'exfat', label: 'exFAT', status: 'done', resultIds: ['old-exfat-1', 'old-exfat-5'] },
      { format: 'ext4-fscrypt', label: 'ext4 (fscrypt encrypted)', status: 'running', resultIds: [] },
      { format: 'ntfs', label: 'NTFS', status: 'pending', resultIds: [] },
    ],
    final: { format: 'exfat', label: 'exFAT', status: 'pending' },
    status: 'running',
    pid: 99999,
    ...over,
  };
}

export function wprogress(over: Partial<WizardProgressEvent> = {}): WizardProgressEvent {
  return {
    jobId: 'wjob-1',
    planId: 'plan-1',
    formatIndex: 0,
    formatCount: 3,
    format: 'ext4',
    formatLabel: 'ext4',
    stage: 'testing',
    message: 'Testing ext4: Quick Test at 1 GB, run 1 of 5',
    elapsed: 30,
    ...over,
  };
}

/** A fake bridge with the wizard's disks and formats. */
export function wizardBridge(disks: WizardDisk[] = [SYSTEM, T7, LOOP, MOUNTED, NVME]) {
  const fake = createFakeBridge();
  fake.wizard.disks = disks;
  fake.wizard.formats = FORMATS;
  return fake;
}

/** Renders the app on the fake bridge and opens Format & compare. */
export async function renderWizard(fake = wizardBridge()) {
  const { user } = await renderApp(fake.bridge, 'nav-wizard');
  await screen.findByTestId('wizard');
  return { fake, user };
}

export const diskRow = (path: string): HTMLElement => screen.getAllByTestId('wizard-disk').find((r) => r.dataset.path === path)!;
export const formatBox = (id: string): HTMLInputElement =>
  screen.getAllByTestId('wizard-format').find((r) => r.dataset.format === id) as HTMLInputElement;

/** Picks T7 and `formats` with the default plan and types the disk's name: Start is next. */
export async function confirmPlanOnT7(user: Awaited<ReturnType<typeof renderWizard>>['user'], formats: string[]): Promise<void> {
  await screen.findAllByTestId('wizard-disk');
  await user.click(within(diskRow(T7.path)).getByTestId('wizard-disk-select'));
  await user.click(screen.getByTestId('wizard-next'));
  for (const id of formats) await user.click(formatBox(id));
  await user.click(screen.getByTestId('wizard-next'));
  await user.click(screen.getByTestId('wizard-next'));
  await user.type(screen.getByTestId('wizard-confirm-input'), T7.name);
}
