// The report at the end of a plan, against the fake bridge and wizard-like documents cloned
// from the engine's real Quick Test document: the table (format × read/write × stress size,
// mean ± spread, deltas against the baseline, ≈ within noise), the rule, the findings, a chart
// per stress size, the baseline choice, the exports — the Markdown export's table equal to the
// rendered table — Save PDF printing the page in browser mode, and History's compare view
// opening the same report for any saved results.
import { markdownTableLines } from '../../../helpers/markdown.js';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderFormatReport } from '@model/report/format-report';
import type { ResultDocument } from '@model/result';
import type { FormatId } from '@model/wizard/types';
import { useWizardStore } from '../../../../renderer/src/features/wizard/store';
import quickJson from '../../../fixtures/results/quick.json';
import { resetStores } from '../../helpers/reset-stores';
import { confirmPlanOnT7, planDocs, renderWizard, wizardBridge, wizardDoc } from '../../helpers/wizard-fixtures';
import { renderApp } from '../../helpers/render-app';
import { text } from '../../helpers/dom';

beforeEach(resetStores);
afterEach(() => {
  resetStores();
  vi.restoreAllMocks();
});

type Fake = ReturnType<typeof wizardBridge>;

/** Runs a plan of ext4, ext4 (fscrypt) and XFS to its end; the core saved `docs`. */
async function finishPlan(fake: Fake = wizardBridge(), docs: ResultDocument[] = planDocs()) {
  fake.history.add(...docs);
  const { user } = await renderWizard(fake);
  await confirmPlanOnT7(user, ['ext4', 'ext4-fscrypt', 'xfs']);
  await user.click(screen.getByTestId('wizard-start'));
  await waitFor(() => expect(useWizardStore.getState().status).toBe('running'));
  const ids = docs.map((d) => d.id);
  for (const f of ['ext4', 'ext4-fscrypt', 'xfs']) {
    act(() =>
      fake.emitWizardFormat({
        jobId: 'wjob-1',
        planId: 'plan-1',
        format: f as 'ext4',
        formatLabel: f,
        resultIds: ids.filter((id) => id.includes(`-${f}-`)),
      }),
    );
  }
  act(() => fake.emitWizardDone({ jobId: 'wjob-1', planId: 'plan-1', outcome: 'finished', resultIds: ids }));
  await screen.findByTestId('report-table');
  return { user, ids };
}

/** The rendered table as the Markdown export would write it (each cell's data-text). */
function tableRows(table: HTMLElement): string[][] {
  return [...table.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.getAttribute('data-text') ?? ''));
}

/** The rows of the report's own Markdown table (head and body; the alignment row dropped). */
function markdownRows(md: string): string[][] {
  return markdownTableLines(md)
    .filter((l) => l.startsWith('| '))
    .map((l) =>
      l
        .slice(2, -2)
        .split(' | ')
        .map((c) => c.replace(/\\\|/g, '|')),
    );
}

