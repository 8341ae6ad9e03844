// Sizes as a person reads them on the settings they chose ("1 GB", "64 MiB"): every report view's
// one rule, a leaf the kinds' report rows can use too.

/** Bytes as a person reads them on the settings they chose: powers of two as GiB/MiB, the rest as GB/MB. */
export function sizeText(bytes: number, decimalOnly = false): string {
  const GiB = 1024 ** 3;
  const MiB = 1024 ** 2;
  // A decimal size the engine aligned down to whole MiB (Blackmagic's "1 GB" runs 953 MiB) is
  // named as it was chosen.
  const wholeGB = Math.round(bytes / 1e9);
  if (wholeGB >= 1 && wholeGB < 1000 && bytes % (GiB / 4) !== 0 && Math.abs(bytes - wholeGB * 1e9) <= 0.001 * wholeGB * 1e9)
    return `${wholeGB} GB`;
  const asked = decimalAlignedFrom(bytes);
  if (asked !== undefined) return asked >= 1e9 ? `${asked / 1e9} GB` : `${asked / 1e6} MB`;
  if (!decimalOnly && bytes >= GiB && bytes % (GiB / 4) === 0) return `${bytes / GiB} GiB`;
  if (!decimalOnly && bytes >= MiB && bytes < GiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1e12) return `${round(bytes / 1e12)} TB`;
  if (bytes >= 1e9) return `${round(bytes / 1e9)} GB`;
  if (bytes >= 1e6) return `${round(bytes / 1e6)} MB`;
  if (bytes >= 1e3) return `${round(bytes / 1e3)} kB`;
  return `${bytes} B`;
}

/** The round decimal size (two significant figures of MB: 20 MB, 750 MB, 1.5 GB) a whole-MiB
 *  size was aligned down from, if it looks like one: "20 MB" runs 19 MiB, "750 MB" 715 MiB. A
 *  multiple of 16 MiB (16, 64, 256 MiB…) is taken as asked in binary. */
function decimalAlignedFrom(bytes: number): number | undefined {
  const MiB = 1024 ** 2;
  if (!(bytes >= MiB) || bytes >= 1e12 || bytes % MiB !== 0 || (bytes / MiB) % 16 === 0) return undefined;
  // The smallest two-figure number of MB above the size, within the one MiB it was aligned by.
  const step = 10 ** Math.max(0, Math.floor(Math.log10(bytes / 1e6)) - 1) * 1e6;
  const candidate = Math.ceil((bytes + 1) / step) * step;
  return candidate - bytes < MiB ? candidate : undefined;
}

function round(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1).replace(/\.0$/, '') : x.toFixed(2).replace(/\.?0+$/, '');
}
