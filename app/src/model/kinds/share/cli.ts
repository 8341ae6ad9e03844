// The share test on the command line: its flag, the common flags it refuses, its line under
// `run --help`, and its lines under the CLI's table: the figures and the two verdicts.
import { mbText as mb } from '../../report/text-table.js';
import { parseWholeNumber } from '../../units.js';
import type { KindModule } from '../types.js';
import { shareStatements } from './section.js';
import { SHARE_MAX_FILES } from './plan.js';

const SET = 'does not apply to --test share: it sets its own sequential and small-file steps';

export const shareCli = {
  flags: { files: 'string' },
  flagRange: { files: `1-${SHARE_MAX_FILES}` },
  refuse: {
    bs: `--bs ${SET}`,
    qd: `--qd ${SET}`,
    threads: `--threads ${SET}`,
    seconds: '--seconds does not apply to --test share: each step moves its whole file once',
  },
  summary: `network shares only: what limits the share, the link, the server's
disk or the protocol. A --size file (default 1GB, more than the
server caches) written and read cold, a 32 MiB file read twice from
the server's memory, and --files 4 KiB files (default 100) set
against the round trip to the server`,
  parse: (flag) => {
    const files = flag('files');
    return files !== undefined ? { share: { files: parseWholeNumber(files, 'files', 1, SHARE_MAX_FILES) } } : {};
  },
  tableLines: (doc) => {
    const s = doc.share;
    if (!s) return [];
    const out = [''];
    for (const r of s.runs) {
      const ops = r.fileOps;
      out.push(
        `${s.runs.length > 1 ? `Run ${r.run}: ` : ''}server's memory ${mb(r.verdict.figures.ceilingMBps)} MB/s (reads of ${mb(r.cacheFirstMBps)} and ${mb(r.cacheMBps)}); server's disk ${mb(r.diskReadMBps)} MB/s read cold, ${mb(r.diskWriteMBps)} MB/s written`,
        `A small file: stat ${ops.statMs.toFixed(3)} + open ${ops.openMs.toFixed(3)} + read ${ops.readMs.toFixed(3)} + close ${ops.closeMs.toFixed(3)} ms${s.rttMs !== undefined ? `; round trip ${s.rttMs.toFixed(3)} ms` : '; round trip not measured'}`,
      );
    }
    for (const { label, text } of shareStatements(s)) out.push(`${label}: ${text}`);
    return out;
  },
} as const satisfies KindModule['cli'];
