// The share test in every export and comparison (report/section.ts): one result's block (the
// figures and both verdicts), several side by side (a campaign's setups: a column each, and which
// part of the path changed from the first), its CSV rows and its JSON keys. Words come from
// model/verdict/share.ts only.
import { mbText as mb } from '../../report/text-table.js';
import type { ReportSection, SectionBlock, SectionCsvRow, Table } from '../../report/section.js';
import type { ResultDocument } from '../../result.js';
import {
  SHARE_LABEL,
  SMALL_FILE_LABEL,
  shareChange,
  shareChangeText,
  shareText,
  smallFileText,
  type ShareVerdict,
} from '../../verdict/share.js';
import type { ShareRun, ShareSection } from './result.js';

/** "Run 2: " before a run's words when there are several. */
const runLabel = (s: ShareSection, r: ShareRun): string => (s.runs.length > 1 ? ` (run ${r.run})` : '');

/** Each run's two verdicts, labelled, as every export says them. */
export function shareStatements(s: ShareSection): Array<{ label: string; text: string }> {
  return s.runs.flatMap((r) => [
    { label: `Large transfers${runLabel(s, r)}`, text: shareText(r.verdict) },
    { label: `Small files${runLabel(s, r)}`, text: smallFileText(r.fileVerdict) },
  ]);
}

/** The link's rate as the OS gave it ("1 Gbit/s", "Wi-Fi, 866.7 Mbit/s PHY"); undefined when the
 *  verdict knew no link ceiling. */
export function linkRateText(v: ShareVerdict): string | undefined {
  const r = v.figures.linkMbps;
  if (!(v.figures.linkCeilingMBps > 0) || !(r > 0)) return undefined;
  const rate = r >= 1000 ? `${r / 1000} Gbit/s` : `${r} Mbit/s`;
  return v.link?.wireless ? `Wi-Fi, ${rate} PHY` : rate;
}

/** A time as the verdicts write it: three figures at most ("0.412", "3.10", "12.4"). */
export const msText = (x: number): string => (x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));

const last = (doc: ResultDocument): ShareRun | undefined => doc.share?.runs.at(-1);
const ms = (x: number): string => x.toFixed(3);

function rowsOf(runs: ReadonlyArray<ShareRun | undefined>, rttMs: ReadonlyArray<number | undefined>): Table['rows'] {
  const cell = (f: (r: ShareRun, i: number) => string) => runs.map((r, i) => ({ text: r ? f(r, i) : '—' }));
  return [
    [{ text: 'Large transfers' }, ...cell((r) => SHARE_LABEL[r.verdict.outcome])],
    [{ text: "From the server's memory (MB/s)" }, ...cell((r) => mb(r.verdict.figures.ceilingMBps))],
    [{ text: "Server's disk, read cold (MB/s)" }, ...cell((r) => mb(r.diskReadMBps))],
    [{ text: "Server's disk, write (MB/s)" }, ...cell((r) => mb(r.diskWriteMBps))],
    [{ text: 'Small files' }, ...cell((r) => SMALL_FILE_LABEL[r.fileVerdict.outcome])],
    [{ text: 'A small file (ms)' }, ...cell((r) => ms(r.fileVerdict.figures.fileMs))],
    [{ text: 'Round trip (ms)' }, ...cell((_r, i) => (rttMs[i] !== undefined ? ms(rttMs[i]) : 'not measured'))],
  ];
}

function shareBlock(doc: ResultDocument): SectionBlock | null {
  const s = doc.share;
  if (!s || s.runs.length === 0) return null;
  const head = ['', ...s.runs.map((r) => (s.runs.length > 1 ? `Run ${r.run}` : 'Figure'))];
  return {
    heading: 'What limits the share',
    tables: [
      {
        head,
        rows: rowsOf(
          s.runs,
          s.runs.map(() => s.rttMs),
        ),
      },
    ],
    notes: shareStatements(s).map(({ label, text }) => `${label}: ${text}`),
  };
}

/** Setups side by side: the last run of each, and what changed from the first. */
function shareCompareBlock(docs: readonly ResultDocument[], labels: readonly string[]): SectionBlock | null {
  const runs = docs.map(last);
  const at = runs.findIndex((r) => r !== undefined);
  if (at < 0) return null;
  const base = runs[at]!;
  const name = (i: number): string => labels[i] ?? `#${i + 1}`;
  const notes: string[] = [];
  runs.forEach((r, i) => {
    if (!r || i === at) return;
    const c = shareChange({ bulk: base.verdict, files: base.fileVerdict }, { bulk: r.verdict, files: r.fileVerdict });
    notes.push(shareChangeText(c, name(at), name(i)));
  });
  return {
    heading: 'What limits the share',
    tables: [
      {
        head: ['', ...docs.map((_, i) => name(i))],
        rows: rowsOf(
          runs,
          docs.map((d) => d.share?.rttMs),
        ),
      },
    ],
    notes,
  };
}

export const SHARE_CSV_HEAD = [
  'share_verdict',
  'server_memory_mbps',
  'server_disk_read_mbps',
  'small_file_verdict',
  'small_file_ms',
  'rtt_ms',
] as const;

function shareCsvRows(doc: ResultDocument): SectionCsvRow[] {
  const s = doc.share;
  return (s?.runs ?? []).map((r) => ({
    test: 'share limits',
    share_verdict: r.verdict.outcome,
    server_memory_mbps: Math.round(r.verdict.figures.ceilingMBps * 100) / 100,
    server_disk_read_mbps: Math.round(r.diskReadMBps * 100) / 100,
    small_file_verdict: r.fileVerdict.outcome,
    small_file_ms: Math.round(r.fileVerdict.figures.fileMs * 1000) / 1000,
    rtt_ms: s?.rttMs ?? '',
  }));
}

/** The section the share test adds to every report it appears in. */
export const shareSectionReport: ReportSection = {
  csvHead: SHARE_CSV_HEAD,
  one: (doc) => shareBlock(doc),
  many: (docs, labels) => shareCompareBlock(docs, labels),
  csvRows: (doc) => shareCsvRows(doc),
  // The section is the document's own `share` key: nothing is derived for the JSON export.
  json: () => ({}),
};
