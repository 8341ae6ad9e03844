// The wizard's erase confirmation in the desktop app: main's own native dialog, shown before a
// plan's first erase (services/wizard.ts asks through WizardDeps.authorizeErase). Kept apart from
// the page's verbs so no renderer payload can stand in for the person's answer.
import type { BrowserWindow, Dialog, MessageBoxOptions } from 'electron';
import { sizeText } from '../model/report/metrics.js';
import type { WizardDisk } from '../model/wizard/types.js';

/**
 * Main's own confirmation before a wizard plan's first erase (or a whole disk overwritten by a
 * test: `what` says how): a native dialog naming the disk (model, size, serial, image) and saying
 * it will be erased. The renderer cannot answer it: it is
 * drawn by the OS, and the wizard's start verb only gets a plan as far as this question.
 * Resolves true only when the person pressed "Erase"; Cancel is the default (Enter, Escape).
 */
export function eraseConfirmer(
  dialog: Pick<Dialog, 'showMessageBox'>,
  parent: () => BrowserWindow | undefined,
): (disk: WizardDisk, what?: string) => Promise<boolean> {
  return async (disk, what = 'Everything on this disk will be erased, once for each file system of the plan.') => {
    const facts = [
      `Model: ${disk.model ?? 'not reported'}`,
      `Size: ${sizeText(disk.sizeBytes, true)} (${disk.sizeBytes.toLocaleString('en-US')} bytes)`,
      `Serial number: ${disk.serial ?? 'not reported'}`,
      ...(disk.backingFile ? [`Disk image: ${disk.backingFile}`] : []),
      `Device: ${disk.path}`,
    ];
    const options: MessageBoxOptions = {
      type: 'warning',
      title: 'Erase disk',
      message: `${disk.name} will be erased.`,
      detail: `${facts.join('\n')}\n\n${what} This cannot be undone.`,
      buttons: ['Cancel', 'Erase'],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    };
    const win = parent();
    const answer = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
    return answer.response === 1;
  };
}
