// The labelled select above a list or a comparison (History's drive and kind filters, the
// baseline of a comparison or report), and the warnings a comparison lists before its table.
import { useId, type ReactNode } from 'react';

export function FilterSelect(p: {
  label: string;
  value: string | undefined;
  onChange(value: string): void;
  testId: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <span className="history-filter">
      <label htmlFor={id} className="field__label">
        {p.label}
      </label>
      <select id={id} className="select" value={p.value} onChange={(e) => p.onChange(e.target.value)} data-testid={p.testId}>
        {p.children}
      </select>
    </span>
  );
}

/** Each warning with a ⚠ (hidden from screen readers, the words say it); nothing when none. */
export function CompareWarnings({ warnings, testId }: { warnings: readonly string[]; testId: string }) {
  if (warnings.length === 0) return null;
  return (
    <ul className="compare-warnings" data-testid={testId}>
      {warnings.map((w) => (
        <li key={w}>
          <span aria-hidden="true">⚠ </span>
          {w}
        </li>
      ))}
    </ul>
  );
}
