// A DiskDialBridge held in memory: records calls, answers from a script, and lets a test emit
// Quick Test events as the core would. No network, no Electron.
import type {
  DetailedDoneEvent,
  DetailedPlanEvent,
  DetailedProgressEvent,
  DetailedSettings,
  DetailedStepEvent,
  DiskDialBridge,
  HashDoneEvent,
  HashProgressEvent,
  HashSettings,
  HashStageEvent,
  IpcResult,
  QuickCycleEvent,
  QuickDoneEvent,
  QuickProgressEvent,
  TargetInfo,
} from '../../../app/src/ipc/contract';
import type { ResultDocument } from '../../../app/src/core/result';

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

export function resultDoc(writeMBps: number, readMBps: number, over: Partial<ResultDocument> = {}): ResultDocument {
  const test = (rw: 'write' | 'read', mbps: number) => ({ name: rw, rw, mbps }) as unknown as ResultDocument['tests'][number];
  return {
    cacheMode: 'direct',
    dataPattern: 'random',
    flags: [],
    tests: [test('write', writeMBps), test('read', readMBps)],
    ...over,
  } as ResultDocument;
}

export function progress(over: Partial<QuickProgressEvent> = {}): QuickProgressEvent {
  return { jobId: 'job-1', cycle: 1, cycles: 1, phase: 'write', stage: 'run', instMBps: 500, avgMBps: 500, bytesDone: 0, bytesTotal: 1e9, elapsed: 0.5, ...over };
}

export function createFakeBridge(targets: TargetInfo[] = [target()]) {
  const ok = <T,>(value: T): Promise<IpcResult<T>> => Promise.resolve({ ok: true, value });
  const progressCbs = new Set<(e: QuickProgressEvent) => void>();
  const cycleCbs = new Set<(e: QuickCycleEvent) => void>();
  const doneCbs = new Set<(e: QuickDoneEvent) => void>();
  const calls = { start: [] as unknown[], stop: [] as string[], describe: [] as string[], detailedStart: [] as DetailedSettings[], detailedStop: [] as string[] };
  const dPlan = new Set<(e: DetailedPlanEvent) => void>();
  const dProgress = new Set<(e: DetailedProgressEvent) => void>();
  const dStep = new Set<(e: DetailedStepEvent) => void>();
  const dDone = new Set<(e: DetailedDoneEvent) => void>();
  const hProgress = new Set<(e: HashProgressEvent) => void>();
  const hStage = new Set<(e: HashStageEvent) => void>();
  const hDone = new Set<(e: HashDoneEvent) => void>();
  const hashCalls = { start: [] as HashSettings[], stop: [] as string[], chooseFile: 0 };
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
      return Promise.resolve({ ok: false, error: { code: 'ERR_UNSUPPORTED', message: 'Choosing a file needs the desktop app; type a path instead.' } });
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
  };
}
