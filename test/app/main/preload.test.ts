// preload.cts: window.diskdial exposes exactly a generic invoke and on (BridgeTransport) and
// nothing else (checklist items 3 and 20); the DiskDialBridge verbs the renderer builds on it
// (bindBridge, from the channel map) reach the right channels with the right payloads. The preload is compiled the way tsc compiles it (.cts → CommonJS)
// and run the way a sandboxed renderer runs it: in a fresh context with no Node globals and a
// `require` that knows only 'electron' — here the fakes of test/helpers/electron-fake.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import ts from 'typescript';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DiskDialBridge } from '../../../app/src/ipc/contract.js';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../../app/src/main/ipc-main.js';
import { contextBridge, ipcRenderer, resetElectronFake } from '../../helpers/electron-fake.js';
import type { QuickProgressEvent } from '../../../app/src/model/events.js';
import { bindBridge, type BridgeTransport } from '../../../app/src/ipc/contract.js';

// ipc-main.ts (imported for its channel names) imports electron.
vi.mock('electron', () => import('../../helpers/electron-fake.js'));

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const preloadFile = path.join(repoRoot, 'app/src/main/preload.cts');

/** Every verb of the contract's bridge; `satisfies` makes tsc fail if the interface changes. */
const VERBS = {
  appInfo: true,
  listTargets: true,
  describeTarget: true,
  chooseFolder: true,
  startQuickTest: true,
  stopQuickTest: true,
  onQuickProgress: true,
  onQuickCycle: true,
  onQuickDone: true,
  startDetailed: true,
  stopDetailed: true,
  onDetailedPlan: true,
  onDetailedProgress: true,
  onDetailedStep: true,
  onDetailedDone: true,
  chooseFile: true,
  startHash: true,
  stopHash: true,
  onHashProgress: true,
  onHashStage: true,
  onHashDone: true,
  listHistory: true,
  driveHistory: true,
  getResult: true,
  labelResult: true,
  deleteResults: true,
  importResult: true,
  exportResults: true,
  shareCard: true,
  saveFile: true,
  copyText: true,
  copyImage: true,
  listDisks: true,
  listFormats: true,
  startWizard: true,
  stopWizard: true,
  listPlans: true,
  resumePlan: true,
  discardPlan: true,
  exportReport: true,
  saveReportPdf: true,
  onWizardProgress: true,
  onWizardFormat: true,
  onWizardDone: true,
  startCampaign: true,
  continueCampaign: true,
  stopCampaign: true,
  listCampaigns: true,
  resumeCampaign: true,
  discardCampaign: true,
  onCampaignWaiting: true,
  onCampaignProgress: true,
  onCampaignDone: true,
  startCheck: true,
  stopCheck: true,
  onCheckProgress: true,
  onCheckDone: true,
  onJobNotAnswering: true,
} as const satisfies Record<keyof DiskDialBridge, true>;

