// Moving between screens from inside one: the Will-it-work table's "Check this format" opens the
// Detailed screen with that format for its frame-paced test (the kind whose module says `paced`;
// its panel takes the check), and the Quick Test's line on a network share opens the Detailed
// panel of the kind that measures a share (`networkOnly`) for the target chosen at the top.
// Features never import each other, so the request goes through this store: the app shows the
// screen, the detailed feature takes the format or brings the panel into view.
import { create } from 'zustand';

export type ScreenId = 'quick' | 'detailed' | 'hash' | 'wizard' | 'campaign' | 'history';

/** A format to check with the frame-paced test: a format id of video-formats.json and a frame rate. */
export interface PacedCheck {
  formatId: string;
  fps: number;
  /** Which resolution's column was meant, when one was (absent: the panel picks one offered). */
  resolutionId?: string;
  /** The saved Quick Test result it was asked from: the one whose verdicts the paced test decides. */
  from?: string;
  /** Tells two requests for the same format apart, so a second click still scrolls to the panel. */
  seq: number;
}

/** A Detailed panel to bring into view, by its kind's id. */
export interface PanelRequest {
  kind: string;
  /** Tells two requests for one panel apart, so a second click still scrolls to it. */
  seq: number;
}

interface NavigationState {
  /** The screen asked for last, with its sequence number (the app shows it once). */
  screen: { id: ScreenId; seq: number } | null;
  pacedCheck: PacedCheck | null;
  panel: PanelRequest | null;
  go(id: ScreenId): void;
  checkPaced(c: Omit<PacedCheck, 'seq'>): void;
  /** Opens the Detailed screen at `kind`'s panel. */
  openPanel(kind: string): void;
  reset(): void;
}

let seq = 0;

export const useNavigationStore = create<NavigationState>()((set) => ({
  screen: null,
  pacedCheck: null,
  panel: null,
  go(id) {
    set({ screen: { id, seq: ++seq } });
  },
  checkPaced(c) {
    const n = ++seq;
    set({ pacedCheck: { ...c, seq: n }, screen: { id: 'detailed', seq: n } });
  },
  openPanel(kind) {
    const n = ++seq;
    set({ panel: { kind, seq: n }, screen: { id: 'detailed', seq: n } });
  },
  reset() {
    set({ screen: null, pacedCheck: null, panel: null });
  },
}));
