// What a platform's wizard provider does: list whole disks (and say which may be erased), say
// which formats this machine can make, and turn "erase this disk into that format" into commands.
// Commands are argv arrays, never shell strings; each says whether it needs elevation (the
// runner adds pkexec on Linux, and the platform's prompt elsewhere) and why it runs, in words.
import type { DiskIdentity, FormatId, FormatInfo, WizardDisk } from './types.js';

export interface Command {
  argv: string[];
  /** Needs administrator rights (root, an admin prompt, UAC). */
  privileged: boolean;
  /** Text for the command's standard input (a partition table for sfdisk, a passphrase). */
  stdin?: string;
  /** Extra environment variables (FSCRYPT_CONF: fscrypt's settings for this plan only). */
  env?: Record<string, string>;
  /** What it does, for the progress line and errors: "Writing a new GPT partition table". */
  why: string;
}

/** Runs a command; resolves with its output, rejects with an Error whose message is plain words
 *  and includes the command's own error text. */
export type CommandRunner = (cmd: Command) => Promise<{ stdout: string; stderr: string }>;

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
  prepare(disk: WizardDisk, format: FormatId, opts: { label: string; run: CommandRunner; workDir: string }): Promise<PreparedVolume>;
}

/** The identity of a disk as listed now. */
export function identityOf(d: WizardDisk): DiskIdentity {
  return { path: d.path, sizeBytes: d.sizeBytes, ...(d.model ? { model: d.model } : {}), ...(d.serial ? { serial: d.serial } : {}) };
}
