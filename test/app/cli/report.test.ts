// The CLI's human report for the detailed tests, from real result documents (test/fixtures/results,
// recorded from the CLI): the many-file lines with their fits, the sustained verdict and curve,
// the across-runs table.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatHashReport, formatReport } from '../../../app/src/cli/table.js';
import { sparkline } from '../../../app/src/model/kinds/sustained/cli.js';
import type { ResultDocument } from '../../../app/src/model/result.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/results');
const load = (name: string): ResultDocument => JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), 'utf8')) as ResultDocument;

describe('formatReport for the detailed tests', () => {
  it('files: the set in the header, each pass with aggregate, mean, median, trimmed mean and both fits', () => {
    const doc = load('files');
    const run = doc.files!.runs[0]!;
    run.read.leastSquares!.overheadMs = -1.334; // a least-squares intercept can fall below zero
    const text = formatReport(doc);
    // One unit system (issue 14, point 9): the set was asked in MB, so no "(1.27 GiB)" beside it.
    expect(text).toMatch(/, 24 files 1\.36 GB$/m);
    expect(text).toMatch(
      /^Many-file test \(custom\): 24 files, 3\.15 MB – 168 MB, 1\.36 GB in all, seed 326; written in random order, then read in random order$/m,
    );
    expect(text).toMatch(
      /^Write: 24 files, 1\.36 GB in 0\.78 s = 1739 MB\/s aggregate; per file mean 1580, median 1573, 20 % trimmed mean 1597 MB\/s$/m,
    );
    expect(text).toContain('Theil–Sen: 1869 MB/s + 1.80 ms per file; least squares: 1847 MB/s + 1.91 ms per file (R² 0.975)');
    // Below zero is shown as 0 with the reason, never as a negative time.
    expect(text).toMatch(
      /least squares: \d+ MB\/s \+ 0\.00 ms per file \(R² [\d.]+; the fit's intercept is below zero: per-file overhead too small to measure here\)/,
    );
    expect(text).not.toMatch(/[−-]1\.33/);
    expect(text).toMatch(/^Files Write\s+1738\.5\s/m);
  });

  it('sustained: the limit, the verdict and a sparkline', () => {
    const text = formatReport(load('sustained'));
    expect(text).toMatch(/^Sustained write: up to 2 GB asked, 2 GB written per run \(the size asked\)$/m);
    expect(text).toMatch(/^No slowdown within 2 GB: 2,936 MB\/s throughout$/m);
    expect(text).toMatch(/^ {2}[▁▂▃▄▅▆▇█]{60} {2}\(0 – 2 GB, peak \d+ MB\/s, 119 slices of 16\.8 MB\)$/m);
  });

  it('cdm with two runs: best of 2 and the across-runs table', () => {
    const text = formatReport(load('cdm'));
    expect(text).toContain('Best of 2');
    expect(text).toMatch(/^Across runs\s+n\s+Mean MB\/s\s+± SD\s+CV\s+Median\s+Best\s+p99 lat \(median\)$/m);
    expect(text).toMatch(/^SEQ1M Q8T1 Read\s+2\s+\d+/m);
  });

  it('sparkline scales to the peak and keeps at most the width asked', () => {
    expect(sparkline([0, 50, 100])).toBe('▁▅█'); // 50 % of 7 steps = 3.5, rounded to the 5th bar
    expect(
      sparkline(
        Array.from({ length: 1000 }, (_, i) => i),
        60,
      ),
    ).toHaveLength(60);
    expect(sparkline([])).toBe('');
  });
});

describe('the header of a result on a network share', () => {
  const onShare = (doc: ResultDocument): ResultDocument => {
    doc.target.fs = 'fuse.sshfs';
    doc.target.device = {
      model: 'unknown',
      bus: 'network',
      link: 'sshfs (SFTP) · 127.0.0.1:/srv/share · via lo',
      node: 'root@127.0.0.1:/srv/share',
    };
    doc.target.network = { protocol: 'SFTP', client: 'sshfs', server: '127.0.0.1', share: '/srv/share' };
    return doc;
  };

  it('names the share and its path, not "unknown, network", in the test and hash reports', () => {
    const text = formatReport(onShare(load('quick')));
    expect(text.split('\n')[1]).toMatch(/^ {2}fuse\.sshfs · sshfs \(SFTP\) · 127\.0\.0\.1:\/srv\/share · via lo, test file /);
    const hash = formatHashReport(onShare(load('hash')));
    expect(hash.split('\n')[1]).toMatch(/^ {2}fuse\.sshfs · sshfs \(SFTP\) · 127\.0\.0\.1:\/srv\/share · via lo; SHA-256 with /);
    expect(text + hash).not.toContain('unknown');
  });
});
