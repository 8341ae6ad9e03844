// A disk's identity: everything the OS gives about which physical disk sits at a path (size, model,
// serial, WWN, /dev/disk/by-id names, a loop device's image file and its inode, the USB bridge's
// serial) and, once a plan has partitioned it, the partition-table id the plan wrote. Compared
// before every erase; how strong it is decides whether a resume must show the disk again and ask
// for its name. Pure: the renderer shows the same words.
import type { DiskIdentity, WizardDisk, WizardPlanState } from './types.js';

/** unique: a serial number, a WWN or a partition table DiskDial wrote names this disk and no
 *  other; weak: only path, size, model (a loop device, a bridge that hides the serial). */
export type IdentityStrength = 'unique' | 'weak';

/** The identity of a disk as listed now. */
export function identityOf(d: WizardDisk): DiskIdentity {
  return {
    path: d.path,
    sizeBytes: d.sizeBytes,
    ...(d.model ? { model: d.model } : {}),
    ...(d.serial ? { serial: d.serial } : {}),
    ...(d.wwn ? { wwn: d.wwn } : {}),
    ...(d.byId?.length ? { byId: [...d.byId].sort() } : {}),
    ...(d.backingFile ? { backingFile: d.backingFile } : {}),
    ...(d.backingInode ? { backingInode: { ...d.backingInode } } : {}),
    ...(d.usbSerial ? { usbSerial: d.usbSerial } : {}),
  };
}

const inode = (i?: { ino: number; dev: string }): string => (i ? `inode ${i.ino} on ${i.dev.trim()}` : 'none');

/** The first way `now` differs from the confirmed identity, in words ("its serial number changed
 *  from … to …"), or undefined when every field the OS gives is the same. */
export function identityChange(confirmed: DiskIdentity, now: DiskIdentity): string | undefined {
  const was = (v: string | undefined): string => `"${v ?? 'none'}"`;
  const fields: Array<[string, string | undefined, string | undefined]> = [
    ['model', confirmed.model, now.model],
    ['serial number', confirmed.serial, now.serial],
    ['WWN', confirmed.wwn, now.wwn],
    ['USB bridge serial number', confirmed.usbSerial, now.usbSerial],
    ['disk image', confirmed.backingFile, now.backingFile],
  ];
  if (confirmed.sizeBytes !== now.sizeBytes) return `its size changed from ${confirmed.sizeBytes} to ${now.sizeBytes} bytes`;
  for (const [what, a, b] of fields) if ((a ?? '') !== (b ?? '')) return `its ${what} changed from ${was(a)} to ${was(b)}`;
  const ia = confirmed.backingInode;
  const ib = now.backingInode;
  if ((ia || ib) && (ia?.ino !== ib?.ino || ia?.dev.trim() !== ib?.dev.trim()))
    return `its disk image is another file (${inode(ia)} then, ${inode(ib)} now)`;
  // A by-id name is the OS's own identity for the disk: every one confirmed must still be there.
  const gone = (confirmed.byId ?? []).filter((n) => !(now.byId ?? []).includes(n));
  if (gone.length > 0) return `it is no longer /dev/disk/by-id/${gone[0]}`;
  return undefined;
}

/** How strong the identity a plan holds is (see IdentityStrength). */
export function identityStrength(plan: Pick<WizardPlanState, 'settings' | 'ptuuid'>): IdentityStrength {
  const id = plan.settings.identity;
  return id.serial || id.wwn || plan.ptuuid?.written ? 'unique' : 'weak';
}

/** What the identity rests on, in words, for the resume listing. */
export function identityBasis(plan: Pick<WizardPlanState, 'settings' | 'ptuuid'>): string {
  const id = plan.settings.identity;
  const parts = [
    ...(id.serial ? [`serial number ${id.serial}`] : []),
    ...(id.wwn ? [`WWN ${id.wwn}`] : []),
    ...(plan.ptuuid?.written ? [`the id of the partition table DiskDial wrote (${plan.ptuuid.value})`] : []),
  ];
  // The partition table is what DiskDial wrote then, not a fact about the disk now: said as the
  // check it is, since a disk wiped since carries none.
  const checked = plan.ptuuid?.written ? ' Before each erase the disk must still carry that partition table.' : '';
  if (parts.length > 0) return `Identified by ${parts.map((p) => (p.startsWith('the id') ? p : `its ${p}`)).join(', ')}.${checked}`;
  return `It has no serial number, no WWN and no partition table DiskDial wrote: only its path, size${id.model ? ', model' : ''}${id.backingFile ? ' and disk image' : ''} say it is the same disk. Check it before you type its name.`;
}
