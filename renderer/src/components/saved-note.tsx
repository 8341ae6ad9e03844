// Next to a finished result on the test screens: "Saved to History" and a Share button that opens
// the result's card — or, quietly, why it could not be saved (the test itself still succeeded).
import { useState } from 'react';

import { ShareDialog } from './share-dialog';
import type { SavedNote as Saved } from '@model/events';

export function SavedNote({
  saved,
  name,
  testId = 'saved-note',
}: {
  saved: Saved | null | undefined;
  name?: string | undefined;
  testId?: string;
}) {
  const [sharing, setSharing] = useState(false);
  if (!saved) return null;
  if ('error' in saved) {
    return (
      <span className="saved-note saved-note--error" data-testid={testId}>
        Not saved to History: {saved.error.message}
      </span>
    );
  }
  return (
    <span className="saved-note" data-testid={testId}>
      <span className="saved-note__text">
        <span aria-hidden="true">✓ </span>Saved to History
      </span>
      <button type="button" className="button button--small" onClick={() => setSharing(true)} data-testid={`${testId}-share`}>
        Share
      </button>
      {sharing && <ShareDialog id={saved.id} name={name} onClose={() => setSharing(false)} />}
    </span>
  );
}
