// The verify panel's form: where (the chosen folder's free space, or a whole unmounted disk) and
// how much to verify at most (all of it by default). One pass only: the test writes everything,
// then reads it all back. A whole disk is sent with the name typed to confirm; the core proves it
// by the wizard's rules and, in browser mode, only when started with --allow-erase.
import { fitPlan } from '@model/presets';
import type { KindForm } from '../kind-entry';

/** Verify all of it (0), or at most 1, 10, 100 GB (decimal, as the engine counts). */
export const VERIFY_SIZES: readonly number[] = [0, 1e9, 10e9, 100e9];

/** The disk chosen for the whole-disk face, as the disk listing shows it. */
export interface VerifyDisk {
  path: string;
  /** What the person types to confirm. */
  name: string;
  sizeBytes: number;
}

export interface VerifyForm {
  /** At most this many bytes; 0: all of it (the free space less the reserve, or the whole disk). */
  maxBytes: number;
  /** folder: the chosen folder's free space; disk: a whole unmounted disk, overwritten. */
  face: 'folder' | 'disk';
  disk?: VerifyDisk | undefined;
  /** The disk's name as typed to confirm. */
  typed: string;
  /** Why this front door may not overwrite a disk (browser mode without --allow-erase). */
  refused?: string | undefined;
}

export const verifyForm: KindForm<'verify', VerifyForm> = {
  defaults: { maxBytes: 0, face: 'folder', typed: '' },
  errors: (f) => {
    if (f.face !== 'disk') return {};
    if (f.refused) return { face: f.refused };
    if (!f.disk) return { disk: 'Choose the disk to verify.' };
    if (f.typed !== f.disk.name) return { typed: `Type the disk's name, ${f.disk.name}, to confirm: everything on it is overwritten.` };
    return {};
  },
  settings: (kind, f, target) => {
    const size = f.maxBytes > 0 ? { maxBytes: f.maxBytes } : {};
    if (f.face === 'disk' && f.disk) return { kind, target: f.disk.path, ...size, runs: 1, restSeconds: 0, disk: { confirmName: f.typed } };
    return { kind, target, ...size, runs: 1, restSeconds: 0 };
  },
  fit: (kind, f, target) => fitPlan(kind, f.maxBytes > 0 ? { size: f.maxBytes } : {}, target),
  patch: (f, patch) => {
    const next = { ...f, ...patch };
    // Another disk (or none) must have its own name typed.
    if (patch.disk !== undefined && patch.disk?.path !== f.disk?.path && patch.typed === undefined) next.typed = '';
    return next;
  },
  ownTarget: (f) => (f.face === 'disk' ? (f.disk?.path ?? '') : undefined),
  adaptsToFreeSpace: true,
};
