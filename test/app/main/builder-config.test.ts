// electron-builder.yml: valid for the installed electron-builder (its own schema check, the one
// `npm run dist` runs first), and it ships the addon unpacked where the engine loader looks.
// Packaging itself cannot run here (no Electron binary, no macOS or Windows).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { addonCandidates } from '../../../app/src/core/engine.js';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const yaml = require('js-yaml') as { load(text: string): unknown };
// Not a public export of app-builder-lib: the function electron-builder calls on a config.
const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  validateConfiguration(config: unknown, log: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

interface Target {
  target: string;
  arch: string[];
}
interface Config {
  appId: string;
  productName: string;
  directories: { output: string };
  files: string[];
  asarUnpack: string[];
  npmRebuild: boolean;
  electronFuses: Record<string, boolean>;
  mac: { target: Target[]; category: string; hardenedRuntime: boolean };
  win: { target: Target[] };
  linux: { target: Target[]; category: string };
}

const config = yaml.load(readFileSync(path.join(repoRoot, 'electron-builder.yml'), 'utf8')) as Config;
const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  main: string;
  scripts: Record<string, string>;
};

/** The same glob semantics electron-builder uses (minimatch). */
const minimatch = (require('minimatch') as { minimatch: (p: string, g: string) => boolean }).minimatch;

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own schema validation', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('packages the compiled app and the addon, and unpacks the addon from the asar', () => {
    expect(config.files).toEqual(expect.arrayContaining(['dist/**', 'package.json', 'native/build/Release/diskdial.node']));
    expect(config.files).toContain('!**/*.map');
    expect(config.asarUnpack.some((glob) => minimatch('native/build/Release/diskdial.node', glob))).toBe(true);
    expect(config.npmRebuild).toBe(false);
    // The share card's rasterizer and the fonts it reads by path from native code.
    const unpacked = (p: string) => config.asarUnpack.some((glob) => minimatch(p, glob));
    expect(unpacked('node_modules/@resvg/resvg-js-linux-x64-gnu/resvgjs.linux-x64-gnu.node')).toBe(true);
    expect(unpacked('node_modules/@resvg/resvg-js-darwin-arm64/resvgjs.darwin-arm64.node')).toBe(true);
    for (const w of ['400Regular', '600SemiBold', '700Bold'])
      expect(unpacked(`node_modules/@expo-google-fonts/inter/${w}/Inter_${w}.ttf`)).toBe(true);
    // The loader's packaged candidate is exactly where asarUnpack puts the addon.
    const resourcesPath = '/Applications/DiskDial.app/Contents/Resources';
    const saved = (process as { resourcesPath?: string }).resourcesPath;
    (process as { resourcesPath?: string }).resourcesPath = resourcesPath;
    try {
      expect(addonCandidates('/x')).toContain(path.join(resourcesPath, 'app.asar.unpacked/native/build/Release/diskdial.node'));
    } finally {
      (process as { resourcesPath?: string }).resourcesPath = saved;
    }
    // package.json's entry is inside what is packaged.
    expect(minimatch(pkg.main, 'dist/**')).toBe(true);
    expect(pkg.scripts.dist).toContain('electron-builder --config electron-builder.yml');
  });

  it('targets macOS dmg (arm64, x64), Windows nsis, Linux AppImage and deb', () => {
    expect(config.appId).toBe('app.diskdial.desktop');
    expect(config.productName).toBe('DiskDial');
    expect(config.directories.output).toBe('release');
    expect(config.mac.target).toEqual([{ target: 'dmg', arch: ['arm64', 'x64'] }]);
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.category).toBe('public.app-category.utilities');
    expect(config.win.target).toEqual([{ target: 'nsis', arch: ['x64'] }]);
    expect(config.linux.target.map((t) => t.target)).toEqual(['AppImage', 'deb']);
    expect(config.linux.category).toBe('Utility');
  });

  it('turns off the fuses the app does not need', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });
});