describe('the report', () => {
  it('names each stress size as it was asked: the engine runs "1 GB" as 953 MiB, the report still says 1 GB', async () => {
    const MiB = 1024 ** 2;
    const aligned = (b: number) => Math.floor(b / MiB) * MiB;
    const docs = planDocs().map((d) => wizardDoc(d.campaign!.format as FormatId, d.campaign!.formatLabel, aligned(d.settings.size!), 1, 1));
    await finishPlan(wizardBridge(), docs);
    const view = screen.getByTestId('report-view');
    const heads = [...within(view).getByTestId('report-table').querySelectorAll('thead th')].map((th) => th.getAttribute('data-text'));
    expect(heads).toEqual(['Format', 'Read 1 GB (MB/s)', 'Write 1 GB (MB/s)', 'Read 5 GB (MB/s)', 'Write 5 GB (MB/s)']);
    expect(
      within(view)
        .getAllByTestId('report-chart')
        .map((f) => text(f.querySelector('figcaption'))),
    ).toEqual(['Stress size 1 GB', 'Stress size 5 GB']);
    expect(text(view)).not.toMatch(/MiB/);
  });

  it('shows the table people post: a row per format, read and write per stress size, mean ± spread and the change against the baseline', async () => {
    const { ids } = await finishPlan();
    const view = screen.getByTestId('report-view');
    const table = within(view).getByTestId('report-table');
    const heads = [...table.querySelectorAll('thead th')].map((th) => th.getAttribute('data-text'));
    expect(heads).toEqual(['Format', 'Read 1 GB (MB/s)', 'Write 1 GB (MB/s)', 'Read 5 GB (MB/s)', 'Write 5 GB (MB/s)']);
    const rows = [...table.querySelectorAll('tbody tr')];
    expect(rows.map((r) => r.getAttribute('data-variant'))).toEqual(['ext4', 'ext4-fscrypt', 'xfs']);
    expect(text(rows[0]!.querySelector('th'))).toContain('baseline');
    // The encrypted format writes 40 % slower: a real change, coloured; its reads are equal, but
    // three runs spread 6 % cannot show they are within ±5 %: inconclusive, marked ?.
    const enc = rows[1]!;
    expect(enc.querySelectorAll('.delta--worse').length).toBe(2);
    expect(text(enc)).toContain('−40 %');
    expect(enc.querySelectorAll('.delta--inconclusive').length).toBe(2);
    // XFS is within 0.1 % of ext4 everywhere, no more telling with these runs.
    const xfs = rows[2]!;
    expect(xfs.querySelectorAll('.delta--inconclusive').length).toBe(4);
    expect(xfs.querySelector('.delta--inconclusive')!.getAttribute('title')).toMatch(/^inconclusive: .*reaches past ±5 %$/);
    // Mean ± spread in each cell.
    expect(text(rows[0]!.querySelector('td .compare-cell__value'))).toMatch(/^[\d,]+(\.\d+)? ± [\d,.]+$/);
    expect(text(within(view).getByTestId('report-rule'))).toContain('Welch');
    expect(text(within(view).getByTestId('report-findings'))).toMatch(/ext4 \(fscrypt encrypted\)/);
    // The findings a line each; under them each format's "Will it work?" column, as the exports have it.
    expect(within(view).getByTestId('report-findings').querySelectorAll('li').length).toBeGreaterThan(1);
    const grid = within(view).getByTestId('report-section');
    expect(text(grid.querySelector('h3'))).toBe('Will it work? At 29.97 fps');
    expect([...grid.querySelectorAll('thead th')].map(text)).toEqual([
      'Format',
      'Needs with margin (MB/s)',
      'ext4',
      'ext4 (fscrypt encrypted)',
      'XFS',
    ]);
    // A chart per stress size.
    expect(
      within(view)
        .getAllByTestId('report-chart')
        .map((f) => text(f.querySelector('figcaption'))),
    ).toEqual(['Stress size 1 GB', 'Stress size 5 GB']);
    expect(ids).toHaveLength(6);
  });

  it('changing the baseline re-judges every row', async () => {
    const { user } = await finishPlan();
    await user.selectOptions(screen.getByTestId('report-baseline'), 'ext4-fscrypt');
    const rows = [...screen.getByTestId('report-table').querySelectorAll('tbody tr')];
    expect(text(rows[1]!.querySelector('th'))).toContain('baseline');
    expect(text(rows[0]!.querySelector('th'))).not.toContain('baseline');
    expect(rows[0]!.querySelectorAll('.delta--better').length).toBe(2);
  });

  it('the Markdown export’s table matches the rendered table, and the exports reach the core with the baseline', async () => {
    const fake = wizardBridge();
    const docs = planDocs();
    fake.bridge.exportReport = (ids, format, baseline) => {
      fake.wizardCalls.exportReport.push({ ids, format, baseline });
      const chosen = ids.map((id) => docs.find((d) => d.id === id)!);
      return Promise.resolve({ ok: true, value: renderFormatReport(chosen, format, baseline === undefined ? {} : { baseline }) });
    };
    const { user, ids } = await finishPlan(fake, docs);
    await user.click(screen.getByTestId('report-export-md'));
    await waitFor(() => expect(fake.historyCalls.copyText).toHaveLength(1));
    expect(fake.wizardCalls.exportReport).toEqual([{ ids, format: 'md', baseline: 'ext4' }]);
    expect(text(screen.getByTestId('report-status'))).toBe('Copied Markdown');
    const md = fake.historyCalls.copyText[0]!;
    expect(markdownRows(md)).toEqual(tableRows(screen.getByTestId('report-table')));

    // With another baseline, both change together.
    await user.selectOptions(screen.getByTestId('report-baseline'), 'xfs');
    await user.click(screen.getByTestId('report-export-md'));
    await waitFor(() => expect(fake.historyCalls.copyText).toHaveLength(2));
    expect(fake.wizardCalls.exportReport[1]!.baseline).toBe('xfs');
    expect(markdownRows(fake.historyCalls.copyText[1]!)).toEqual(tableRows(screen.getByTestId('report-table')));

    for (const [id, ext] of [
      ['report-export-csv', 'csv'],
      ['report-export-json', 'json'],
      ['report-export-html', 'html'],
    ] as const) {
      await user.click(screen.getByTestId(id));
      await waitFor(() =>
        expect(fake.historyCalls.save.at(-1)?.filename).toBe(`diskdial-report-${docs[0]!.startedAt.slice(0, 10)}.${ext}`),
      );
    }
    expect(fake.wizardCalls.exportReport.map((c) => c.format)).toEqual(['md', 'md', 'csv', 'json', 'html']);
    expect(fake.historyCalls.save.map((s) => s.encoding)).toEqual(['utf8', 'utf8', 'utf8']);
  });

  it('Save PDF prints the page in browser mode, showing only the report', async () => {
    const fake = wizardBridge();
    const { ids } = await finishPlan(fake);
    let printing: { body: boolean; marked: number } | null = null;
    const print = vi.spyOn(window, 'print').mockImplementation(() => {
      printing = {
        body: document.body.classList.contains('printing-report'),
        marked: document.querySelectorAll('.report-body[data-printing]').length,
      };
    });
    await userEvent.setup().click(screen.getByTestId('report-export-pdf'));
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    expect(fake.wizardCalls.pdf).toEqual([{ ids, baseline: 'ext4' }]);
    expect(printing).toEqual({ body: true, marked: 1 });
    expect(text(screen.getByTestId('report-status'))).toContain('Save as PDF');
    await act(() => window.dispatchEvent(new Event('afterprint')));
    expect(document.body.classList.contains('printing-report')).toBe(false);
  });

  it('Save PDF in the desktop app saves through the core, and says where', async () => {
    const fake = wizardBridge();
    fake.wizard.pdfResult = { ok: true, value: { path: '/home/ana/diskdial-report.pdf' } };
    await finishPlan(fake);
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    await userEvent.setup().click(screen.getByTestId('report-export-pdf'));
    await waitFor(() => expect(text(screen.getByTestId('report-status'))).toBe('Saved /home/ana/diskdial-report.pdf'));
    expect(print).not.toHaveBeenCalled();
  });

  it('a stopped plan can still show the report of the formats that finished', async () => {
    const fake = wizardBridge();
    const docs = planDocs().slice(0, 2);
    fake.history.add(...docs);
    const { user } = await renderWizard(fake);
    await confirmPlanOnT7(user, ['ext4', 'xfs']);
    await user.click(screen.getByTestId('wizard-start'));
    await waitFor(() => expect(useWizardStore.getState().status).toBe('running'));
    act(() =>
      fake.emitWizardFormat({ jobId: 'wjob-1', planId: 'plan-1', format: 'ext4', formatLabel: 'ext4', resultIds: docs.map((d) => d.id) }),
    );
    act(() => fake.emitWizardDone({ jobId: 'wjob-1', planId: 'plan-1', outcome: 'stopped', resultIds: docs.map((d) => d.id) }));
    await user.click(screen.getByTestId('wizard-show-report'));
    const table = await screen.findByTestId('report-table');
    expect([...table.querySelectorAll('tbody tr')].map((r) => r.getAttribute('data-variant'))).toEqual(['ext4']);
    // (The Quick Test's dial scale may read a result too: which ids were fetched. The two share a
    // start time, so History's order between them is by id, not the order they were saved in.)
    expect([...new Set(fake.historyCalls.get)].sort()).toEqual(docs.map((d) => d.id).sort());
  });

  it('a one-format report says nothing was compared: no baseline tag, no "no difference", in the view and its Markdown', async () => {
    const fake = wizardBridge();
    const docs = planDocs().slice(0, 2);
    fake.bridge.exportReport = (ids, format, baseline) =>
      Promise.resolve({
        ok: true,
        value: renderFormatReport(
          ids.map((id) => docs.find((d) => d.id === id)!),
          format,
          baseline === undefined ? {} : { baseline },
        ),
      });
    fake.history.add(...docs);
    const { user } = await renderWizard(fake);
    await confirmPlanOnT7(user, ['ext4']);
    await user.click(screen.getByTestId('wizard-start'));
    await waitFor(() => expect(useWizardStore.getState().status).toBe('running'));
    const ids = docs.map((d) => d.id);
    act(() => fake.emitWizardFormat({ jobId: 'wjob-1', planId: 'plan-1', format: 'ext4', formatLabel: 'ext4', resultIds: ids }));
    act(() => fake.emitWizardDone({ jobId: 'wjob-1', planId: 'plan-1', outcome: 'finished', resultIds: ids }));
    const table = await screen.findByTestId('report-table');
    const nothing = "One format only (ext4): nothing is compared — these are ext4's figures alone.";
    expect(screen.getByTestId('report-findings').querySelector('li')!.textContent).toBe(nothing);
    expect(within(table).queryByText('baseline')).toBeNull();
    expect(screen.queryByTestId('report-baseline')).toBeNull();
    // (The rule under the report defines "no difference"; nothing else may say it.)
    const said = text(screen.getByTestId('report-view')).replace(text(screen.getByTestId('report-rule')), '');
    expect(said).not.toMatch(/no difference/i);
    await user.click(screen.getByTestId('report-export-md'));
    await waitFor(() => expect(fake.historyCalls.copyText).toHaveLength(1));
    const md = fake.historyCalls.copyText[0]!;
    expect(md).toContain(nothing);
    const mdSaid = md
      .split('\n')
      .filter((l) => !l.startsWith('_Rule:'))
      .join('\n');
    expect(mdSaid).not.toMatch(/\(baseline\)|\*\*Baseline|no (measurable )?difference/i);
  });
});

