// The way back to the list, the same in the result view and the compare view.
export function BackToHistory({ onBack }: { onBack(): void }) {
  return (
    <button type="button" className="button" onClick={onBack} data-testid="history-back">
      ← History
    </button>
  );
}
