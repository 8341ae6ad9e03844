// A result's flags — what may make its figures not the disk's alone (above the interface ceiling,
// the OS cache, zeros, …) — each in plain words with a suggested fix, and a one-line summary.
// Severity shows as an icon and as words, never colour alone. Every screen showing a result uses it.
import type { ResultFlag } from '@model/result';
import { isWarning } from '@model/verdict/trust';

export type FlagSeverity = 'warning' | 'info';

/** The flag's severity as the trust verdict weighs it: anything but an explicit 'info' is a
 *  warning, and a cache or plausibility flag always is. */
export function flagSeverity(f: ResultFlag): FlagSeverity {
  return isWarning(f) ? 'warning' : 'info';
}

function SeverityIcon({ severity }: { severity: FlagSeverity }) {
  return severity === 'info' ? (
    <svg className="flag__icon" viewBox="0 0 20 20" aria-hidden="true" data-testid="flag-icon-info">
      <circle cx="10" cy="10" r="8.2" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <path d="M10 9v5" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      <circle cx="10" cy="6.2" r="1.1" fill="currentColor" />
    </svg>
  ) : (
    <svg className="flag__icon" viewBox="0 0 20 20" aria-hidden="true" data-testid="flag-icon-warning">
      <path d="M10 2.4 18.3 17H1.7Z" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
      <path d="M10 7.6v4.6" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      <circle cx="10" cy="14.6" r="1.1" fill="currentColor" />
    </svg>
  );
}

/** "2 things may make these figures not the disk’s alone", or a neutral line when all are notes. */
export function flagsSummary(flags: readonly ResultFlag[]): string {
  const warnings = flags.filter((f) => flagSeverity(f) === 'warning').length;
  return warnings > 0
    ? `${warnings} thing${warnings === 1 ? '' : 's'} may make these figures not the disk’s alone`
    : 'Notes on how these figures were measured';
}

/** The flags themselves, each with its icon, words and fix; any screen showing a result uses it. */
export function FlagsList({ flags }: { flags: readonly ResultFlag[] }) {
  return (
    <ul className="flags__list">
      {flags.map((f, i) => {
        const sev = flagSeverity(f);
        return (
          <li key={`${f.code}-${i}`} className={`flag flag--${sev}`} data-code={f.code}>
            <SeverityIcon severity={sev} />
            <div className="flag__body">
              <p className="flag__message">
                <span className="sr-only">{sev === 'info' ? 'Note: ' : 'Warning: '}</span>
                {f.message}
              </p>
              {f.fix && (
                <p className="flag__fix">
                  <span className="flag__fix-label">Fix:</span> {f.fix}
                </p>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
