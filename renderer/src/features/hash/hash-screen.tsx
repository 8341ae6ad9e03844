// The Hash screen (Dintch-style): how fast a file streams in uncached, how fast it streams in
// while being hashed, and how fast this CPU hashes in memory on one core and on all — so the
// user sees whether the disk or the CPU limits checking a file, and gets its digest (verified
// against an expected one when given). One test runs at a time across all screens: the app
// passes in why Start is locked while another screen's test runs.
import { useId, useState } from 'react';
import { CheckPanel } from './check-panel';
import { selectCheckBusy, useCheckStore } from './check-store';
import { HashDetails } from './hash-details';
import { HashFigures } from './hash-figures';
import { HashJobBar } from './hash-job-bar';
import { HashSettingsForm } from './hash-settings';
import { SavedNote } from '../../components/saved-note';
import { selectHashBusy, selectLiveJob, useHashStore } from './store';
import { useHashEvents } from './use-hash-events';
import { CardHeader } from '../../components/card-header';

export interface HashScreenProps {
  /** Why no hash test can start now for a reason outside this screen (another test is running). */
  lockedReason?: string | undefined;
}

type Mode = 'file' | 'folder';
const MODES: ReadonlyArray<[Mode, string]> = [
  ['file', 'Hash a file'],
  ['folder', 'Check a folder'],
];

export function HashScreen({ lockedReason }: HashScreenProps = {}) {
  const checking = useCheckStore(selectCheckBusy);
  const [mode, setMode] = useState<Mode>(checking ? 'folder' : 'file');
  const hashing = useHashStore(selectHashBusy);
  const modes = (
    <div className="segmented" role="radiogroup" aria-label="What to hash" data-testid="hash-mode">
      {MODES.map(([m, label]) => (
        <button
          key={m}
          type="button"
          role="radio"
          aria-checked={mode === m}
          className="segment"
          data-testid={`hash-mode-${m}`}
          disabled={hashing || checking}
          onClick={() => setMode(m)}
        >
          {label}
        </button>
      ))}
    </div>
  );
  return mode === 'folder' ? (
    <FolderMode modes={modes} lockedReason={lockedReason} />
  ) : (
    <FileMode modes={modes} lockedReason={lockedReason} />
  );
}

/** The screen's card: the title, what this mode does, the mode switch, then the mode's own parts. */
function Panel({
  testId,
  subtitle,
  modes,
  children,
}: {
  testId: string;
  subtitle: string;
  modes: React.ReactNode;
  children: React.ReactNode;
}) {
  const titleId = useId();
  return (
    <section className="card hash-panel" aria-labelledby={titleId} data-testid={testId}>
      <CardHeader titleId={titleId} title={<>Hash</>} subtitle={<>{subtitle}</>} />
      <div className="detailed-panel__body">
        {modes}
        {children}
      </div>
    </section>
  );
}

function FolderMode({ modes, lockedReason }: { modes: React.ReactNode; lockedReason?: string | undefined }) {
  return (
    <div className="hash">
      <Panel
        testId="check-screen"
        subtitle="Every file of a folder hashed and checked against its manifest: what changed, what is missing, what is new."
        modes={modes}
      >
        <CheckPanel lockedReason={lockedReason} />
      </Panel>
    </div>
  );
}

function FileMode({ modes, lockedReason }: { modes: React.ReactNode; lockedReason?: string | undefined }) {
  useHashEvents();
  const busy = useHashStore(selectHashBusy);
  const live = useHashStore(selectLiveJob);
  const saved = useHashStore((s) => (s.result ? s.saved : null));
  return (
    <div className="hash">
      <Panel
        testId="hash-panel"
        subtitle="How fast a file streams in and gets its digest — and whether the disk or the CPU is the limit."
        modes={modes}
      >
        <HashSettingsForm disabled={busy} />
        <HashJobBar lockedReason={lockedReason} />
        {!live && saved && (
          <div className="saved-row">
            <SavedNote saved={saved} testId="hash-saved" />
          </div>
        )}
      </Panel>
      <HashFigures />
      <HashDetails />
    </div>
  );
}
