// The runs count and the rest between runs, as every Detailed panel asks them: the rest only
// matters (and is only shown) when there is more than one run.
import { NumberField } from './fields';

type Errors = Partial<Record<string, string>>;

export function RestField(p: {
  runs: number;
  restMinutes: number;
  maxRest: number;
  error: string | undefined;
  onChange(restMinutes: number): void;
  testId: string;
}) {
  if (p.runs <= 1) return null;
  return (
    <NumberField
      label="Rest between runs"
      unit="min"
      value={p.restMinutes}
      min={0}
      max={p.maxRest}
      onChange={p.onChange}
      error={p.error}
      testId={p.testId}
    />
  );
}

/** "Runs" then the rest field; test ids are `${prefix}-runs` and `${prefix}-rest`. */
export function RunsAndRest(p: {
  form: { runs: number; restMinutes: number };
  maxRuns: number;
  maxRest: number;
  errors: Errors;
  set(patch: { runs: number } | { restMinutes: number }): void;
  testIdPrefix: string;
}) {
  return (
    <>
      <NumberField
        label="Runs"
        value={p.form.runs}
        min={1}
        max={p.maxRuns}
        onChange={(runs) => p.set({ runs })}
        error={p.errors.runs}
        testId={`${p.testIdPrefix}-runs`}
      />
      <RestField
        runs={p.form.runs}
        restMinutes={p.form.restMinutes}
        maxRest={p.maxRest}
        error={p.errors.restMinutes}
        onChange={(restMinutes) => p.set({ restMinutes })}
        testId={`${p.testIdPrefix}-rest`}
      />
    </>
  );
}
