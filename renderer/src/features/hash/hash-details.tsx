// The digest and how it was measured: the digest in monospace, in groups of eight that wrap at
// group boundaries (copying gives the plain hex), a Copy button; whether it matches the expected
// digest; and the crypto library, the file, the cache mode of the read stages, the pipeline's
// chunking, the core's notes and the result's flags. The digest shows as soon as the read + hash
// stage knows it.
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import type { CacheMode } from '@model/engine-types';
import type { HashSection, ResultDocument } from '@model/result';
import { CacheBadge } from '../../components/cache-badge';
import { FlagsList, flagsSummary } from '../../components/flags-list';
import { pipelineLine } from '../../lib/hash-model';
import { algoLabel } from './settings';
import { selectLiveJob, useHashStore } from './store';
import { hashFileBytes, hashFileSize } from '@model/trust';
import { CardHeader } from '../../components/card-header';

type CopyState = 'idle' | 'copied' | 'selected';

/** Copies `text`; without a clipboard (or when it refuses), selects the text in `source` so
 *  the user can copy it with the keyboard. */
function CopyButton({ text, source }: { text: string; source: RefObject<HTMLElement | null> }) {
  const [state, setState] = useState<CopyState>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(t);
  }, [state]);

  const copy = async () => {
    try {
      if (navigator.clipboard?.writeText) {
        await navigator.clipboard.writeText(text);
        setState('copied');
        return;
      }
    } catch {
      // Refused (no permission, not focused): fall back to a selection.
    }
    const el = source.current;
    if (el) window.getSelection()?.selectAllChildren(el);
    let copied: boolean;
    try {
      copied = typeof document.execCommand === 'function' && document.execCommand('copy');
    } catch {
      copied = false;
    }
    setState(copied ? 'copied' : 'selected');
  };

  return (
    <>
      <button type="button" className="button hash-copy" data-testid="hash-copy" onClick={() => void copy()}>
        {state === 'copied' ? 'Copied' : 'Copy'}
        <span className="sr-only"> the digest</span>
      </button>
      <span className="hash-copy__note" role="status" data-testid="hash-copy-note">
        {state === 'copied' ? 'Copied to the clipboard.' : state === 'selected' ? 'Selected: press Ctrl+C (⌘C on a Mac) to copy.' : ''}
      </span>
    </>
  );
}

/** Hex in groups of 8 digits, a line break allowed between groups only; the text (and what a
 *  selection copies) stays the plain hex. */
function HexGroups({ hex }: { hex: string }) {
  const groups = hex.match(/.{1,8}/g) ?? [hex];
  return (
    <>
      {groups.map((g, i) => (
        <span key={i} className="hash-digest__group">
          {i > 0 && <wbr />}
          {g}
        </span>
      ))}
    </>
  );
}

function Digest({ digest, labelId }: { digest: string; labelId: string }) {
  const ref = useRef<HTMLElement>(null);
  return (
    <div className="hash-digest">
      <code ref={ref} className="hash-digest__hex" data-testid="hash-digest" aria-labelledby={labelId}>
        <HexGroups hex={digest} />
      </code>
      <div className="hash-digest__actions">
        <CopyButton key={digest} text={digest} source={ref} />
      </div>
    </div>
  );
}

const CACHE_RANK: Record<string, number> = { direct: 0, nocache: 0, 'buffered-flushed': 1, buffered: 2 };

/** The weaker cache mode of the two read stages (one buffered stage taints the comparison). */
export function readCacheMode(h: HashSection): CacheMode {
  const a = h.read.cacheMode;
  const b = h.readHash.cacheMode;
  return (CACHE_RANK[b] ?? 3) > (CACHE_RANK[a] ?? 3) ? b : a;
}

