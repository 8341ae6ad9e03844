// The video tables as a user reads them: Blackmagic's split into a ✓/✗ grid and a frames-per-
// second grid, one fact per cell, headers with scope, one footnote per tab, the margin rule in
// view, and ✗ in the error colour at WCAG AA contrast, computed from the stylesheet's own values.
import fs from 'node:fs';
import path from 'node:path';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { videoData } from '../../../app/src/model/kinds/video/data';
import { WillItWorkTable } from '../../../renderer/src/components/video-table';

afterEach(cleanup);

const one = (mean: number) => ({ mean, best: mean, runs: 1 });

function renderWith(write: number, read: number) {
  render(<WillItWorkTable input={{ measured: { write: one(write), read: one(read) } }} />);
}

describe('Will it work? / How fast?', () => {
  it('a drive sustaining 120 MB/s is told UHD 29.97 ProRes 422 HQ will not record (it needs 110.5 MB/s, 138 with the margin; the old 24p figure said ✓)', () => {
    renderWith(120, 200);
    expect(screen.getByTestId('work-prores-hq-uhd-write').textContent).toBe('✗no');
    expect(screen.getByTestId('work-prores-hq-uhd-read').textContent).toBe('✓yes');
    expect(screen.getByTestId('work-prores-hq-uhd-write').className).toMatch(/vg-cell--no/);
    // 96 MB/s usable: Apple's 25p row (737 Mb/s) needs 95.8 MB/s at 26 fps and 99.5 at 27 → 26 fps
    expect(screen.getByTestId('fast-prores-hq-uhd-write').textContent).toBe('26');
    // The margin rule, in view: the heading says it and the cell shows 110.5 / 0.8 = 138 MB/s.
    expect(screen.getByRole('heading', { name: /Needs, with a 20 % margin: MB\/s sustained at 29.97 fps/ })).toBeTruthy();
    expect(screen.getByTestId('need-prores-hq-uhd').textContent).toBe('138');
  });

  it('one fact per cell: ✓/✗ alone, a frame rate alone, a speed alone', () => {
    renderWith(500, 900);
    for (const cell of within(screen.getByTestId('grid-work')).getAllByRole('cell'))
      expect(cell.textContent).toMatch(/^(✓yes|✗no|—not offered)$/);
    for (const cell of within(screen.getByTestId('grid-fast')).getAllByRole('cell'))
      expect(cell.textContent).toMatch(/^([\d,]+|> 120|—not offered)$/);
    for (const cell of within(screen.getByTestId('grid-need')).getAllByRole('cell'))
      expect(cell.textContent).toMatch(/^([\d,.]+(\* \(estimate\))?|—not offered)$/);
  });

  it('tables are named, and every header has a scope: resolutions span Write and Read, formats head their rows', () => {
    renderWith(500, 900);
    const work = screen.getByRole('table', { name: /Will it work\? At 29.97 fps/ });
    expect(screen.getByRole('table', { name: /How fast\? Frames per second/ })).toBeTruthy();
    for (const th of document.querySelectorAll('th'))
      expect(th.getAttribute('scope'), th.textContent ?? '').toMatch(/^(col|row|colgroup)$/);
    const uhd = within(work).getByRole('columnheader', { name: /UHD/ });
    expect(uhd.getAttribute('scope')).toBe('colgroup');
    expect(uhd.getAttribute('colspan')).toBe('2');
    expect(within(work).getAllByRole('columnheader', { name: 'Write' })).toHaveLength(videoData.resolutions.length);
    expect(within(work).getByRole('rowheader', { name: 'ProRes 422 HQ' })).toBeTruthy();
  });

  it('prints at most one footnote per tab, and only when a cell carries its *', async () => {
    const user = userEvent.setup();
    renderWith(500, 900);
    for (const fam of videoData.families) {
      await user.click(screen.getByRole('tab', { name: fam.label }));
      const notes = [...document.querySelectorAll('.video-sources p')].filter((p) => p.textContent!.startsWith('*'));
      const starred = [...document.querySelectorAll('[data-testid^="need-"]')].filter((c) => c.textContent!.includes('*'));
      expect(notes.length, fam.id).toBe(starred.length > 0 ? 1 : 0);
    }
    // DNxHR: HD is scaled from Avid's 2K figure, so its tab has the one note.
    await user.click(screen.getByRole('tab', { name: 'DNxHR' }));
    expect(screen.getByTestId('video-footnote').textContent).toMatch(/^\* Estimate\. Scaled by pixel count/);
  });

  it('the frame-rate menu recomputes every grid', async () => {
    const user = userEvent.setup();
    renderWith(150, 150);
    expect(screen.getByTestId('work-prores-hq-uhd-write').textContent).toBe('✓yes'); // 120 usable ≥ 110.5
    await user.selectOptions(screen.getByRole('combobox', { name: 'Frame rate' }), '59.94');
    expect(screen.getByTestId('work-prores-hq-uhd-write').textContent).toBe('✗no'); // 221 MB/s at 59.94
    expect(screen.getByTestId('need-prores-hq-uhd').textContent).toBe(Math.round(1768 / 8 / 0.8).toLocaleString('en-US'));
  });
});

