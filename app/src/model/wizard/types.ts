// The format-and-compare wizard's vocabulary: the disks it may erase, the file systems it can
// make, the plan a user confirms and the state that lets an interrupted plan resume. Shared by
// the platform providers (linux.ts, darwin.ts, win.ts), the plan runner, the IPC contract, the
// CLI and the renderer (type-only there).
import type { WizardSettings } from '../settings.js';

export { FORMAT_IDS, type FormatId } from './format-ids.js';
import type { FormatId } from './format-ids.js';

export interface FormatInfo {
  id: FormatId;
  /** As the platform's own tools name it: "APFS (Encrypted)", "Mac OS Extended (Journaled)", "ext4 (fscrypt encrypted)". */
  label: string;
  encrypted: boolean;
  /** Whether this machine can make and mount it now. */
  available: boolean;
  /** Why not, in plain words ("mkfs.xfs is not installed (Debian: xfsprogs)"). */
  reason?: string;
}

export interface DiskPartition {
  path: string;
  sizeBytes: number;
  fs?: string;
  label?: string;
  /** Where it is mounted now (empty: not mounted). */
  mountpoints: string[];
}

/** A whole disk as the wizard shows it. */
export interface WizardDisk {
  /** /dev/sdb, /dev/loop7, /dev/disk4, \\.\PHYSICALDRIVE2 (Windows: the disk number in `number`). */
  path: string;
  /** What the user types to confirm: the model, else the device's name ("loop7"). */
  name: string;
  model?: string;
  serial?: string;
  sizeBytes: number;
  /** usb, sata, nvme, thunderbolt, loop (a disk image), virtio… */
  bus: string;
  removable: boolean;
  /** Internal disks are offered only behind the advanced switch. */
  internal: boolean;
  /** Holds the running system (/, /boot, /usr, swap, the macOS system volume, C:): never offered. */
  system: boolean;
  partitions: DiskPartition[];
  /** loop: the image file behind it. */
  backingFile?: string;
  /** loop: the image file's inode and device ("254:0"), as the loop driver holds them: a
   *  different file at the same path is a different disk. */
  backingInode?: { ino: number; dev: string };
  /** World Wide Name, where the disk reports one. */
  wwn?: string;
  /** Its /dev/disk/by-id names (whole disk only), sorted. */
  byId?: string[];
  /** The serial number of the USB bridge it sits behind, when there is one. */
  usbSerial?: string;
  /** The partition-table id (GPT disk GUID / MBR id), read straight from the disk. */
  ptuuid?: string;
  /** Why it is in use by someone else (a mounted partition, a member of a mounted multi-device
   *  file system, swap, an MD array, an LVM volume group), in words; empty when it is not. */
  inUse?: string[];
  /** Windows: the disk number. */
  number?: number;
  /** Whether the wizard may erase it (with the advanced switch for internal disks), and if not why. */
  offered: boolean;
  reason?: string;
}

/** What must not have changed between the user's confirmation and each erase: everything the
 *  OS gives (see identity.ts for how it is compared and how strong it is). */
export interface DiskIdentity {
  path: string;
  sizeBytes: number;
  model?: string;
  serial?: string;
  wwn?: string;
  byId?: string[];
  backingFile?: string;
  backingInode?: { ino: number; dev: string };
  usbSerial?: string;
}

export { WIZARD_PLAN_KINDS, type WizardPlanKind } from './plan-kinds.js';

/** What the user confirmed: defined once, as the IPC contract's schema (WizardSettingsSchema),
 *  which checks it wherever it crosses a process boundary. */
export type { WizardSettings };

export type StepStatus = 'pending' | 'running' | 'done' | 'failed';

/** One format of the plan, as saved after every change. */
export interface PlanStepState {
  format: FormatId;
  label: string;
  status: StepStatus;
  /** The results saved for this format (one per stress size for a quick plan). */
  resultIds: string[];
  startedAt?: string;
  finishedAt?: string;
  error?: string;
}

/** The plan on disk ($DISKDIAL_HOME/plans/<id>.json): what is done, so a crash, a pulled disk or
 *  a power cut loses only the format in progress, and reopening offers to resume. */
export interface WizardPlanState {
  schema: 1;
  id: string;
  createdAt: string;
  updatedAt: string;
  settings: WizardSettings;
  steps: PlanStepState[];
  final: { format: FormatId; label: string; status: StepStatus; error?: string };
  /** running: a process is (or was, before it died) working on it; the rest are ended. */
  status: 'running' | 'done' | 'failed' | 'stopped';
  /** The pid working on it: a 'running' plan whose pid is gone was interrupted. */
  pid?: number;
  /** The partition-table id this plan writes at every erase (sfdisk label-id). `written` once a
   *  table with it is on the disk: from then on the disk must carry it before each erase.
   *  `erasing` while an erase is under way (a crash there leaves no table at all). */
  ptuuid?: { value: string; written: boolean; erasing?: boolean };
}

/** Where the wizard is, for the progress bar and the dials. */
export type WizardStage = 'checking' | 'erasing' | 'formatting' | 'mounting' | 'testing' | 'resting' | 'unmounting' | 'finishing';
