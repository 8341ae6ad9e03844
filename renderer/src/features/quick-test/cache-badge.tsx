// Says how the figures were measured: the cache mode the engine actually achieved and the data
// pattern. Anything but uncached I/O is shown as a warning, with the reason on hover/focus.
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
}) {
  if (!cacheMode) {
    return (
      <span className="badge badge--muted" title="Shown after the first write and read finish.">
        cache mode shown after a cycle
      </span>
    );
  }
  const warn = cacheMode.startsWith('buffered') || dataPattern === 'zeros';
  const text = `${cacheLabel(cacheMode)} · ${dataText ?? (dataPattern === 'zeros' ? 'zeros' : `${dataPattern ?? 'random'} data`)}`;
  const title = warn
    ? notes.join(' ') || 'The operating system cache was involved: the figures may show the cache, not the disk.'
    : (okTitle ?? 'The test bypassed the operating system cache and wrote incompressible data: the figures are the disk’s.');
  return (
    <span className={`badge ${warn ? 'badge--warn' : 'badge--ok'}`} title={title} tabIndex={0} data-testid={testId}>
      <span aria-hidden="true">{warn ? '⚠' : '●'}</span> {text}
      <span className="sr-only">. {title}</span>
    </span>
  );
}
