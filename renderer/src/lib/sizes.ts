// How a size reads in the plan, the run and the report (a typed size is read by parseTypedSize in
// @model/units, one reader for every form).
import { sizeText } from '@model/report/metrics';

/** How a size reads in the plan, the run and the report: "1 GB", "256 MiB", "1 GiB" — in the
 *  units it was asked in, so a 1 GB test aligned down to 953 MiB is still "1 GB" (core's rule). */
export function sizeLabel(bytes: number): string {
  return Number.isFinite(bytes) && bytes > 0 ? sizeText(bytes) : '—';
}
