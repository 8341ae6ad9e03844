// A verdict is data first: what was decided (outcome), from which figures, by which rule. Words
// come second, from the verdict's own renderer in this folder, so every screen, export, card and
// CLI line says the same thing and tests can check the claim against the figures beside it.
// Browser-safe: no node:* imports.

/** The families of verdicts DiskDial states; each has one module in model/verdict/. */
export type VerdictFamily = 'compare' | 'bottleneck' | 'will-it-work' | 'paced' | 'integrity' | 'trust' | 'capacity' | 'share';

export interface Claim<F extends VerdictFamily = VerdictFamily, O extends string = string> {
  family: F;
  outcome: O;
  /** The figures the outcome was decided from, by name (MB/s, ratios, counts…). */
  figures: Record<string, number>;
  /** The rule applied, in plain words (printed under reports). */
  rule: string;
}
