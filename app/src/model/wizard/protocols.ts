// The wizard's plans, named after the protocol each reproduces (the seeds DiskDial answers):
// Blackmagic Disk Speed Test's 1 GB and 5 GB stress files, five runs; Howard Oakley's Stibium
// Standard set of 160 files; a write-only pass; the CrystalDiskMark grid; each kind the wizard
// runs as its own plan (the sustained write: its registry entry's wizard hook); the Hash test.
// The CLI's --protocol and the wizard's plan step read this one list.
import type { WizardSettings } from '../settings.js';
import { FILES_PRESET_OPTIONS } from '../file-set.js';
import { WIZARD_KINDS, type WizardKind } from '../kinds/registry.js';

export type ProtocolId = 'blackmagic' | 'stibium-standard' | 'stibium-quick' | 'write-only' | 'cdm' | WizardKind | 'hash';

export type ProtocolSettings = Pick<WizardSettings, 'plan' | 'sizes' | 'runs'> & Pick<Partial<WizardSettings>, 'filesSet'>;

export interface Protocol {
  id: ProtocolId;
  /** "Blackmagic 1 GB + 5 GB × 5", "Stibium Standard", "Write only". */
  name: string;
  /** What it does on each format, in a sentence. */
  detail: string;
  settings: ProtocolSettings;
}

const std = FILES_PRESET_OPTIONS.standard;

export const PROTOCOLS: readonly Protocol[] = [
  {
    id: 'blackmagic',
    name: 'Blackmagic 1 GB + 5 GB × 5',
    detail: 'Writes then reads one big file of 1 GB and one of 5 GB, five runs each, as Blackmagic Disk Speed Test does.',
    settings: { plan: 'quick', sizes: [1e9, 5e9], runs: 5 },
  },
  {
    id: 'stibium-standard',
    name: 'Stibium Standard',
    detail: `Writes then reads ${std.count} files of 2 MB to 2 GB (about 53 GB), Howard Oakley's Stibium set; scaled down to fit a smaller disk, and the report says to what.`,
    settings: { plan: 'files', filesSet: 'standard', sizes: [1e9], runs: 1 },
  },
  {
    id: 'stibium-quick',
    name: 'Stibium Quick',
    detail: 'The same shape of set at a tenth of the bytes: 40 files of 2 MB to 600 MB, about 5 GB.',
    settings: { plan: 'files', filesSet: 'quick', sizes: [1e9], runs: 1 },
  },
  {
    id: 'write-only',
    name: 'Write only',
    detail: 'Writes one big file of 1 GB and one of 5 GB (1 MiB blocks, queue depth 8), nothing read back: the write side alone.',
    settings: { plan: 'write', sizes: [1e9, 5e9], runs: 5 },
  },
  {
    id: 'cdm',
    name: 'CrystalDiskMark Default',
    detail: 'Sequential and random reads and writes at several queue depths on a 1 GiB file.',
    settings: { plan: 'cdm', sizes: [1024 ** 3], runs: 1 },
  },
  ...WIZARD_KINDS.map((k) => ({ id: k.id, name: k.name, detail: k.wizard.detail, settings: { plan: k.id, sizes: [1e9], runs: 1 } })),
  {
    id: 'hash',
    name: 'Hash',
    detail: 'Writes a 1 GB file, then reads it, reads and hashes it (SHA-256) and hashes in memory: is the disk or the CPU the limit?',
    settings: { plan: 'hash', sizes: [1e9], runs: 1 },
  },
];

/** Formats whose files cannot take direct I/O (fscrypt on Linux): a plan with one gets the
 *  common-mode pass by default, so its row has like rows to be compared with. */
export const NO_DIRECT_IO: ReadonlySet<string> = new Set(['ext4-fscrypt']);

export const PROTOCOL_IDS = PROTOCOLS.map((p) => p.id);

export function protocolOf(id: string): Protocol | undefined {
  return PROTOCOLS.find((p) => p.id === id);
}

/** The protocol a plan's settings reproduce, if any (sizes and runs as the protocol has them). */
export function protocolFor(s: ProtocolSettings): Protocol | undefined {
  return PROTOCOLS.find(
    (p) =>
      p.settings.plan === s.plan &&
      (p.settings.filesSet ?? 'quick') === (s.plan === 'files' ? (s.filesSet ?? 'quick') : 'quick') &&
      (!['quick', 'write'].includes(s.plan) || (p.settings.runs === s.runs && p.settings.sizes.join() === s.sizes.join())),
  );
}
