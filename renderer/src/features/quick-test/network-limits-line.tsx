// Under the Quick Test's dials, when the chosen target is a network share: what is known about
// what limits it, in one line. The newest saved result of the kind that measures a share (the
// registry's `networkOnly` kind with a Detailed panel) on the same share, its verdict in the one
// renderer's words and its date; with none, an offer to find out that opens that kind's Detailed
// panel for the target chosen at the top. Asked again each time the screen is shown, so a test
// just run on the Detailed screen is the one said.
import { useEffect, useState } from 'react';
import type { TargetInfo } from '@model/history';
import { RUN_KINDS } from '@model/kinds/registry';
import { dateTimeText } from '@model/report/metrics';
import { newestResultOn, type SavedResult } from '../../lib/last-result';
import { useNavigationStore } from '../../lib/navigation';
import { onShare } from '../../lib/target-link';

/** The kind that says what limits a share, when the Detailed screen runs it. */
const LIMITS_KIND = RUN_KINDS.find((k) => k.networkOnly && k.fromScreen && k.report?.verdictLine);

export function NetworkLimitsLine({ target, active }: { target: TargetInfo | undefined; active: boolean }) {
  const openPanel = useNavigationStore((s) => s.openPanel);
  const [known, setKnown] = useState<{ path: string; doc: SavedResult | undefined } | null>(null);
  const kind = onShare(target) ? LIMITS_KIND : undefined;
  const path = target?.path;
  const name = target?.name;
  const mountPoint = target?.mountPoint;
  useEffect(() => {
    if (!kind || !active || path === undefined || name === undefined || mountPoint === undefined) return;
    let current = true;
    void newestResultOn({ path, name, mountPoint }, kind.id).then(
      (doc) => current && setKnown({ path, doc }),
      // A lost connection: nothing is known, and nothing is said.
      () => current && setKnown(null),
    );
    return () => {
      current = false;
    };
  }, [kind, active, path, name, mountPoint]);
  if (!kind || !known || known.path !== path) return null;
  const verdict = known.doc ? kind.report?.verdictLine?.(known.doc) : undefined;
  if (known.doc && verdict)
    return (
      <p className="limits-line" data-testid="limits-line">
        What limits this share (measured {dateTimeText(known.doc.startedAt)}): {verdict}
      </p>
    );
  return (
    <p className="limits-line" data-testid="limits-line">
      What limits this share, the link, the server’s disk or the protocol, has not been measured.{' '}
      <button type="button" className="link-button" data-testid="limits-find-out" onClick={() => openPanel(kind.id)}>
        Find out
      </button>
    </p>
  );
}
