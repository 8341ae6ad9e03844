// Issue 32: everything a kind adds lives in app/src/model/kinds/<kind>/. Outside its folder, app/src
// may name a kind with a folder only on its registry line: its result section, screen settings,
// CLI words, table lines and plan options reach the shared files through the registry's hooks.
// The pattern is the grep, per kind (type names, quoted id, camelCase names, the key).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const APP_SRC = path.resolve(import.meta.dirname, '../../../../app/src');
const RENDERER_SRC = path.resolve(import.meta.dirname, '../../../../renderer/src');
const REGISTRY = 'model/kinds/registry.ts';

/** Every source file (and stylesheet) under `root`, relative to it. */
function sources(root = APP_SRC, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(root, full);
    return /\.(c?ts|tsx|css)$/.test(e.name) ? [path.relative(root, full)] : [];
  });
}

/** The grep for a kind: `Sweep…` types, 'sweep' quoted, `sweep…` names, a `sweep:` key, `.sweep`. */
function namesKind(id: string, key: string, type: string): RegExp {
  const quoted = id.replace(/-/g, '\\-');
  return new RegExp(`\\b${type}[A-Z]\\w*|['"]${quoted}['"]|\\b${key}[A-Z]\\w*|\\b${key}\\??\\s*:|\\.${key}\\b`);
}

// `also`: files that name the kind for another reason. The small-file mode is the native engine's
// (its spec and figures in engine-types.ts describe the addon's API, which any caller may use: the
// share test times a share's operations with it).
// "Sustained" is also a plain word: the JSON export's long-standing `sustainedMBps` key of the
// "Will it work?" table (kinds/video/will-it-work.ts). The wizard, and
// `diskdial compare --help`'s plans, reach the kind through its registry entry's wizard hook.
const FOLDER_KINDS = [
  { id: 'sweep', key: 'sweep', type: 'Sweep', also: [] },
  {
    id: 'small-files',
    key: 'smallFiles',
    type: 'SmallFiles',
    also: ['model/engine-types.ts', 'model/kinds/share/plan.ts', 'model/kinds/share/analysis.ts'],
  },
  {
    id: 'sustained',
    key: 'sustained',
    type: 'Sustained',
    also: ['model/kinds/video/will-it-work.ts'],
  },
  // The Quick Test's "Will it work?" table is the quick kind using video's pieces: its --video and
  // --fps flags (video/will-it-work-cli.ts, which quick.ts takes as its cli hook), its export
  // section (video/tables.ts, registered by quick.ts) and its card block all live in the folder.
  { id: 'video', key: 'video', type: 'Video', also: [] },
];

describe('a kind with a folder is named outside it only on its registry line', () => {
  const files = sources();
  it.each(FOLDER_KINDS)('$id', ({ id, key, type, also }) => {
    const re = namesKind(id, key, type);
    const outside = files.filter((f) => !f.startsWith(`model/kinds/${id}/`) && re.test(readFileSync(path.join(APP_SRC, f), 'utf8')));
    expect(outside.filter((f) => f !== REGISTRY).sort()).toEqual([...also].sort());
  });
});

// The renderer names a kind in its panel and form (files named after it), the panel map and its
// stylesheet. The sustained write's chart in History is any write curve's; the Quick Test's steady
// speeds are `settled`, not `sustained`. The Quick Test's Will-it-work table and History's compare
// block (video-table.tsx, video-compare.tsx: files named for the video formats they read) are
// WillItWorkTable and WillItWorkCompare, the export bar's frame rate is willItWorkFps, and
// "Check this format" is a paced check (lib/navigation.ts) the paced kind's panel takes.
describe('the renderer names a kind only in its own files, its panel map and its stylesheet', () => {
  it.each([
    { id: 'sustained', key: 'sustained', type: 'Sustained' },
    { id: 'video', key: 'video', type: 'Video' },
  ])('$id', ({ id, key, type }) => {
    const re = namesKind(id, key, type);
    const named = sources(RENDERER_SRC).filter(
      (f) => !path.basename(f).startsWith(`${id}-`) && re.test(readFileSync(path.join(RENDERER_SRC, f), 'utf8')),
    );
    expect(named.sort()).toEqual(['features/detailed/kinds/index.ts', 'styles/features/detailed.css'].sort());
  });
});

// Issue 35: the verify kind lands as its folder, one registry line and its panel. "verify" is also
// the hash test's --verify digest, the folder check's verify mode and the engine's verify pattern,
// so the grep cannot tell this kind apart; what only this kind names can: its folder's
// path and the names its folder and panel export.
describe('the verify kind is named outside its folder only by the registry, and in the renderer only by its panel map', () => {
  const own =
    /(kinds|\.)\/verify\/|\bverify(Plan|Section|Tests|Report|Cli|Result|Figures|FromScreen|VerdictText)\b|\bVerify(Section|Screen|Layout|File|Form|Panel|Chart)\b|\bVERIFY_[A-Z_]+\b/;
  it('app/src', () => {
    const outside = sources().filter((f) => !f.startsWith('model/kinds/verify/') && own.test(readFileSync(path.join(APP_SRC, f), 'utf8')));
    expect(outside).toEqual([REGISTRY]);
  });
  it('renderer/src', () => {
    const named = sources(RENDERER_SRC).filter(
      (f) => !path.basename(f).startsWith('verify-') && own.test(readFileSync(path.join(RENDERER_SRC, f), 'utf8')),
    );
    expect(named).toEqual(['features/detailed/kinds/index.ts']);
  });
});

// Issue 34: the share kind is its folder, one registry line and its panel. "share" is also the
// share card, a share image and every network share, so the grep cannot tell it apart;
// what only this kind names can: its folder's path and the names its folder exports. Its verdict
// family is model/verdict/share.ts, as verify's is verdict/capacity.ts. The Quick Test's line on a
// share finds the kind through the registry (`networkOnly`), by no name.
describe('the share kind is named outside its folder only by the registry, and in the renderer only by its panel map', () => {
  const own =
    /(kinds|\.)\/share\/|\bshare(Plan|Section|Cli|Report|Result|Statements|Figures|FromScreen)\b|\bShare(Section|Run|FileOps|Set|Screen|Form|Panel)\b|\bSHARE_(STEPS|DISK_BYTES|CACHE_BYTES|FILES|MAX_FILES|SIZES)\b/;
  it('app/src', () => {
    const outside = sources().filter((f) => !f.startsWith('model/kinds/share/') && own.test(readFileSync(path.join(APP_SRC, f), 'utf8')));
    expect(outside).toEqual([REGISTRY]);
  });
  it('renderer/src', () => {
    const named = sources(RENDERER_SRC).filter(
      (f) => !path.basename(f).startsWith('share-') && own.test(readFileSync(path.join(RENDERER_SRC, f), 'utf8')),
    );
    expect(named).toEqual(['features/detailed/kinds/index.ts']);
  });
});
