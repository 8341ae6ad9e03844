// DiskDial's CrystalDiskMark-style text against a real CrystalDiskMark 8.0.4 "Copy" text
// (test/fixtures/cdm/): a result with the fixture's own figures and settings renders line for line
// the same — widths, separators, section heads, the Time line and its trailing space. Only what
// names the tool or the machine may differ: the program line, the layout line (right-aligned as
// CrystalDiskMark's site line), Mode, Date and OS.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultDocument, ResultTest } from '../../../../app/src/model/result.js';
import { renderExport } from '../../../../app/src/model/report/export.js';

const FIXTURES = path.join(import.meta.dirname, '../../..', 'fixtures');
const COPY = readFileSync(path.join(FIXTURES, 'cdm', 'crystaldiskmark-8.0.4-copy.txt'), 'utf8');
const GiB = 1024 ** 3;
const LINE = /^ {2}(SEQ|RND) +(\d+)(MiB|KiB) \(Q= *(\d+), T= *(\d+)\): +([\d.]+) MB\/s \[ *([\d.]+) IOPS\] < *([\d.]+) us>$/;

/** The fixture's figures as the tests of a 5-run result: run 1 has them, runs 2-5 are slower. */
function fixtureTests(template: ResultTest): ResultTest[] {
  const out: ResultTest[] = [];
  let section = '';
  for (const line of COPY.split('\n')) {
    const head = /^\[(\w+)\]/.exec(line);
    if (head) section = head[1]!;
    const m = LINE.exec(line);
    if (!m) continue;
    const [, kind, n, unit, qd, threads, mbps, iops, lat] = m;
    const seq = kind === 'SEQ';
    const rw =
      section === 'Read' ? (seq ? 'read' : 'randread') : section === 'Write' ? (seq ? 'write' : 'randwrite') : seq ? 'rw' : 'randrw';
    const bs = Number(n) * (unit === 'MiB' ? 1024 * 1024 : 1024);
    for (let run = 1; run <= 5; run++) {
      const slower = run === 1 ? 1 : 1 - run / 100;
      out.push({
        ...structuredClone(template),
        name: `${kind}${n}${unit === 'MiB' ? 'M' : 'K'} Q${qd}T${threads} ${section}`,
        rw: rw as ResultTest['rw'],
        bs,
        qd: Number(qd),
        threads: Number(threads),
        mbps: Number(mbps) * slower,
        iops: Number(iops) * slower,
        latencyUs: { ...template.latencyUs, mean: Number(lat) },
        run,
      });
    }
  }
  return out;
}

function likeTheFixture(): ResultDocument {
  const doc = JSON.parse(readFileSync(path.join(FIXTURES, 'results', 'cdm.json'), 'utf8')) as ResultDocument;
  doc.tests = fixtureTests(doc.tests[0]!);
  doc.settings = { ...doc.settings, preset: 'nvme', mode: 'all', runs: 5, size: GiB, seconds: 5, intervalSeconds: 5, rwmixread: 70 };
  delete doc.summary;
  doc.target = { ...doc.target, volume: 'C:', totalBytes: 1862 * GiB, freeBytes: (1862 - 79) * GiB };
  doc.flags = [];
  doc.notes = [];
  return doc;
}

describe('CrystalDiskMark 8 "Copy" text, line for line', () => {
  it('renders the fixture’s figures in the fixture’s layout', () => {
    // The fixture's lines (its text ends with a newline, as ours does).
    const want = COPY.split('\n').slice(0, -1);
    expect(COPY.endsWith('\n')).toBe(true);
    const got = renderExport([likeTheFixture()], 'txt').text.split('\n');
    expect(want.filter((l) => LINE.test(l))).toHaveLength(12);
    // Values that name the tool or the machine: the rest of the line is compared.
    const machine: Array<[number, RegExp]> = [
      [1, /^(.+)$/],
      [2, /^( +\S.*)$/],
      [want.findIndex((l) => l.startsWith('   Mode: ')), /^ {3}Mode: (.+)$/],
      [want.findIndex((l) => l.startsWith('   Date: ')), /^ {3}Date: (\d{4}\/\d{2}\/\d{2} \d{1,2}:\d{2}:\d{2}.*)$/],
      [want.findIndex((l) => l.startsWith('     OS: ')), /^ {5}OS: (.+)$/],
    ];
    for (const [i, line] of want.entries()) {
      const masked = machine.find(([at]) => at === i);
      if (!masked) {
        expect(`${i + 1}: ${got[i]}`).toBe(`${i + 1}: ${line}`);
        continue;
      }
      const mask = (l: string | undefined): string => (l ?? '').replace(masked[1].exec(l ?? '')?.[1] ?? '\u0000', '…');
      expect(masked[1].test(got[i] ?? ''), `line ${i + 1}: ${got[i]}`).toBe(true);
      expect(`${i + 1}: ${mask(got[i])}`).toBe(`${i + 1}: ${mask(line)}`);
    }
    // The site line is right-aligned to the dashes, as ours is.
    expect(want[2]).toHaveLength(78);
    expect(got[2]).toHaveLength(78);
    // After CrystalDiskMark's lines: its Comment line (the drive, where its users write it) and,
    // for a result without flags or notes, only the line saying the figures are the best run's.
    expect(got.slice(want.length)).toEqual([
      'Comment: virtio (virtual disk) · ext4 · 2 TB',
      "   ℹ Each figure is the best of 5 runs, as CrystalDiskMark reports it; DiskDial's screens, card and other exports show the mean of the runs.",
      '',
    ]);
  });

  it('the best of five runs on each line, and the Time line only for time-bound tests', () => {
    const txt = renderExport([likeTheFixture()], 'txt').text;
    expect(txt).toContain('  SEQ    1MiB (Q=  8, T= 1):  7427.749 MB/s [   7083.7 IOPS] <   987.81 us>');
    expect(txt).toContain('[Mix] Read 70%/Write 30%\n');
    const quick = JSON.parse(readFileSync(path.join(FIXTURES, 'results', 'quick.json'), 'utf8')) as ResultDocument;
    expect(renderExport([quick], 'txt').text).not.toContain('Time: Measure');
    const doc = likeTheFixture();
    doc.settings.rwmixread = 50;
    expect(renderExport([doc], 'txt').text).toContain('[Mix] Read 50%/Write 50%\n');
  });
});
