// A DiskDialBridge held in memory: records calls, answers from a script, and lets a test emit
// Quick Test events as the core would. No network, no Electron. History keeps its saved results
// here too (`fake.history`): a listing the verbs change as the core's store would; the wizard's
// disks, formats and saved plans are in `fake.wizard`, its calls in `fake.wizardCalls`.
import type { DiskDialBridge, IpcResult } from '@ipc/contract';
import { driveFacets, queryEntries } from '../../../app/src/core/history-query';
import type { ResultDocument } from '@model/result';
import type { FormatInfo, WizardDisk, WizardPlanState } from '@model/wizard/types';
import { metricValue, resultMetrics, resultName, resultTitle, targetLine } from '@model/report/metrics';
import type {
  CampaignDoneEvent,
  CampaignProgressEvent,
  CampaignWaitingEvent,
  DetailedDoneEvent,
  DetailedPlanEvent,
  DetailedProgressEvent,
  DetailedStepEvent,
  CheckDoneEvent,
  JobNotAnsweringEvent,
  CheckProgressEvent,
  HashDoneEvent,
  HashProgressEvent,
  HashStageEvent,
  QuickCycleEvent,
  QuickDoneEvent,
  QuickProgressEvent,
  WizardDoneEvent,
  WizardFormatEvent,
  WizardProgressEvent,
} from '@model/events';
import type { CampaignSettings, CheckSettings, DetailedSettings, ExportFormat, HashSettings, WizardSettings } from '@model/settings';
import type { CampaignState } from '@model/campaign';
import type { HistoryEntry, HistoryListing, HistoryQuery, TargetInfo } from '@model/history';

/** A history row for `doc`, as the core's store lists it. */
export function historyEntry(doc: ResultDocument, over: Partial<HistoryEntry> = {}): HistoryEntry {
  const d = doc.target.device;
  const entry: HistoryEntry = {
    id: doc.id,
    kind: doc.kind,
    name: resultName(doc),
    title: resultTitle(doc),
    startedAt: doc.startedAt,
    drive: targetLine(doc),
    driveKey: d.serial ?? (d.model && d.model !== 'unknown' ? `${d.model}/${doc.target.totalBytes}` : doc.target.volume),
    volume: doc.target.volume,
    fs: doc.target.fs,
    cacheMode: doc.cacheMode,
    headline: resultMetrics(doc)
      .filter((m) => m.primary)
      .slice(0, 4)
      .map((m) => ({ label: m.label, value: metricValue(m), unit: m.unit })),
    warnings: (doc.flags ?? []).filter((f) => f.severity !== 'info').length,
    origin: 'local',
    appVersion: doc.app.version,
    ...over,
  };
  if (doc.label) entry.label = doc.label;
  return entry;
}

/** A 1×1 PNG, base64. */
export const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const MIME: Record<ExportFormat, string> = {
  md: 'text/markdown',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  html: 'text/html',
};

export function target(over: Partial<TargetInfo> = {}): TargetInfo {
  return {
    path: '/media/t7',
    name: 'T7',
    mountPoint: '/media/t7',
    fs: 'exfat',
    totalBytes: 1e12,
    freeBytes: 6e11,
    device: { model: 'Samsung PSSD T7', bus: 'usb', removable: true },
    readOnly: false,
    startable: true,
    ...over,
  };
}

/** A folder on a network share (an SFTP mount through sshfs), as the core lists it. */
export function shareTarget(over: Partial<TargetInfo> = {}): TargetInfo {
  return target({
    path: '/mnt/nas',
    name: 'nas',
    mountPoint: '/mnt/nas',
    fs: 'fuse.sshfs',
    device: { bus: 'network', link: { label: 'sshfs (SFTP) · 10.231.0.2:/srv/share · via dd-veth0' } },
    ...over,
  });
}

export function resultDoc(writeMBps: number, readMBps: number, over: Partial<ResultDocument> = {}): ResultDocument {
  // The fields a finished cycle's tests carry that combining runs reads (the store combines them).
  const latencyUs = { mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0 };
  const test = (rw: 'write' | 'read', mbps: number) =>
    ({ name: rw, rw, mbps, iops: mbps, run: 1, latencyUs }) as unknown as ResultDocument['tests'][number];
  return {
    kind: 'quick',
    cacheMode: 'direct',
    dataPattern: 'random',
    flags: [],
    tests: [test('write', writeMBps), test('read', readMBps)],
    ...over,
  } as ResultDocument;
}

