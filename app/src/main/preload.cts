// The sandboxed preload: builds window.diskdial, the renderer's single door to the core, as verbs
// (DiskDialBridge in contract.ts) — never ipcRenderer, never a channel name.
// Security checklist item 20, "Do not expose Electron APIs to untrusted web content", and item 3,
// context isolation: contextBridge copies only these functions into the page's world.
//
// Why CommonJS and no imports: a sandboxed preload is not an ES module and its `require` knows
// only 'electron' (and a few Node built-ins), so this file cannot load the contract at run time;
// `import type` is erased, and the channel names below are repeated from ipc-main.ts (a test
// checks they match).
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import type { DiskDialBridge, EventChannel, EventMap, IpcResult, RequestChannel, RequestPayload, ResponseMap } from '../ipc/contract.js';

const INVOKE_CHANNEL = 'diskdial:invoke';
const EVENT_CHANNEL = 'diskdial:event';

function invoke<C extends RequestChannel>(channel: C, payload: RequestPayload<C>): Promise<IpcResult<ResponseMap[C]>> {
  return ipcRenderer.invoke(INVOKE_CHANNEL, channel, payload) as Promise<IpcResult<ResponseMap[C]>>;
}

/**
 * One listener per subscription, filtered to one event channel. The callback gets the data only:
 * the IpcRendererEvent carries `sender` (ipcRenderer itself), which must not reach the page.
 */
function subscribe<C extends EventChannel>(wanted: C, cb: (data: EventMap[C]) => void): () => void {
  const listener = (_event: IpcRendererEvent, channel: unknown, data: unknown): void => {
    if (channel === wanted) cb(data as EventMap[C]);
  };
  ipcRenderer.on(EVENT_CHANNEL, listener);
  return () => {
    ipcRenderer.removeListener(EVENT_CHANNEL, listener);
  };
}

const bridge: DiskDialBridge = {
  appInfo: () => invoke('app.info', {}),
  listTargets: () => invoke('targets.list', {}),
  describeTarget: (path) => invoke('targets.describe', { path }),
  chooseFolder: () => invoke('targets.choose', {}),
  startQuickTest: (settings) => invoke('quick.start', settings),
  stopQuickTest: (jobId) => invoke('quick.stop', { jobId }),
  onQuickProgress: (cb) => subscribe('quick.progress', cb),
  onQuickCycle: (cb) => subscribe('quick.cycle', cb),
  onQuickDone: (cb) => subscribe('quick.done', cb),
  startDetailed: (settings) => invoke('detailed.start', settings),
  stopDetailed: (jobId) => invoke('detailed.stop', { jobId }),
  onDetailedPlan: (cb) => subscribe('detailed.plan', cb),
  onDetailedProgress: (cb) => subscribe('detailed.progress', cb),
  onDetailedStep: (cb) => subscribe('detailed.step', cb),
  onDetailedDone: (cb) => subscribe('detailed.done', cb),
  chooseFile: () => invoke('files.choose', {}),
  startHash: (settings) => invoke('hash.start', settings),
  stopHash: (jobId) => invoke('hash.stop', { jobId }),
  onHashProgress: (cb) => subscribe('hash.progress', cb),
  onHashStage: (cb) => subscribe('hash.stage', cb),
  onHashDone: (cb) => subscribe('hash.done', cb),
  listHistory: () => invoke('history.list', {}),
  getResult: (id) => invoke('history.get', { id }),
  labelResult: (id, label) => invoke('history.label', { id, label }),
  deleteResults: (ids) => invoke('history.delete', { ids }),
  importResult: (json, name) => invoke('history.import', name === undefined ? { json } : { json, name }),
  exportResults: (ids, format, baseline) => invoke('history.export', baseline === undefined ? { ids, format } : { ids, format, baseline }),
  shareCard: (id, scale) => invoke('share.card', scale === undefined ? { id } : { id, scale }),
  // `mime` is for browser mode's download; the desktop's save dialog filters by extension.
  saveFile: (filename, data, encoding) => invoke('files.save', { filename, data, encoding }),
  copyText: (text) => invoke('clipboard.write', { text }),
  copyImage: (pngBase64) => invoke('clipboard.write', { pngBase64 }),
  listDisks: (includeInternal) => invoke('disks.list', includeInternal === undefined ? {} : { includeInternal }),
  listFormats: () => invoke('formats.list', {}),
  startWizard: (settings) => invoke('wizard.start', settings),
  stopWizard: (jobId) => invoke('wizard.stop', { jobId }),
  listPlans: () => invoke('wizard.plans', {}),
  resumePlan: (planId, confirmName) => invoke('wizard.resume', { planId, confirmName }),
  discardPlan: (planId) => invoke('wizard.discard', { planId }),
  exportReport: (ids, format, baseline) => invoke('report.export', baseline === undefined ? { ids, format } : { ids, format, baseline }),
  saveReportPdf: (ids, baseline) => invoke('report.pdf', baseline === undefined ? { ids } : { ids, baseline }),
  onWizardProgress: (cb) => subscribe('wizard.progress', cb),
  onWizardFormat: (cb) => subscribe('wizard.format', cb),
  onWizardDone: (cb) => subscribe('wizard.done', cb),
};

contextBridge.exposeInMainWorld('diskdial', bridge);
