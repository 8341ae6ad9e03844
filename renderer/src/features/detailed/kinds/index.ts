// The Detailed screen's kinds, in the order the screen shows them: each kind's panel, its settings
// form and its defaults, by kind id. The store, the frame, the job bar and the screen go through
// this map and name no kind; adding a kind here is its form, its panel and one line.
import type { DetailedKind, DetailedSettings } from '@model/settings';
import type { Fit } from '@model/fit';
import type { FitInTerms, FitTarget, FormErrors, KindEntry, KindForm } from '../kind-entry';
import { CdmPanel } from './cdm-panel';
import { cdmForm } from './cdm-form';
import { SustainedPanel } from './sustained-panel';
import { sustainedForm } from './sustained-form';
import { FilesPanel } from './files-panel';
import { filesForm } from './files-form';
import { VideoPanel } from './video-panel';
import { videoForm } from './video-form';
import { SweepPanel } from './sweep-panel';
import { sweepForm } from './sweep-form';
import { SmallFilesPanel } from './small-files-panel';
import { smallFilesForm } from './small-files-form';
import { VerifyPanel } from './verify-panel';
import { verifyForm } from './verify-form';
import { SharePanel } from './share-panel';
import { shareForm } from './share-form';

// Each entry's form type is its own (kindEntry gives it back); `any` only lets the check below
// hold them side by side while it ties each key to its kind's form and panel.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEntries = { [K in DetailedKind]: KindEntry<K, any> };

export const DETAILED_KINDS = {
  cdm: { phrase: 'the CrystalDiskMark test', label: 'CrystalDiskMark', form: cdmForm, Panel: CdmPanel },
  sustained: { phrase: 'the sustained-write test', label: 'Sustained write', form: sustainedForm, Panel: SustainedPanel },
  files: { phrase: 'the many-file test', label: 'Many files', form: filesForm, Panel: FilesPanel },
  video: { phrase: 'the video test', label: 'Video playback', form: videoForm, Panel: VideoPanel },
  sweep: { phrase: 'the transfer-size sweep', label: 'Transfer-size sweep', form: sweepForm, Panel: SweepPanel },
  'small-files': { phrase: 'the small-file test', label: 'Small files', form: smallFilesForm, Panel: SmallFilesPanel },
  verify: { phrase: 'the verify test', label: 'Verify capacity', form: verifyForm, Panel: VerifyPanel },
  share: { phrase: 'the share-limits test', label: 'Share limits', form: shareForm, Panel: SharePanel },
} satisfies AnyEntries;

type Kinds = typeof DETAILED_KINDS;
/** Every kind's form, by kind id. */
export type Forms = { [K in DetailedKind]: Kinds[K]['form']['defaults'] };

/** The kinds in the screen's order. */
export const DETAILED_KIND_IDS = Object.keys(DETAILED_KINDS) as DetailedKind[];

/** `kind`'s entry, its form's type kept. */
export function kindEntry<K extends DetailedKind>(kind: K): KindEntry<K, Forms[K]> {
  return DETAILED_KINDS[kind] as unknown as KindEntry<K, Forms[K]>;
}

const formOf = <K extends DetailedKind>(kind: K): KindForm<K, Forms[K]> => kindEntry(kind).form;

export const DEFAULT_FORMS = Object.fromEntries(DETAILED_KIND_IDS.map((k) => [k, formOf(k).defaults])) as Forms;

/** The errors of `kind`'s form. */
export function formErrors<K extends DetailedKind>(kind: K, forms: Forms): FormErrors {
  return formOf(kind).errors(forms[kind]);
}

/** The request a Start sends for `kind` on `target`, exactly as the form shows it. Check
 *  formErrors first: an invalid form gives a payload the core refuses. */
export function toDetailedSettings<K extends DetailedKind>(kind: K, forms: Forms, target: string): DetailedSettings {
  return formOf(kind).settings(kind, forms[kind], target);
}

/** Whether `kind`'s test, as its form stands, fits on the target: the core's one fit rule, so
 *  Start is disabled exactly when the runner would refuse. Null while the form is invalid. */
export function formFit<K extends DetailedKind>(kind: K, forms: Forms, target: FitTarget): Fit | null {
  if (Object.keys(formErrors(kind, forms)).length > 0) return null;
  return formOf(kind).fit(kind, forms[kind], target);
}

/** Why `kind`'s test does not fit, in its form's own terms, and the choice that does; null when it
 *  fits, or the kind words a misfit by size (the fit's own reason and largest size). */
export function formFitInTerms<K extends DetailedKind>(
  kind: K,
  forms: Forms,
  target: FitTarget,
  fit: Fit | null,
): FitInTerms<Forms[K]> | null {
  if (!fit || fit.fits) return null;
  return formOf(kind).fitInTerms?.(forms[kind], fit, target) ?? null;
}

/** The target `kind`'s form chose itself (a whole disk), or undefined: the folder chosen above. */
export function formTarget<K extends DetailedKind>(kind: K, forms: Forms): string | undefined {
  return formOf(kind).ownTarget?.(forms[kind]);
}
