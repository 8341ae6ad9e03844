// Number formatting shared by the screens: decimal units (1 GB = 10^9 bytes), as the engine
// and the CLI report, so every figure on screen matches a result document.

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  const digits = v >= 100 || i === 0 ? 0 : 1;
  return `${v.toFixed(digits)} ${units[i]}`;
}

/** A speed for the big readouts: no decimals above 100 MB/s, one below. */
export function formatMBps(mbps: number): string {
  if (!Number.isFinite(mbps) || mbps <= 0) return '0';
  return mbps >= 100 ? Math.round(mbps).toLocaleString('en-US') : mbps.toFixed(1);
}
