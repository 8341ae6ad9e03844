// Says how the figures were measured: the cache mode the engine actually achieved and the data
// pattern, and whether to trust them by the one rule in model/trust.ts: green only when no
// warning flag fired; a warning (or buffered I/O, or zeros) turns it amber and names the flags.
import type { ResultDocument, ResultFlag } from '@model/result';
import { trustOf } from '@model/verdict/trust';

const CACHE_LABEL: Record<string, string> = {
  direct: 'direct I/O',
  nocache: 'uncached (F_NOCACHE)',
  'buffered-flushed': 'buffered + flush',
  buffered: 'buffered',
};

export function cacheLabel(mode: string): string {
  return CACHE_LABEL[mode] ?? mode;
}

export function CacheBadge({
  cacheMode,
  dataPattern,
  notes,
  testId = 'cache-badge',
  dataText,
  okTitle,
  flags,
}: {
  cacheMode: string | null;
  dataPattern: string | null;
  notes: string[];
  /** Several badges on one page (the Detailed screen) need their own test ids. */
  testId?: string;
  /** Words after the cache mode instead of the data pattern's (a user's own file was read). */
  dataText?: string;
  /** What an uncached result means, when not "wrote incompressible data". */
  okTitle?: string;
  /** The result's flags: any warning among them turns the badge amber and is named on it. */
  flags?: readonly ResultFlag[];
}) {
  if (!cacheMode) {
    return (
      <span className="badge badge--muted" title="Shown after the first write and read finish.">
        cache mode shown after a cycle
      </span>
    );
  }
  const trust = trustOf(flags ? [...flags] : []);
  const warn = trust.level === 'warn' || cacheMode.startsWith('buffered') || dataPattern === 'zeros';
  const text =
    `${cacheLabel(cacheMode)} · ${dataText ?? (dataPattern === 'zeros' ? 'zeros' : `${dataPattern ?? 'random'} data`)}` +
    (trust.named ? ` · ${trust.named}` : '');
  const title = warn
    ? (trust.level === 'warn' ? trust.title : notes.join(' ')) ||
      'The operating system cache was involved: the figures may show the cache, not the disk.'
    : (okTitle ?? 'The test bypassed the operating system cache and wrote incompressible data: the figures are the disk’s.');
  return (
    <span className={`badge ${warn ? 'badge--warn' : 'badge--ok'}`} title={title} tabIndex={0} data-testid={testId}>
      <span aria-hidden="true">{warn ? '⚠' : '●'}</span> {text}
      <span className="sr-only">. {title}</span>
    </span>
  );
}

/** The badge of a finished result: its own cache mode, data pattern and flags. */
export function ResultCacheBadge({ doc, testId }: { doc: Pick<ResultDocument, 'cacheMode' | 'dataPattern' | 'flags'>; testId: string }) {
  const flags = Array.isArray(doc.flags) ? doc.flags : [];
  return (
    <CacheBadge cacheMode={doc.cacheMode} dataPattern={doc.dataPattern} notes={flags.map((f) => f.message)} flags={flags} testId={testId} />
  );
}
