// What a Detailed kind gives the screen, declared once: its settings form (defaults, what is wrong
// with it, the request a Start sends, whether it fits) and its panel, which draws inside the frame
// every panel shares. Types only, so a kind's files need neither the store nor the frame (both
// read the kinds' map: importing them back would close a ring).
import type { ComponentType, ReactNode } from 'react';
import type { DetailedDoneEvent, DetailedPlanEvent, DetailedProgressEvent, DetailedStepEvent } from '@model/events';
import type { Fit } from '@model/fit';
import type { ResultDocument } from '@model/result';
import type { DetailedKind, DetailedSettings } from '@model/settings';
import type { LivePoint } from '../../lib/curve';
import type { FrameSlice } from '../../lib/frame-strip';

/** The running job, or the last one once it has ended. */
export interface DetailedJob {
  kind: DetailedKind;
  /** What Start sent. */
  settings: DetailedSettings;
  /** Null until the core answers the start. */
  jobId: string | null;
  plan: DetailedPlanEvent | null;
  progress: DetailedProgressEvent | null;
  /** Finished steps, in order (their time series dropped: nothing here draws them). */
  steps: DetailedStepEvent[];
  /** Kinds with a live curve: progress samples while writing. */
  live: LivePoint[];
  /** Kinds that report frames: the frames decided in each progress interval, for the live strip. */
  frames?: readonly FrameSlice[];
  /** Set when the job has ended. */
  outcome: DetailedDoneEvent['outcome'] | null;
  /** When Start was pressed (ms since the epoch): the time left is reckoned from it. */
  startedAt?: number;
}

/** What is wrong with a form, field by field, in plain words; {} when it can be sent. */
export type FormErrors = Partial<Record<string, string>>;

export type KindSettings<K extends DetailedKind> = Extract<DetailedSettings, { kind: K }>;
export type FitTarget = { freeBytes: number; totalBytes: number };

/** A kind's settings form: pure, so the request a Start sends is checked against what the
 *  controls show. */
export interface KindForm<K extends DetailedKind, F> {
  defaults: F;
  errors(f: F): FormErrors;
  /** The request a Start sends for the form on `target` (check errors first). */
  settings(kind: K, f: F, target: string): KindSettings<K>;
  /** The core's one fit rule, so Start is disabled exactly when the runner would refuse. */
  fit(kind: K, f: F, target: FitTarget): Fit;
  /** How a change lands on the form, when it is more than a merge. */
  patch?(f: F, patch: Partial<F>): F;
  /** The change that makes the test fit in `largestBytes`, for kinds that offer one. */
  offer?(largestBytes: number): Partial<F>;
  /** For a test chosen by something other than its size (the video's duration): when it does
   *  not fit, why in the form's own terms and the choice that fits (null: none does). */
  fitInTerms?(f: F, fit: Fit, target: FitTarget): FitInTerms<F>;
  /** The amount written shrinks to the free space (the others refuse when it does not fit). */
  adaptsToFreeSpace?: boolean;
  /** The form names a target of its own (a whole disk): the folder chosen above is not needed,
   *  and Start sends this path. Undefined: the folder chosen. */
  ownTarget?(f: F): string | undefined;
}

export interface FitInTerms<F> {
  reason: string;
  /** The largest choice that fits ("1 min 12 s") and the change that makes it; null: none fits. */
  offer: { label: string; patch: Partial<F> } | null;
}

/** The frame's own parts a panel fills in (the kind, Start, the job bar and the result's method
 *  come from the frame). */
export interface FrameProps {
  title: string;
  subtitle: string;
  /** Right side of the header (the grid's unit toggle). */
  headerExtra?: ReactNode;
  settings: ReactNode;
  /** The document whose method and flags to show under the figures. */
  result?: ResultDocument | undefined;
  children: ReactNode;
}

/** What the screen hands a kind's panel. */
export interface KindPanelProps<F> {
  form: F;
  set(patch: Partial<F>): void;
  errors: FormErrors;
  /** This kind's job while it runs, or after a stop or failure with something to show. */
  live: DetailedJob | null;
  /** This kind's last finished document. */
  result: ResultDocument | undefined;
  /** A detailed test is starting, running or stopping. */
  busy: boolean;
  /** The shared frame, bound to this kind. */
  Frame: ComponentType<FrameProps>;
}

export interface KindEntry<K extends DetailedKind, F> {
  /** How a sentence names the test: "Wait for the sustained-write test to finish". */
  phrase: string;
  /** Its name in the screen's jump links, as its panel's title says it: "Sustained write". */
  label: string;
  form: KindForm<K, F>;
  Panel: ComponentType<KindPanelProps<F>>;
}
