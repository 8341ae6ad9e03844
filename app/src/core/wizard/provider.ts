// What a platform's wizard provider does: list whole disks (and say which may be erased), say
// which formats this machine can make, and turn "erase this disk into that format" into commands.
// Commands are argv arrays, never shell strings; each says whether it needs elevation (the
// runner adds pkexec on Linux, and the platform's prompt elsewhere) and why it runs, in words.
import type { FormatId, FormatInfo, WizardDisk } from '../../model/wizard/types.js';
import type { CommandRunner } from '../exec/commands.js';

export type { Command, CommandRunner } from '../exec/commands.js';

/** A disk erased and formatted, mounted where the tests can run. */
export interface PreparedVolume {
  /** The folder to test in (the mount point, or an encrypted folder inside it). */
  testPath: string;
  mountPoint: string;
  /** The partition (or volume) made. */
  partition: string;
  /** Undo what prepare did beyond formatting (unmount, lock the encrypted folder…). */
  release(): Promise<void>;
}

export interface WizardProvider {
  readonly platform: NodeJS.Platform;
  /** Every whole disk, with `offered`/`reason` set by the safety rules. */
  listDisks(opts?: { includeInternal?: boolean }): Promise<WizardDisk[]>;
  /** The platform's formats and whether this machine can make each now. */
  formats(): Promise<FormatInfo[]>;
  /** Erases the whole disk and makes `format` on it, mounted and ready to test. The caller has
   *  re-checked the disk's identity just before. */
  prepare(disk: WizardDisk, format: FormatId, opts: PrepareOptions): Promise<PreparedVolume>;
  /** The partition-table id on the disk now, read from the disk itself (not a cache); undefined
   *  when it has none or the platform cannot tell. */
  readPtuuid?(disk: WizardDisk): Promise<string | undefined>;
  /** Undoes what a plan that died left behind: its own mounts under `workDir` (and what is
   *  unlocked beneath them), nothing else. Runs before a plan (re)starts. */
  reclaim?(workDir: string, run: CommandRunner): Promise<string[]>;
  /** Lists with the wizard's own mount points (under `ownMount`) not counted as in use. */
  listDisksWith?(ctx: { includeInternal?: boolean; ownMount?: (m: string) => boolean }): Promise<WizardDisk[]>;
}

export interface PrepareOptions {
  label: string;
  run: CommandRunner;
  /** The plan's own folder, $DISKDIAL_HOME/wizard/<plan id>. */
  workDir: string;
  /** The partition-table id to write (the plan's: it proves the disk before each later erase). */
  ptuuid?: string;
  /** Called once the old data is about to go and once the new table is on the disk, so the plan
   *  file can say an erase was under way. */
  onErase?: (phase: 'start' | 'table-written') => Promise<void>;
}
