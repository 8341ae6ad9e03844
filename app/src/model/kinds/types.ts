// What a test kind is, in one place: its name, how it plans (engine steps the generic runner
// executes), what it makes of the steps' results, the CLI options it takes, and what the report
// views (title, metrics, comparable settings) and the share card show for it. Every hook is
// optional: a kind without one gets the generic behaviour.
import type { z } from 'zod';
import type { StepOutcome } from '../analysis.js';
import type { Box, CardOptions } from '../report/card-draw.js';
import type { Metric } from '../report/figure-text.js';
import type { ReportSection } from '../report/section.js';
import type { FilesSection, ResultDocument, ResultTest, KindSections } from '../result.js';
import type { CurveRun } from '../knee.js';
import type { DetailedSettings } from '../screen-settings.js';
import type { SizeUnits } from '../size-units.js';
import type { Bottleneck } from '../verdict/bottleneck.js';
import type { Claim } from '../verdict/claim.js';
import type { NetworkPath } from '../network.js';
import type { CdmMode, KindPlanOptions, Plan, PlanOptions, PlanTarget } from './plan.js';

/** How the command line reads a kind's flag: with a value, or given alone. */
export type FlagType = 'string' | 'boolean';
/** What a kind's own flags set: plan options, and the frame rate of the "Will it work?" table
 *  printed after the result (the Quick Test's --video). */
export type KindCliOptions = Partial<PlanOptions> & { willItWork?: { fps: number } };

/** Common flags a kind may refuse, with the reason a CLI user reads. */
export type RefusableFlag = 'size' | 'bs' | 'qd' | 'threads' | 'seconds' | 'runs' | 'loop';

/** What the analysis adds to the result besides the plain per-step tests (a kind with a folder
 *  declares its section in KindSections). */
export interface KindAnalysis extends KindSections {
  /** Replaces the per-step tests (the many-file test reports one row per pass). */
  tests?: ResultTest[];
  files?: FilesSection;
}

/** What the runner saw of the target, besides the steps: a share's path to its server. */
export interface AnalysisContext {
  network?: NetworkPath;
}

/** What the Detailed screen's settings for a kind ask of the runner (besides target, runs, rest). */
export interface ScreenRun extends KindPlanOptions {
  size?: number;
  reserveBytes?: number;
  preset?: PlanOptions['preset'];
  mode?: CdmMode;
  seconds?: number;
  intervalSeconds?: number;
  files?: { count?: number; minBytes?: number; maxBytes?: number; seed?: number };
  /** A kind with `wholeDevice`: the whole disk the screen chose, and the name typed to confirm
   *  (the service proves it by the wizard's rules before anything is written). */
  wholeDisk?: { device: string; confirmName: string; allowInternal?: boolean };
}

/** A kind's `fromScreen` from what it asks of its own settings; another kind's settings ask nothing. */
export function screenRun<K extends DetailedSettings['kind']>(
  kind: K,
  run: (s: Extract<DetailedSettings, { kind: K }>) => ScreenRun,
): (s: DetailedSettings) => ScreenRun {
  return (s) => (s.kind === kind ? run(s as Extract<DetailedSettings, { kind: K }>) : {});
}

