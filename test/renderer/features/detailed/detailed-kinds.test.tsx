// The Detailed screen's kinds come from one map (features/detailed/kinds/index.ts): the screen
// draws one panel per entry in the map's order, every kind the core takes has an entry, each
// entry's defaults make a request the core accepts, and outside kinds/ no file of the Detailed
// feature names a kind (the grep, adapted per kind), nor does any renderer file but one
// stylesheet name the sweep or the small-file test.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DETAILED_SETTINGS_KINDS, DetailedSettings } from '@model/settings';
import { DEFAULT_FORMS, DETAILED_KIND_IDS, formErrors, toDetailedSettings } from '../../../../renderer/src/features/detailed/kinds/index';
import { renderDetailed } from '../../helpers/detailed-fixtures';
import { resetStores } from '../../helpers/reset-stores';

const ROOT = join(__dirname, '../../../..');
const RENDERER = join(ROOT, 'renderer/src');

/** Every kind the core's settings schema takes. */
const coreKinds = (): string[] => [...DETAILED_SETTINGS_KINDS].sort();

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : [join(dir, d.name)]));
}

/** The grep (`\bSweep[A-Z]\w*|['"]sweep['"]|\bsweep[A-Z]\w*|\bsweep\??\s*:|\.sweep\b`) for a
 *  kind spelled three ways: its type prefix, its id, its field name. */
function naming(type: string, id: string, field: string): RegExp {
  return new RegExp(`\\b${type}[A-Z]\\w*|['"]${id}['"]|\\b${field}[A-Z]\\w*|\\b${field}\\??\\s*:|\\.${field}\\b`);
}

const SPELLINGS: ReadonlyArray<readonly [string, string, string]> = [
  ['Cdm', 'cdm', 'cdm'],
  ['Sustained', 'sustained', 'sustained'],
  ['Files', 'files', 'files'],
  ['Video', 'video', 'video'],
  ['Sweep', 'sweep', 'sweep'],
  ['SmallFiles', 'small-files', 'smallFiles'],
];

/** The renderer files (relative to renderer/src) that name the kind. */
function namers(paths: readonly string[], spelling: readonly [string, string, string]): string[] {
  const re = naming(...spelling);
  return paths.filter((p) => re.test(readFileSync(p, 'utf8'))).map((p) => relative(RENDERER, p));
}

describe('the Detailed kinds map', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('has an entry for every kind the core takes, and the screen draws their panels in its order', async () => {
    expect([...DETAILED_KIND_IDS].sort()).toEqual(coreKinds());
    await renderDetailed();
    const screenRoot = document.querySelector('div.detailed')!;
    const shown = [...screenRoot.querySelectorAll<HTMLElement>(':scope > section.detailed-panel')].map((s) => s.dataset.testid);
    expect(shown).toEqual(DETAILED_KIND_IDS.map((k) => `${k}-panel`));
    // A jump link to each panel, in the same order, each naming its panel's heading.
    const links = [...within(screen.getByTestId('detailed-jump')).getAllByRole('link')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(DETAILED_KIND_IDS.map((k) => `#detailed-${k}`));
    for (const [i, k] of DETAILED_KIND_IDS.entries())
      expect(screen.getByTestId(`${k}-panel`).querySelector('h2')!.textContent).toContain(links[i]!.textContent!.split(' ')[0]);
    for (const k of DETAILED_KIND_IDS) expect(screen.getByTestId(`${k}-start`)).toBeTruthy();
  });

  it('each kind’s defaults are valid and make a request the core accepts', () => {
    for (const kind of DETAILED_KIND_IDS) {
      expect(formErrors(kind, DEFAULT_FORMS), kind).toEqual({});
      const r = DetailedSettings.safeParse(toDetailedSettings(kind, DEFAULT_FORMS, '/media/t7'));
      expect(r.success, `${kind}: ${r.error?.message ?? ''}`).toBe(true);
      expect(r.data?.kind).toBe(kind);
    }
  });

  it('outside kinds/, the Detailed store, frame, job bar and screen name no kind', () => {
    const detailed = files(join(RENDERER, 'features/detailed')).filter((p) => !p.includes('/kinds/'));
    expect(detailed.length).toBeGreaterThan(3);
    for (const spelling of SPELLINGS) expect(namers(detailed, spelling), spelling[1]).toEqual([]);
  });

  it('the sweep and the small-file test are named in the renderer only by their own files and at most one stylesheet', () => {
    const all = files(RENDERER);
    for (const spelling of SPELLINGS.filter(([, id]) => id === 'sweep' || id === 'small-files')) {
      const outside = namers(all, spelling).filter((p) => !p.startsWith('features/detailed/kinds/'));
      expect(
        outside.filter((p) => !p.endsWith('.css')),
        spelling[1],
      ).toEqual([]);
      expect(outside.length, `${spelling[1]}: ${outside.join(', ')}`).toBeLessThanOrEqual(1);
    }
  });
});
