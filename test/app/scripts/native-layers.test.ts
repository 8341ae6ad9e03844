import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types; the test checks its answers.
import { checkNativeLayers } from '../../../scripts/check-native-layers.mjs';

const check = checkNativeLayers as (root: string) => string[];
let dir = '';
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  dir = mkdtempSync(path.join(os.tmpdir(), 'native-layers-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('the native layer check', () => {
  it('passes the addon as it is', () => {
    expect(check(path.join(import.meta.dirname, '../../../native/src'))).toEqual([]);
  });

  it('finds an include cycle', () => {
    const root = tree({ 'engine/a.h': '#include "engine/b.h"\n', 'engine/b.h': '#include "engine/a.h"\n' });
    expect(check(root).join('\n')).toMatch(/include cycle: engine\/a\.h → engine\/b\.h → engine\/a\.h/);
  });

  it('refuses an include from a higher layer, and engine code in the platform layer', () => {
    const root = tree({
      'engine/engine.h': '',
      'engine/status.h': '',
      'bindings/job.h': '',
      'engine/x.cc': '#include "bindings/job.h"\n',
      'platform/p.cc': '#include "engine/status.h"\n#include "engine/engine.h"\n',
    });
    expect(check(root)).toEqual([
      'engine/x.cc includes bindings/job.h: engine may not include bindings',
      'platform/p.cc includes engine/engine.h: platform may not include engine',
    ]);
  });
});