export interface KindModule<Id extends string = string> {
  id: Id;
  /** What a person calls it: "Quick Test", "CrystalDiskMark grid"… */
  name: string;
  /** Runnable through the benchmark runner (the hash test has its own). */
  plan?: (o: PlanOptions, target?: PlanTarget) => Plan;
  /** Default test-file size (a sized kind: the most it writes). */
  defaultSize?: number;
  /** Sized to the target's free space less a reserve, rather than one fixed file. */
  sized?: boolean;
  /** fixed: the smallest test size offered; sized: the least the plan runs with. */
  leastBytes?: (o: PlanOptions) => number;
  /** The result sections made from the steps' outcomes (and what the runner saw of the target). */
  analyse?: (plan: Plan, outcomes: readonly StepOutcome[], seen?: AnalysisContext) => KindAnalysis;
  /** Measures a network share only: the runner refuses any other target before it writes. */
  networkOnly?: boolean;
  /** Its section of the result document: the key, and what of it every view relies on (checked
   *  when a result is read from outside). */
  result?: { key: keyof KindSections; schema: z.ZodType };
  cli?: {
    /** Flags only this kind (and others naming them) takes, in the order help lists them, with how
     *  the command line reads each (the registry's KindFlag is every kind's). */
    flags?: Readonly<Record<string, FlagType>>;
    /** --preset's choices. */
    presets?: readonly string[];
    /** Common flags this kind refuses, in the order they are checked, with the reason. */
    refuse?: Partial<Record<RefusableFlag, string>>;
    /** `diskdial run --help`: what the test does, in a line or three (absent: its name). */
    summary?: string;
    /** `diskdial run --help`: a flag it claims as "ARG  what it does (default, unit)", where the
     *  CLI's own list has no words for it. */
    flagHelp?: Readonly<Record<string, string>>;
    /** `diskdial run --help`: the values it takes for a flag other kinds share ("1-100000"), said
     *  after the flag's words as "(<kind>: <range>; …)". */
    flagRange?: Readonly<Record<string, string>>;
    /** Its own flags as plan options (and the Quick Test's Will-it-work table); `flag` gives a
     *  flag's text as typed, `given` whether a flag was given. Throws on a bad value. */
    parse?: (flag: (name: string) => string | undefined, given: (name: string) => boolean) => KindCliOptions;
    /** What the CLI's report says of the test's files under its title ("1,000 files of 4 KiB"). */
    fileText?: (doc: ResultDocument, units: SizeUnits) => string | undefined;
    /** The sizes the test was asked for, where that is not the settings' size: the report's unit
     *  system is read off them (model/size-units.ts). */
    askedSizes?: (doc: ResultDocument) => number[] | undefined;
    /** The lines the CLI's report prints after its table, in the report's unit system. */
    tableLines?: (doc: ResultDocument, units: SizeUnits) => string[];
  };
  report?: {
    /** What the title says after the name ("up to 50 GB"); absent: the size (and preset). */
    titleParts?: (doc: ResultDocument) => string[] | undefined;
    /** What a result's name says after its date; absent: its size (settings.size). */
    nameSize?: (doc: ResultDocument) => string | undefined;
    /** The kind's own figures, before the per-step ones; `only`: no per-step figures at all. */
    metrics?: (doc: ResultDocument) => { metrics: Metric[]; only?: boolean } | undefined;
    /** The per-step MB/s figures are headline figures (not when the kind's own figures are). */
    stepsArePrimary?: boolean;
    /** The settings that make two results comparable, as words by name; absent: the common ones. */
    comparable?: (doc: ResultDocument, facets: Map<string, string>) => boolean;
    /** The method line says "writes flushed" (a read-only kind does not). */
    writes?: boolean;
    /** The kind's own figures as one table in exports: the metric group, when the result has them. */
    figureGroup?: { group: string; present: (doc: ResultDocument) => boolean };
    /** The title over the per-step table in exports. */
    testsTitle?: string;
    /** A format report's columns for this kind, [metric key, label]; `bySize`: one set per test
     *  size. Absent: every headline figure. */
    columns?: { pick: ReadonlyArray<readonly [string, string]>; bySize?: boolean };
    /** How a flag names many of its tests at once: "all 8 CrystalDiskMark tests"; `span` is the
     *  block sizes they cover ("4 KiB–100 MiB"). Absent: "all N tests". */
    testGroup?: { all: (n: number, span: string) => string; some: (n: number, of: number, span: string) => string };
    /** The bottleneck verdict its results carry, from the mean figures of one or more of them on
     *  one target (a format report's row), by the function that made it: an encryption verdict on
     *  that row restates it (model/cipher/report-verdict.ts), never a second rule. */
    bottleneck?: (docs: readonly ResultDocument[]) => Bottleneck | undefined;
    /** The verdicts its section states, as data, each with where it is said (the claims audit). */
    claims?: (doc: ResultDocument) => Array<{ where: string; claim: Claim }>;
    /** What the result found, in one sentence of the one renderer's words (its last run's verdict),
     *  for a screen that names no kind: the Quick Test's line on a network share. */
    verdictLine?: (doc: ResultDocument) => string | undefined;
    /** Sentences the exports state besides their tables (a verdict per run, a note), labelled. */
    statements?: (doc: ResultDocument) => Array<{ label: string; text: string }>;
    /** The bytes the test covered, where that is not the settings' size (the text export's profile). */
    testBytes?: (doc: ResultDocument) => number | undefined;
    /** Its block in the CrystalDiskMark-style text export: the heading and the labelled rows above
     *  the per-step lines; `metrics` by key. */
    textBlock?: (
      doc: ResultDocument,
      metrics: ReadonlyMap<string, Metric>,
    ) => { heading: string; rows: Array<[string, string]> } | undefined;
    /** Sections it adds to every export a result appears in (the Quick Test's "Will it work?"
     *  table); the formats render what the registry lists (REPORT_SECTIONS). */
    sections?: readonly ReportSection[];
  };
  /** Its settings on the Detailed screen, as a member of model/settings.ts's DetailedSettings. */
  screen?: { schema: z.ZodType };
  /** The Detailed screen's settings for this kind as the runner's options; absent: not on that screen. */
  fromScreen?: (s: DetailedSettings) => ScreenRun;
  /** A stop (Ctrl-C, Stop) keeps the steps it finished as the result, rather than none: what a
   *  verify proved before it was stopped. */
  keepsStopped?: boolean;
  /** Runs on a whole unmounted disk as well as in a folder (PlanTarget.wholeDevice), from a command of
   *  its own, `diskdial <command> --device DEV --confirm NAME`: the disk is proven and confirmed by
   *  the wizard's rules (identity, in use, the name typed) before the runner is called. */
  wholeDevice?: {
    command: string;
    /** The command's line in the help, after `diskdial <command> --device DEV --confirm NAME`. */
    usage: string;
    examples: readonly string[];
  };
  /** Its screen draws the measured MB/s while the test runs (the sustained write's curve). */
  liveCurve?: boolean;
  /** A result's MB/s against bytes written, per run with the knee's verdict (History draws them,
   *  Compare lays first runs over each other); undefined: the result has none. */
  curveRuns?: (doc: ResultDocument) => readonly CurveRun[] | undefined;
  /** Its steps are frame-paced (each I/O due at its time): a busy CPU can make its frames late, and
   *  the Quick Test's Will-it-work rows take its saved results as their frame-by-frame check. */
  paced?: boolean;
  /** Made from the command line only (no screen of its own): History's kind filter leaves it out. */
  cliOnly?: boolean;
  /** A plan of the format-and-compare wizard that runs this kind once per format, under its id
   *  and name (the plan and the protocol it reproduces); absent: the wizard does not offer it. */
  wizard?: {
    /** The plan in the wizard's sentences: "the sustained write". */
    what: string;
    /** What the protocol does on each format, in a sentence. */
    detail: string;
    /** What the plan was scaled to on this disk, in words; undefined: it was not. */
    scaled?: (plan: Plan) => string | undefined;
  };
  /** The share card's figures in `box` (the frame draws the rest); undefined: the plain list. */
  card?: (doc: ResultDocument, box: Box, metrics: readonly Metric[], opts?: CardOptions) => string | undefined;
}