describe('History: any saved results as a report', () => {
  it('the compare view’s Report button opens the same report for the selected results', async () => {
    const fake = wizardBridge();
    const a = JSON.parse(JSON.stringify(quickJson)) as ResultDocument;
    a.id = 'direct';
    a.label = 'Direct to the port';
    const b = JSON.parse(JSON.stringify(quickJson)) as ResultDocument;
    b.id = 'hub';
    b.label = 'Through the hub';
    for (const t of b.tests) t.mbps *= 0.5;
    b.startedAt = new Date(Date.parse(a.startedAt) - 60_000).toISOString(); // listed after a
    fake.history.add(a, b);
    const { user } = await renderApp(fake.bridge, 'nav-history');
    const rows = await screen.findAllByTestId('history-row');
    for (const r of rows) await user.click(within(r).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: /^Compare/ }));
    await screen.findByTestId('compare-view');
    await user.click(await screen.findByTestId('compare-report'));
    const table = await screen.findByTestId('report-table');
    expect(table.querySelector('thead th')!.getAttribute('data-text')).toBe('Result');
    const variants = [...table.querySelectorAll('tbody tr')].map((r) => text(r.querySelector('th')));
    expect(variants[0]).toContain('Direct to the port');
    expect(variants[1]).toContain('Through the hub');
    expect(table.querySelectorAll('.delta--worse').length).toBeGreaterThan(0);
    await user.click(screen.getByTestId('report-export-md'));
    await waitFor(() => expect(fake.wizardCalls.exportReport).toHaveLength(1));
    expect(fake.wizardCalls.exportReport[0]!.ids).toEqual(['direct', 'hub']);
    await user.click(screen.getByTestId('report-back'));
    expect(await screen.findByTestId('compare-table')).toBeTruthy();
  });
});