function Verify({ verify, algo }: { verify: NonNullable<HashSection['verify']>; algo: string }) {
  return (
    <div
      className={`hash-verify hash-verify--${verify.match ? 'ok' : 'bad'}`}
      data-testid="hash-verify"
      role={verify.match ? undefined : 'alert'}
    >
      <p className="hash-verify__text">
        <span aria-hidden="true">{verify.match ? '✓' : '✗'}</span> {verify.text}
      </p>
      {!verify.match && (
        <p className="hash-verify__expected">
          Expected ({verify.source}):{' '}
          <code className="hash-verify__hex" data-testid="hash-verify-expected">
            <HexGroups hex={verify.expected} />
          </code>
          <span className="sr-only">; the file’s {algoLabel(algo)} is shown above</span>
        </p>
      )}
    </div>
  );
}

function Facts({ doc, h }: { doc: ResultDocument; h: HashSection }) {
  const flags = Array.isArray(doc.flags) ? doc.flags : [];
  const cacheNotes = [h.read.cacheNote, h.readHash.cacheNote, ...flags.map((f) => f.message)].filter((x): x is string => !!x);
  // What the core noted about the run ("The file is small …").
  const notes = Array.isArray(doc.notes) ? doc.notes : [];
  const pipeline = pipelineLine(h.readHash);
  const cpu = doc.host?.cpu ? ` · on ${doc.host.cpu}${doc.host.cores ? ` (${doc.host.cores} cores)` : ''}` : '';
  return (
    <div className="result-meta" data-testid="hash-meta">
      <dl className="hash-facts">
        <div>
          <dt>Hashed with</dt>
          <dd data-testid="hash-provider">
            {algoLabel(h.algo)} · {h.provider}
            {cpu}
          </dd>
        </div>
        <div>
          <dt>File</dt>
          <dd data-testid="hash-file">
            <span className="hash-facts__path">{h.file.path}</span> · {hashFileSize(hashFileBytes(doc))} ·{' '}
            {h.file.generated ? 'a test file DiskDial wrote for the test, and removed afterwards' : 'your file, only read'}
          </dd>
        </div>
        <div>
          <dt>Reading</dt>
          <dd className="hash-facts__reading">
            <CacheBadge
              cacheMode={readCacheMode(h)}
              dataPattern={h.file.generated ? doc.dataPattern : null}
              dataText={h.file.generated ? undefined : 'the file’s own data'}
              okTitle="The reads bypassed the operating system cache: the figures are the disk’s."
              notes={cacheNotes}
              flags={doc.flags}
              testId="hash-cache-badge"
            />
            {pipeline && <span className="hash-facts__pipeline">read + hash: {pipeline}</span>}
          </dd>
        </div>
      </dl>
      {notes.length > 0 && (
        <ul className="panel-notes" data-testid="hash-doc-notes">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {flags.length > 0 && (
        <div className="result-meta__flags" data-testid="hash-flags">
          <p className="result-meta__summary">{flagsSummary(flags)}</p>
          <FlagsList flags={flags} />
        </div>
      )}
    </div>
  );
}

export function HashDetails() {
  const live = useHashStore(selectLiveJob);
  const result = useHashStore((s) => s.result);
  const titleId = useId();
  const digestLabelId = useId();
  const doc = live ? undefined : (result ?? undefined);
  const h = doc?.hash;
  const liveDigest = live?.stages.find((s) => s.stage === 'read-hash')?.digest;
  const digest = h?.digest ?? liveDigest;
  const algo = h?.algo ?? live?.settings.algo ?? 'sha256';
  if (!digest && !h) return null;

  return (
    <section className="card hash-details" aria-labelledby={titleId} data-testid="hash-details">
      <CardHeader
        titleId={titleId}
        title={<>Digest</>}
        subtitle={<>The file’s {algoLabel(algo)}, lowercase hex</>}
        subtitleId={digestLabelId}
      />
      <div className="hash-details__body">
        {digest && <Digest digest={digest} labelId={digestLabelId} />}
        {h?.verify && <Verify verify={h.verify} algo={h.algo} />}
        {doc && h && <Facts doc={doc} h={h} />}
      </div>
    </section>
  );
}
