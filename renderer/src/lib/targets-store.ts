// Targets: the volumes and folders a test can run on, and which one is selected. Changed only
// through its actions; the quick-test screen reads the selection through narrow selectors.
import { create } from 'zustand';
import { getBridge } from './bridge';
import type { IpcError } from '@model/events';
import type { TargetInfo } from '@model/history';

export type ChooseOutcome = 'chosen' | 'cancelled' | 'unsupported' | 'failed';

interface TargetsState {
  targets: TargetInfo[];
  selectedPath: string | null;
  loading: boolean;
  error: IpcError | null;
  load(): Promise<void>;
  select(path: string): void;
  /** Adds (or refreshes) a described folder and selects it. */
  addTarget(t: TargetInfo): void;
  /** The OS folder picker (Electron). Browser mode answers 'unsupported'. */
  chooseFolder(): Promise<ChooseOutcome>;
  /** Describes a typed path and selects it; false when the core refused it (see `error`). */
  useFolder(path: string): Promise<boolean>;
  reset(): void;
}

const initial = { targets: [] as TargetInfo[], selectedPath: null as string | null, loading: false, error: null as IpcError | null };

export const useTargetsStore = create<TargetsState>()((set, get) => ({
  ...initial,

  async load() {
    set({ loading: true, error: null });
    const r = await getBridge().listTargets();
    if (!r.ok) {
      set({ loading: false, error: r.error });
      return;
    }
    const { selectedPath } = get();
    // Keep folders the user added by hand; the list only knows mounted volumes.
    const extra = get().targets.filter((t) => !r.value.some((v) => v.path === t.path) && t.path === selectedPath);
    const targets = [...r.value, ...extra];
    const keep = selectedPath && targets.some((t) => t.path === selectedPath) ? selectedPath : null;
    set({ loading: false, targets, selectedPath: keep ?? targets.find((t) => t.startable)?.path ?? targets[0]?.path ?? null });
  },

  select(path) {
    if (get().targets.some((t) => t.path === path)) set({ selectedPath: path });
  },

  addTarget(t) {
    const others = get().targets.filter((x) => x.path !== t.path);
    set({ targets: [...others, t], selectedPath: t.path, error: null });
  },

  async chooseFolder() {
    const r = await getBridge().chooseFolder();
    if (!r.ok) {
      if (r.error.code === 'ERR_UNSUPPORTED') return 'unsupported';
      set({ error: r.error });
      return 'failed';
    }
    if (!r.value) return 'cancelled';
    get().addTarget(r.value);
    return 'chosen';
  },

  async useFolder(path) {
    const r = await getBridge().describeTarget(path.trim());
    if (!r.ok) {
      set({ error: r.error });
      return false;
    }
    get().addTarget(r.value);
    return true;
  },

  reset() {
    set({ ...initial });
  },
}));

/** The selected target, or undefined. */
export const selectSelectedTarget = (s: TargetsState): TargetInfo | undefined => s.targets.find((t) => t.path === s.selectedPath);
