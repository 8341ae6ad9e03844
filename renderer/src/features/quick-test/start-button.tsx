// The one big round Start/Stop button between the dials. A real <button>, so Tab reaches it
// and Space/Enter press it; disabled with the reason spelled out next to it.
export interface StartButtonProps {
  running: boolean;
  stopping: boolean;
  disabled: boolean;
  onStart(): void;
  onStop(): void;
  describedBy?: string;
}

export function StartButton({ running, stopping, disabled, onStart, onStop, describedBy }: StartButtonProps) {
  const label = stopping ? 'Stopping…' : running ? 'Stop' : 'Start';
  return (
    <button
      type="button"
      className={`start-button${running ? ' start-button--running' : ''}`}
      disabled={disabled || stopping}
      aria-describedby={describedBy}
      onClick={running ? onStop : onStart}
    >
      <svg className="start-button__ring" viewBox="0 0 100 100" aria-hidden="true">
        <defs>
          <linearGradient id="start-ring" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0%" stopColor="#ff6a3d" />
            <stop offset="100%" stopColor="#2fd4a3" />
          </linearGradient>
        </defs>
        <circle
          cx="50"
          cy="50"
          r="46"
          fill="none"
          stroke="url(#start-ring)"
          strokeWidth="2.5"
          strokeDasharray="200 89"
          strokeLinecap="round"
        />
      </svg>
      <span className="start-button__label">{label}</span>
    </button>
  );
}