export function progress(over: Partial<QuickProgressEvent> = {}): QuickProgressEvent {
  return {
    jobId: 'job-1',
    cycle: 1,
    cycles: 1,
    phase: 'write',
    stage: 'run',
    instMBps: 500,
    avgMBps: 500,
    bytesDone: 0,
    bytesTotal: 1e9,
    elapsed: 0.5,
    ...over,
  };
}

export function createFakeBridge(targets: TargetInfo[] = [target()]) {
  const ok = <T,>(value: T): Promise<IpcResult<T>> => Promise.resolve({ ok: true, value });
  const progressCbs = new Set<(e: QuickProgressEvent) => void>();
  const cycleCbs = new Set<(e: QuickCycleEvent) => void>();
  const doneCbs = new Set<(e: QuickDoneEvent) => void>();
  const calls = {
    start: [] as unknown[],
    stop: [] as string[],
    describe: [] as string[],
    detailedStart: [] as DetailedSettings[],
    detailedStop: [] as string[],
  };
  const dPlan = new Set<(e: DetailedPlanEvent) => void>();
  const dProgress = new Set<(e: DetailedProgressEvent) => void>();
  const dStep = new Set<(e: DetailedStepEvent) => void>();
  const dDone = new Set<(e: DetailedDoneEvent) => void>();
  const hProgress = new Set<(e: HashProgressEvent) => void>();
  const hStage = new Set<(e: HashStageEvent) => void>();
  const hDone = new Set<(e: HashDoneEvent) => void>();
  const hashCalls = { start: [] as HashSettings[], stop: [] as string[], chooseFile: 0 };
  const cProgress = new Set<(e: CheckProgressEvent) => void>();
  const cDone = new Set<(e: CheckDoneEvent) => void>();
  const notAnswering = new Set<(e: JobNotAnsweringEvent) => void>();
  const checkCalls = { start: [] as CheckSettings[], stop: [] as string[] };
  // History: documents by id, and the listing the verbs answer with.
  const history = {
    dir: '/home/ana/.local/share/diskdial/results',
    docs: new Map<string, ResultDocument>(),
    entries: [] as HistoryEntry[],
    skipped: [] as HistoryListing['skipped'],
    /** Adds saved results (newest first, as given). */
    add(...docs: ResultDocument[]) {
      for (const doc of docs) {
        history.docs.set(doc.id, doc);
        history.entries.push(historyEntry(doc));
      }
    },
  };
  const historyCalls = {
    list: 0,
    queries: [] as HistoryQuery[],
    get: [] as string[],
    label: [] as Array<{ id: string; label: string }>,
    delete: [] as string[][],
    import: [] as Array<{ json: string; name: string | undefined }>,
    export: [] as Array<{ ids: string[]; format: ExportFormat; baseline: string | undefined; fps?: number }>,
    share: [] as Array<{ id: string; scale: number | undefined }>,
    save: [] as Array<{ filename: string; data: string; encoding: 'utf8' | 'base64'; mime: string }>,
    copyText: [] as string[],
    copyImage: [] as string[],
  };
  // The wizard: the disks and formats the core would list, its saved plans, and every call.
  const wizard = {
    disks: [] as WizardDisk[],
    formats: [] as FormatInfo[],
    plans: [] as WizardPlanState[],
    /** What wizard.start / wizard.resume answer (an error to refuse). */
    startResult: { ok: true, value: { jobId: 'wjob-1', planId: 'plan-1' } } as IpcResult<{ jobId: string; planId: string }>,
    /** What report.pdf answers: browser mode's ERR_UNSUPPORTED unless a test says otherwise. */
    pdfResult: { ok: false, error: { code: 'ERR_UNSUPPORTED', message: 'Saving a PDF needs the desktop app.' } } as IpcResult<{
      path: string;
    } | null>,
  };
  const wizardCalls = {
    listDisks: [] as Array<boolean | undefined>,
    listFormats: 0,
    start: [] as WizardSettings[],
    stop: [] as string[],
    plans: 0,
    resume: [] as Array<{ planId: string; confirmName: string }>,
    discard: [] as string[],
    exportReport: [] as Array<{ ids: string[]; format: ExportFormat; baseline: string | undefined }>,
    pdf: [] as Array<{ ids: string[]; baseline: string | undefined }>,
  };
  const wProgress = new Set<(e: WizardProgressEvent) => void>();
  const wFormat = new Set<(e: WizardFormatEvent) => void>();
  const wDone = new Set<(e: WizardDoneEvent) => void>();
  // Compare setups: every call, the unfinished campaigns the core would list, and its events.
  const campaign = { list: [] as CampaignState[] };
  const campaignCalls = {
    start: [] as CampaignSettings[],
    continue: [] as Array<{ campaignId: string; go: boolean }>,
    stop: [] as string[],
    resume: [] as string[],
    discard: [] as string[],
  };
  const campWaiting = new Set<(e: CampaignWaitingEvent) => void>();
  const campProgress = new Set<(e: CampaignProgressEvent) => void>();
  const campDone = new Set<(e: CampaignDoneEvent) => void>();
  const notFound = (id: string) => Promise.resolve({ ok: false as const, error: { code: 'ENOENT', message: `No saved result ${id}.` } });
  const bridge: DiskDialBridge = {
    appInfo: () => ok({ appVersion: '0.1.0', engineVersion: '0.1.0', platform: 'linux', shell: 'browser' }),
    listTargets: () => ok(targets),
    describeTarget: (path) => {
      calls.describe.push(path);
      return ok(target({ path, name: path, mountPoint: path }));
    },
    chooseFolder: () => Promise.resolve({ ok: false, error: { code: 'ERR_UNSUPPORTED', message: 'Not in browser mode.' } }),
    startQuickTest: (s) => {
      calls.start.push(s);
      return ok({ jobId: 'job-1' });
    },
    stopQuickTest: (jobId) => {
      calls.stop.push(jobId);
      return ok({ stopped: true });
    },
    onQuickProgress: (cb) => (progressCbs.add(cb), () => void progressCbs.delete(cb)),
    onQuickCycle: (cb) => (cycleCbs.add(cb), () => void cycleCbs.delete(cb)),
    onQuickDone: (cb) => (doneCbs.add(cb), () => void doneCbs.delete(cb)),
    startDetailed: (s) => {
      calls.detailedStart.push(s);
      return ok({ jobId: 'djob-1' });
    },
    stopDetailed: (jobId) => {
      calls.detailedStop.push(jobId);
      return ok({ stopped: true });
    },
    onDetailedPlan: (cb) => (dPlan.add(cb), () => void dPlan.delete(cb)),
    onDetailedProgress: (cb) => (dProgress.add(cb), () => void dProgress.delete(cb)),
    onDetailedStep: (cb) => (dStep.add(cb), () => void dStep.delete(cb)),
    onDetailedDone: (cb) => (dDone.add(cb), () => void dDone.delete(cb)),
    chooseFile: () => {
      hashCalls.chooseFile++;
      return Promise.resolve({
        ok: false,
        error: { code: 'ERR_UNSUPPORTED', message: 'Choosing a file needs the desktop app; type a path instead.' },
      });
    },
    startHash: (s) => {
      hashCalls.start.push(s);
      return ok({ jobId: 'hjob-1' });
    },
    stopHash: (jobId) => {
      hashCalls.stop.push(jobId);
      return ok({ stopped: true });
    },
    onHashProgress: (cb) => (hProgress.add(cb), () => void hProgress.delete(cb)),
    onHashStage: (cb) => (hStage.add(cb), () => void hStage.delete(cb)),
    onHashDone: (cb) => (hDone.add(cb), () => void hDone.delete(cb)),
    startCheck: (s) => {
      checkCalls.start.push(s);
      return ok({ jobId: 'cjob-1' });
    },
    stopCheck: (jobId) => {
      checkCalls.stop.push(jobId);
      return ok({ stopped: true });
    },
    onCheckProgress: (cb) => (cProgress.add(cb), () => void cProgress.delete(cb)),
    onCheckDone: (cb) => (cDone.add(cb), () => void cDone.delete(cb)),
    onJobNotAnswering: (cb) => (notAnswering.add(cb), () => void notAnswering.delete(cb)),
    listHistory: (query = {}) => {
      historyCalls.list++;
      historyCalls.queries.push(query);
      // The core's own plain-code answer to a query (core/history-query.ts), over the fake's rows.
      const page = queryEntries(history.entries, query);
      return ok({
        dir: history.dir,
        ...page,
        offset: query.offset ?? 0,
        drives: driveFacets(history.entries),
        skipped: [...history.skipped],
      });
    },
    driveHistory: (driveKey) => ok(queryEntries(history.entries, { driveKey, sort: 'date', order: 'asc' }).entries),
    getResult: (id) => {
      historyCalls.get.push(id);
      const doc = history.docs.get(id);
      return doc ? ok(JSON.parse(JSON.stringify(doc)) as ResultDocument) : notFound(id);
    },
    labelResult: (id, label) => {
      historyCalls.label.push({ id, label });
      const doc = history.docs.get(id);
      if (!doc) return notFound(id);
      if (label.trim()) doc.label = label.trim();
      else delete doc.label;
      const entry = historyEntry(doc, { origin: history.entries.find((e) => e.id === id)?.origin ?? 'local' });
      history.entries = history.entries.map((e) => (e.id === id ? entry : e));
      return ok(entry);
    },
    deleteResults: (ids) => {
      historyCalls.delete.push(ids);
      const before = history.entries.length;
      history.entries = history.entries.filter((e) => !ids.includes(e.id));
      for (const id of ids) history.docs.delete(id);
      return ok({ deleted: before - history.entries.length });
    },
    importResult: (json, name) => {
      historyCalls.import.push({ json, name });
      let doc: ResultDocument;
      try {
        doc = JSON.parse(json) as ResultDocument;
      } catch {
        return Promise.resolve({
          ok: false,
          error: { code: 'ERR_INVALID_RESULT', message: `${name ?? 'The file'} is not a DiskDial result (not JSON).` },
        });
      }
      const known = history.entries.find((e) => e.id === doc.id);
      if (known) return ok({ entry: known, duplicate: true });
      history.docs.set(doc.id, doc);
      const entry = historyEntry(doc, { origin: 'imported' });
      history.entries = [entry, ...history.entries];
      return ok({ entry, duplicate: false });
    },
    exportResults: (ids, format, baseline, fps) => {
      historyCalls.export.push({ ids, format, baseline, ...(fps === undefined ? {} : { fps }) });
      const kind = ids.length > 1 ? 'compare' : (history.docs.get(ids[0]!)?.kind ?? 'result');
      return ok({ filename: `diskdial-${kind}-2026-11-22.${format}`, mime: MIME[format], text: `${format} export of ${ids.join(', ')}` });
    },
    shareCard: (id, scale) => {
      historyCalls.share.push({ id, scale });
      if (!history.docs.has(id)) return notFound(id);
      return ok({
        pngBase64: PNG_1X1,
        width: 1200,
        height: 1260,
        svg: '<svg xmlns="http://www.w3.org/2000/svg"/>',
        filename: `diskdial-${history.docs.get(id)!.kind}-2026-11-22.png`,
      });
    },
    saveFile: (filename, data, encoding, mime) => {
      historyCalls.save.push({ filename, data, encoding, mime });
      return ok({ path: `/home/ana/Downloads/${filename}` });
    },
    copyText: (text) => {
      historyCalls.copyText.push(text);
      return ok({ written: true as const });
    },
    copyImage: (pngBase64) => {
      historyCalls.copyImage.push(pngBase64);
      return ok({ written: true as const });
    },
    listDisks: (includeInternal) => {
      wizardCalls.listDisks.push(includeInternal);
      return ok(wizard.disks.filter((d) => includeInternal || !d.internal || d.system));
    },
    listFormats: () => {
      wizardCalls.listFormats++;
      return ok(wizard.formats);
    },
    startWizard: (s) => {
      wizardCalls.start.push(s);
      return Promise.resolve(wizard.startResult);
    },
    stopWizard: (jobId) => {
      wizardCalls.stop.push(jobId);
      return ok({ stopped: true });
    },
    listPlans: () => {
      wizardCalls.plans++;
      return ok([...wizard.plans]);
    },
    resumePlan: (planId, confirmName) => {
      wizardCalls.resume.push({ planId, confirmName });
      return Promise.resolve(wizard.startResult);
    },
    discardPlan: (planId) => {
      wizardCalls.discard.push(planId);
      wizard.plans = wizard.plans.filter((p) => p.id !== planId);
      return ok({ discarded: true });
    },
    exportReport: (ids, format, baseline) => {
      wizardCalls.exportReport.push({ ids, format, baseline });
      return ok({ filename: `diskdial-report-2026-11-22.${format}`, mime: MIME[format], text: `${format} report of ${ids.join(', ')}` });
    },
    saveReportPdf: (ids, baseline) => {
      wizardCalls.pdf.push({ ids, baseline });
      return Promise.resolve(wizard.pdfResult);
    },
    onWizardProgress: (cb) => (wProgress.add(cb), () => void wProgress.delete(cb)),
    onWizardFormat: (cb) => (wFormat.add(cb), () => void wFormat.delete(cb)),
    onWizardDone: (cb) => (wDone.add(cb), () => void wDone.delete(cb)),
    startCampaign: (settings) => {
      campaignCalls.start.push(settings);
      return ok({ jobId: 'cjob-1', campaignId: 'camp-1' });
    },
    continueCampaign: (campaignId, go) => {
      campaignCalls.continue.push({ campaignId, go });
      return ok({ accepted: true });
    },
    stopCampaign: (jobId) => {
      campaignCalls.stop.push(jobId);
      return ok({ stopped: true });
    },
    listCampaigns: () => ok([...campaign.list]),
    resumeCampaign: (campaignId) => {
      campaignCalls.resume.push(campaignId);
      return ok({ jobId: 'cjob-2', campaignId });
    },
    discardCampaign: (campaignId) => {
      campaignCalls.discard.push(campaignId);
      campaign.list = campaign.list.filter((c) => c.id !== campaignId);
      return ok({ discarded: true });
    },
    onCampaignWaiting: (cb) => (campWaiting.add(cb), () => void campWaiting.delete(cb)),
    onCampaignProgress: (cb) => (campProgress.add(cb), () => void campProgress.delete(cb)),
    onCampaignDone: (cb) => (campDone.add(cb), () => void campDone.delete(cb)),
  };
  return {
    bridge,
    calls,
    emitProgress: (e: QuickProgressEvent) => progressCbs.forEach((cb) => cb(e)),
    emitCycle: (e: QuickCycleEvent) => cycleCbs.forEach((cb) => cb(e)),
    emitDone: (e: QuickDoneEvent) => doneCbs.forEach((cb) => cb(e)),
    emitDetailedPlan: (e: DetailedPlanEvent) => dPlan.forEach((cb) => cb(e)),
    emitDetailedProgress: (e: DetailedProgressEvent) => dProgress.forEach((cb) => cb(e)),
    emitDetailedStep: (e: DetailedStepEvent) => dStep.forEach((cb) => cb(e)),
    emitDetailedDone: (e: DetailedDoneEvent) => dDone.forEach((cb) => cb(e)),
    listeners: () => progressCbs.size + cycleCbs.size + doneCbs.size,
    detailedListeners: () => dPlan.size + dProgress.size + dStep.size + dDone.size,
    hashCalls,
    emitHashProgress: (e: HashProgressEvent) => hProgress.forEach((cb) => cb(e)),
    emitHashStage: (e: HashStageEvent) => hStage.forEach((cb) => cb(e)),
    emitHashDone: (e: HashDoneEvent) => hDone.forEach((cb) => cb(e)),
    hashListeners: () => hProgress.size + hStage.size + hDone.size,
    checkCalls,
    emitCheckProgress: (e: CheckProgressEvent) => cProgress.forEach((cb) => cb(e)),
    emitCheckDone: (e: CheckDoneEvent) => cDone.forEach((cb) => cb(e)),
    checkListeners: () => cProgress.size + cDone.size,
    emitNotAnswering: (e: JobNotAnsweringEvent) => notAnswering.forEach((cb) => cb(e)),
    history,
    historyCalls,
    wizard,
    wizardCalls,
    emitWizardProgress: (e: WizardProgressEvent) => wProgress.forEach((cb) => cb(e)),
    emitWizardFormat: (e: WizardFormatEvent) => wFormat.forEach((cb) => cb(e)),
    emitWizardDone: (e: WizardDoneEvent) => wDone.forEach((cb) => cb(e)),
    wizardListeners: () => wProgress.size + wFormat.size + wDone.size,
    campaign,
    campaignCalls,
    emitCampaignWaiting: (e: CampaignWaitingEvent) => campWaiting.forEach((cb) => cb(e)),
    emitCampaignProgress: (e: CampaignProgressEvent) => campProgress.forEach((cb) => cb(e)),
    emitCampaignDone: (e: CampaignDoneEvent) => campDone.forEach((cb) => cb(e)),
  };
}