function compilePreload(): string {
  const config = ts.readConfigFile(path.join(repoRoot, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, repoRoot);
  const out = ts.transpileModule(readFileSync(preloadFile, 'utf8'), {
    compilerOptions: { ...options, sourceMap: false, inlineSourceMap: false },
    fileName: preloadFile,
  });
  return out.outputText;
}

const compiled = compilePreload();

/** Runs the compiled preload as Electron's sandboxed preload wrapper does; returns what it required. */
function runPreload(): string[] {
  const required: string[] = [];
  const fakeElectron = { contextBridge, ipcRenderer };
  const sandboxRequire = (id: string): unknown => {
    required.push(id);
    if (id === 'electron') return fakeElectron;
    throw new Error(`module not found: ${id} (a sandboxed preload can require only 'electron')`);
  };
  const module = { exports: {} };
  const context = vm.createContext({});
  const wrapper = vm.runInContext(`(function (require, exports, module) {${compiled}\n})`, context) as (
    r: typeof sandboxRequire,
    e: object,
    m: object,
  ) => void;
  wrapper(sandboxRequire, module.exports, module);
  return required;
}

function exposed(): BridgeTransport {
  return contextBridge.exposed.get('diskdial') as BridgeTransport;
}

/** What the renderer's bridge.ts makes of window.diskdial. */
function bridge(): DiskDialBridge {
  return bindBridge(exposed());
}

beforeEach(() => {
  resetElectronFake();
});

describe('compiled preload', () => {
  it('is CommonJS that requires only electron', () => {
    expect(compiled).toContain('require("electron")');
    expect(compiled).not.toMatch(/^\s*import\s/m);
    expect(runPreload()).toEqual(['electron']);
  });

  it('repeats the channel names ipc-main.ts listens on', () => {
    expect(compiled).toContain(`'${INVOKE_CHANNEL}'`);
    expect(compiled).toContain(`'${EVENT_CHANNEL}'`);
  });
});

describe('what the page gets', () => {
  beforeEach(() => {
    runPreload();
  });

  it('exposes one object, window.diskdial, with exactly invoke and on; the verbs built on it are the DiskDialBridge verbs', () => {
    expect([...contextBridge.exposed.keys()]).toEqual(['diskdial']);
    const transport = exposed() as unknown as Record<string, unknown>;
    expect(Object.keys(transport).sort()).toEqual(['invoke', 'on']);
    for (const key of Object.keys(transport)) expect(typeof transport[key], key).toBe('function');
    const api = bridge() as unknown as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(Object.keys(VERBS).sort());
    for (const key of Object.keys(api)) expect(typeof api[key], key).toBe('function');
  });

  it('never exposes ipcRenderer or an Electron channel name', () => {
    for (const api of [exposed(), bridge()] as unknown as Array<Record<string, unknown>>) {
      for (const value of Object.values(api)) {
        expect(value).not.toBe(ipcRenderer);
        expect(value).not.toBe(ipcRenderer.invoke);
      }
      expect(JSON.stringify(Object.keys(api))).not.toContain('diskdial:');
    }
    // An unsubscribe must not hand back removeListener's return value, which is ipcRenderer.
    const unsubscribe = bridge().onQuickDone(() => {});
    expect(unsubscribe()).toBeUndefined();
    expect(exposed().on('quick.done', () => {})()).toBeUndefined();
  });

  it('sends exactly a channel and a payload to the one invoke channel, whatever else the page passes', async () => {
    ipcRenderer.invoke.mockImplementation(async (_c, channel) => ({ ok: true, value: channel }));
    const invoke = exposed().invoke as unknown as (...args: unknown[]) => Promise<unknown>;
    await invoke('app.info', {}, 'extra', { more: 1 });
    expect(ipcRenderer.invoke.mock.calls).toEqual([[INVOKE_CHANNEL, 'app.info', {}]]);
  });

  it('maps each request verb to its contract channel and payload', async () => {
    ipcRenderer.invoke.mockImplementation(async (_c, channel) => ({ ok: true, value: channel }));
    const b = bridge();
    const settings = { target: '/Volumes/T7', sizeBytes: 5e9, mode: 'runs', runs: 1 } as const;
    await expect(b.appInfo()).resolves.toEqual({ ok: true, value: 'app.info' });
    await b.listTargets();
    await b.describeTarget('/Volumes/T7');
    await b.chooseFolder();
    await b.startQuickTest(settings);
    await b.stopQuickTest('job-1');
    expect(ipcRenderer.invoke.mock.calls).toEqual([
      [INVOKE_CHANNEL, 'app.info', {}],
      [INVOKE_CHANNEL, 'targets.list', {}],
      [INVOKE_CHANNEL, 'targets.describe', { path: '/Volumes/T7' }],
      [INVOKE_CHANNEL, 'targets.choose', {}],
      [INVOKE_CHANNEL, 'quick.start', settings],
      [INVOKE_CHANNEL, 'quick.stop', { jobId: 'job-1' }],
    ]);
  });

  it('maps the history, share, save and clipboard verbs to their channels, leaving absent options out', async () => {
    ipcRenderer.invoke.mockImplementation(async (_c, channel) => ({ ok: true, value: channel }));
    const b = bridge();
    await b.listHistory();
    await b.listHistory({ search: 'hub', offset: 50, limit: 50 });
    await b.driveHistory('serial:S1');
    await b.getResult('r1');
    await b.labelResult('r1', 'Through the hub');
    await b.deleteResults(['r1', 'r2']);
    await b.importResult('{}');
    await b.importResult('{}', 'a.json');
    await b.exportResults(['r1'], 'md');
    await b.exportResults(['r1', 'r2'], 'csv', 'r2');
    await b.shareCard('r1');
    await b.shareCard('r1', 3);
    await b.saveFile('card.png', 'iVBO', 'base64', 'image/png');
    await b.copyText('| a |');
    await b.copyImage('iVBO');
    expect(ipcRenderer.invoke.mock.calls).toEqual([
      [INVOKE_CHANNEL, 'history.list', {}],
      [INVOKE_CHANNEL, 'history.list', { search: 'hub', offset: 50, limit: 50 }],
      [INVOKE_CHANNEL, 'history.drive', { driveKey: 'serial:S1' }],
      [INVOKE_CHANNEL, 'history.get', { id: 'r1' }],
      [INVOKE_CHANNEL, 'history.label', { id: 'r1', label: 'Through the hub' }],
      [INVOKE_CHANNEL, 'history.delete', { ids: ['r1', 'r2'] }],
      [INVOKE_CHANNEL, 'history.import', { json: '{}' }],
      [INVOKE_CHANNEL, 'history.import', { json: '{}', name: 'a.json' }],
      [INVOKE_CHANNEL, 'history.export', { ids: ['r1'], format: 'md' }],
      [INVOKE_CHANNEL, 'history.export', { ids: ['r1', 'r2'], format: 'csv', baseline: 'r2' }],
      [INVOKE_CHANNEL, 'share.card', { id: 'r1' }],
      [INVOKE_CHANNEL, 'share.card', { id: 'r1', scale: 3 }],
      [INVOKE_CHANNEL, 'files.save', { filename: 'card.png', data: 'iVBO', encoding: 'base64' }],
      [INVOKE_CHANNEL, 'clipboard.write', { text: '| a |' }],
      [INVOKE_CHANNEL, 'clipboard.write', { pngBase64: 'iVBO' }],
    ]);
  });

  it('maps the wizard and report verbs to their channels', async () => {
    ipcRenderer.invoke.mockImplementation(async (_c, channel) => ({ ok: true, value: channel }));
    const b = bridge();
    const settings = {
      device: '/dev/sdb',
      identity: { path: '/dev/sdb', sizeBytes: 1e12 },
      confirmName: 'T7',
      formats: ['ext4'],
      plan: 'quick',
      sizes: [1e9],
      runs: 5,
      restSeconds: 300,
      finalFormat: 'ext4',
    } as const;
    await b.listDisks();
    await b.listDisks(true);
    await b.listFormats();
    await b.startWizard({ ...settings, formats: [...settings.formats], sizes: [...settings.sizes] });
    await b.stopWizard('j1');
    await b.listPlans();
    await b.resumePlan('p1', 'T7');
    await b.discardPlan('p1');
    await b.exportReport(['r1', 'r2'], 'md');
    await b.exportReport(['r1', 'r2'], 'html', 'xfs');
    await b.saveReportPdf(['r1']);
    expect(ipcRenderer.invoke.mock.calls.map((c) => c.slice(1))).toEqual([
      ['disks.list', {}],
      ['disks.list', { includeInternal: true }],
      ['formats.list', {}],
      ['wizard.start', settings],
      ['wizard.stop', { jobId: 'j1' }],
      ['wizard.plans', {}],
      ['wizard.resume', { planId: 'p1', confirmName: 'T7' }],
      ['wizard.discard', { planId: 'p1' }],
      ['report.export', { ids: ['r1', 'r2'], format: 'md' }],
      ['report.export', { ids: ['r1', 'r2'], format: 'html', baseline: 'xfs' }],
      ['report.pdf', { ids: ['r1'] }],
    ]);
  });

  it('passes only the data of its own event channel to a subscriber, until it unsubscribes', () => {
    const progress: QuickProgressEvent = {
      jobId: 'j',
      cycle: 1,
      cycles: 2,
      phase: 'read',
      stage: 'run',
      instMBps: 2800,
      avgMBps: 2750,
      bytesDone: 10,
      bytesTotal: 100,
      elapsed: 1,
    };
    const seen: unknown[][] = [];
    const unsubscribe = bridge().onQuickProgress((...args: unknown[]) => seen.push(args));
    const ipcEvent = { sender: ipcRenderer, senderId: 0, ports: [] };

    ipcRenderer.emit(EVENT_CHANNEL, ipcEvent, 'quick.progress', progress);
    ipcRenderer.emit(EVENT_CHANNEL, ipcEvent, 'quick.done', { jobId: 'j', outcome: 'finished' });
    expect(seen).toEqual([[progress]]); // the data alone: no IpcRendererEvent, no other channel

    expect(ipcRenderer.listenerCount(EVENT_CHANNEL)).toBe(1);
    unsubscribe();
    expect(ipcRenderer.listenerCount(EVENT_CHANNEL)).toBe(0);
    ipcRenderer.emit(EVENT_CHANNEL, ipcEvent, 'quick.progress', progress);
    expect(seen).toHaveLength(1);
  });

  it('routes each on* verb to its own event', () => {
    const got: string[] = [];
    const b = bridge();
    const offs = [
      b.onQuickProgress(() => got.push('progress')),
      b.onQuickCycle(() => got.push('cycle')),
      b.onQuickDone(() => got.push('done')),
    ];
    for (const channel of ['quick.done', 'quick.cycle', 'quick.progress', 'quick.other']) {
      ipcRenderer.emit(EVENT_CHANNEL, {}, channel, {});
    }
    expect(got).toEqual(['done', 'cycle', 'progress']);
    const wizard: string[] = [];
    const wizardOffs = [
      b.onWizardProgress(() => wizard.push('progress')),
      b.onWizardFormat(() => wizard.push('format')),
      b.onWizardDone(() => wizard.push('done')),
    ];
    for (const channel of ['wizard.done', 'wizard.format', 'wizard.progress', 'quick.done'])
      ipcRenderer.emit(EVENT_CHANNEL, {}, channel, {});
    expect(wizard).toEqual(['done', 'format', 'progress']);
    for (const off of wizardOffs) off();
    got.length = 3;
    // Unsubscribing one leaves the others.
    offs[1]!();
    ipcRenderer.emit(EVENT_CHANNEL, {}, 'quick.cycle', {});
    ipcRenderer.emit(EVENT_CHANNEL, {}, 'quick.done', {});
    expect(got).toEqual(['done', 'cycle', 'progress', 'done']);
  });
});
