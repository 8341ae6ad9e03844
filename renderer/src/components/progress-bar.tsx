// The one progress bar every running job shows (Quick Test, Detailed, Hash, the wizard): an ARIA
// progressbar named for its job, 0–100, its fill the write-to-read gradient. The fill is scaled,
// not resized: a width transition re-laid out and repainted the page on every frame of a test.

export interface ProgressBarProps {
  /** What it measures, for screen readers: "Progress of the Quick Test". */
  label: string;
  /** 0–100. */
  pct: number;
  className?: string;
  testId?: string;
}

export function ProgressBar({ label, pct, className, testId }: ProgressBarProps) {
  return (
    <div
      className={`job-progress${className ? ` ${className}` : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      data-testid={testId}
    >
      <div className="job-progress__fill" style={{ transform: `scaleX(${Math.min(100, Math.max(0, pct)) / 100})` }} />
    </div>
  );
}