describe('contrast (WCAG 2.1 AA, 4.5:1), from the stylesheet', () => {
  // The stylesheet as the build inlines it: styles/index.css's imports, in order.
  const stylesDir = path.resolve(__dirname, '../../../renderer/src/styles');
  const css = [...fs.readFileSync(path.join(stylesDir, 'index.css'), 'utf8').matchAll(/@import '\.\/([^']+)';/g)]
    .map((m) => fs.readFileSync(path.join(stylesDir, m[1]!), 'utf8'))
    .join('\n');
  const rootAt = css.indexOf(':root {');
  const root = Object.fromEntries(
    [...css.slice(rootAt, css.indexOf('}', rootAt)).matchAll(/--([\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2]!.trim()]),
  );
  const rule = (selector: string): string => {
    const i = css.indexOf(`\n${selector} {`);
    expect(i, selector).toBeGreaterThan(-1);
    return css.slice(i, css.indexOf('}', i));
  };
  const colourOf = (selector: string, prop: string): string => {
    const value = new RegExp(`\\n\\s*${prop}:\\s*([^;]+);`).exec(rule(selector))![1]!.trim();
    const v = /^var\(--([\w-]+)\)$/.exec(value);
    return v ? root[v[1]!]! : value;
  };
  const rgb = (hex: string): [number, number, number] => {
    const h = hex.replace('#', '');
    return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
  };
  const luminance = (c: [number, number, number]): number => {
    const [r, g, b] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const contrast = (a: [number, number, number], b: [number, number, number]): number => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi! + 0.05) / (lo! + 0.05);
  };
  // The card is a gradient from --surface to --bg-2; a hovered row lays 2 % white over it.
  const backgrounds = (): [number, number, number][] => {
    const stops = [.../\n\s*background: ([^;]+);/.exec(rule('.card'))![1]!.matchAll(/var\(--([\w-]+)\)/g)].map((m) => rgb(root[m[1]!]!));
    expect(stops.length).toBeGreaterThanOrEqual(2);
    const hover = /rgba\(255, 255, 255, ([\d.]+)\)/.exec(rule('.video-grid__table tbody tr:hover'))![1]!;
    return [...stops, ...stops.map((c) => c.map((v) => Math.round(v + (255 - v) * Number(hover))) as [number, number, number])];
  };

  it('✗ is drawn in the error colour and reaches 4.5:1 on every background it sits on', () => {
    expect(rule('.vg-cell--no')).toMatch(/color: var\(--bad\)/);
    const bad = rgb(colourOf('.vg-cell--no', 'color'));
    for (const bg of backgrounds()) expect(contrast(bad, bg)).toBeGreaterThanOrEqual(4.5);
  });
  it('✓, the resolution details, the not-offered dash and the sources line reach 4.5:1 too', () => {
    for (const sel of ['.vg-cell--ok', '.vg-res__detail', '.vg-cell--na', '.video-sources']) {
      const fg = rgb(colourOf(sel, 'color'));
      for (const bg of backgrounds()) expect(contrast(fg, bg), sel).toBeGreaterThanOrEqual(4.5);
    }
  });
});
