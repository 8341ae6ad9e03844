// The window: a header with the app name, the screen tabs (Quick Test, Detailed, Hash, Compare
// formats, Compare setups, History) and the target picker they share; the screens; and a footer line with app and engine versions.
//
// A screen mounts when first opened and then stays mounted, hidden while another is shown, so a
// test keeps receiving its events (and a screen keeps its figures) while the user looks at the
// other. One test runs at a time: while any screen's test runs, the picker is locked and every
// other screen's Start says why (the format-and-compare wizard takes part like the others: its
// plan is the one test while it runs). History runs no test; it reads its list again each time it
// is shown (its screen gets `active`).
//
// When browser mode loses `diskdial serve` (stopped, or a page with the wrong token) a banner
// stays on top saying so and what to do, and every control below it is disabled (a disabled
// fieldset) until the bridge has connected again by itself; then targets and versions reload.
import { useEffect, useRef, useState, type ComponentType, type KeyboardEvent } from 'react';
import { TargetPicker } from '../components/target-picker';
import { useTargetsStore } from '../lib/targets-store';
import type { AppInfo } from '@model/history';
import { QuickTestScreen } from '../features/quick-test/quick-test-screen';
import { selectIsBusy, useQuickTestStore } from '../features/quick-test/store';
import { DetailedScreen } from '../features/detailed/detailed-screen';
import { selectDetailedBusy, useDetailedStore } from '../features/detailed/store';
import { HashScreen } from '../features/hash/hash-screen';
import { selectCheckBusy, useCheckStore } from '../features/hash/check-store';
import { selectHashBusy, useHashStore } from '../features/hash/store';
import { HistoryScreen } from '../features/history/history-screen';
import { WizardScreen } from '../features/wizard/wizard-screen';
import { selectWizardBusy, useWizardStore } from '../features/wizard/store';
import { CampaignScreen } from '../features/campaign/campaign-screen';
import { selectCampaignBusy, useCampaignStore } from '../features/campaign/store';
import { getBridge, useConnection } from '../lib/bridge';
import { NotAnsweringBanner } from './not-answering-banner';
import { useNavigationStore, type ScreenId } from '../lib/navigation';
interface ScreenDef {
  id: ScreenId;
  label: string;
  Screen: ComponentType<{ lockedReason?: string | undefined; active?: boolean }>;
  /** What the other screens say while this screen's test runs (absent: it runs no test). */
  busyReason?: string;
}
const SCREENS: readonly ScreenDef[] = [
  { id: 'quick', label: 'Quick Test', Screen: QuickTestScreen, busyReason: 'A Quick Test is running. Stop it or wait for it to finish.' },
  {
    id: 'detailed',
    label: 'Detailed',
    Screen: DetailedScreen,
    busyReason: 'A detailed test is running. Stop it or wait for it to finish.',
  },
  { id: 'hash', label: 'Hash', Screen: HashScreen, busyReason: 'A hash test is running. Stop it or wait for it to finish.' },
  {
    id: 'wizard',
    label: 'Format & compare',
    Screen: WizardScreen,
    busyReason: 'A format-and-compare plan is running. Stop it or wait for it to finish.',
  },
  {
    id: 'campaign',
    label: 'Compare setups',
    Screen: CampaignScreen,
    busyReason: 'Compare setups is running. Stop it or wait for it to finish.',
  },
  { id: 'history', label: 'History', Screen: HistoryScreen },
];

/** The screen whose test is starting, running or stopping, or null (one at a time). */
function useRunningScreen(): ScreenId | null {
  const quick = useQuickTestStore(selectIsBusy);
  const detailed = useDetailedStore(selectDetailedBusy);
  const hashing = useHashStore(selectHashBusy);
  const checking = useCheckStore(selectCheckBusy);
  const hash = hashing || checking;
  const wizard = useWizardStore(selectWizardBusy);
  const campaign = useCampaignStore(selectCampaignBusy);
  return quick ? 'quick' : detailed ? 'detailed' : hash ? 'hash' : wizard ? 'wizard' : campaign ? 'campaign' : null;
}

function Logo() {
  return (
    <svg className="logo" viewBox="0 0 32 32" aria-hidden="true">
      <circle
        cx="16"
        cy="16"
        r="14"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeDasharray="66 22"
        strokeDashoffset="-11"
        strokeLinecap="round"
      />
      <path d="M16 16 L24 9" stroke="#ff6a3d" strokeWidth="3" strokeLinecap="round" />
      <circle cx="16" cy="16" r="3" fill="#2fd4a3" />
    </svg>
  );
}

/** The screen tabs (WAI-ARIA tabs: arrow keys, Home and End move between them). */
function ScreenTabs({ current, onChange }: { current: ScreenId; onChange(id: ScreenId): void }) {
  const refs = useRef<Partial<Record<ScreenId, HTMLButtonElement | null>>>({});
  const onKeyDown = (e: KeyboardEvent) => {
    const i = SCREENS.findIndex((s) => s.id === current);
    const next =
      e.key === 'ArrowRight'
        ? (i + 1) % SCREENS.length
        : e.key === 'ArrowLeft'
          ? (i - 1 + SCREENS.length) % SCREENS.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? SCREENS.length - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    const id = SCREENS[next]!.id;
    onChange(id);
    refs.current[id]?.focus();
  };
  return (
    <div className="screen-tabs" role="tablist" aria-label="Screens" onKeyDown={onKeyDown}>
      {SCREENS.map((s) => (
        <button
          key={s.id}
          ref={(el) => {
            refs.current[s.id] = el;
          }}
          type="button"
          role="tab"
          id={`tab-${s.id}`}
          aria-selected={current === s.id}
          aria-controls={`screen-${s.id}`}
          tabIndex={current === s.id ? 0 : -1}
          className="screen-tab"
          data-testid={`nav-${s.id}`}
          onClick={() => onChange(s.id)}
        >
          {s.label}
        </button>
      ))}
    </div>
  );
}

/** Browser mode without its server: what happened and what to do, until it is back. */
function ConnectionBanner({ refused }: { refused: boolean }) {
  return (
    <div className="connection-banner" role="alert" data-testid="connection-banner">
      <strong>Not connected to DiskDial.</strong>{' '}
      {refused ? (
        <span>
          The server is running but refused this page’s token: it was started again with a new token, or this address was mistyped. Open the
          URL <code>diskdial serve</code> printed in its terminal (with its token).
        </span>
      ) : (
        <span>
          If <code>diskdial serve</code> stopped, start it again in its terminal and open the URL it prints (with its token). This page
          reconnects by itself when the server is back on the same port and token.
        </span>
      )}
    </div>
  );
}

/** What every screen says under its Start while the page has no server. */
const OFFLINE_REASON = 'Not connected to DiskDial: see the note at the top.';

export function App() {
  const running = useRunningScreen();
  const connection = useConnection();
  const offline = connection === 'disconnected' || connection === 'refused';
  const load = useTargetsStore((s) => s.load);
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [screen, setScreen] = useState<ScreenId>('quick');
  const [opened, setOpened] = useState<ReadonlySet<ScreenId>>(() => new Set(['quick']));
  const show = (id: ScreenId) => {
    setScreen(id);
    setOpened((o) => (o.has(id) ? o : new Set([...o, id])));
  };

  // A screen asked for from inside another ("Check this format" opens Detailed).
  const asked = useNavigationStore((s) => s.screen);
  useEffect(() => {
    if (asked) show(asked.id);
  }, [asked]);

  // On mount, and again each time the connection comes back.
  useEffect(() => {
    if (offline) return;
    void load();
    void getBridge()
      .appInfo()
      .then((r) => r.ok && setInfo(r.value));
  }, [load, offline]);

  const label = SCREENS.find((s) => s.id === screen)!.label;
  const busyReason = SCREENS.find((s) => s.id === running)?.busyReason;

  return (
    <div className="app">
      <header className="app-header">
        <div className="brand">
          <Logo />
          <span className="brand__name">DiskDial</span>
          <span className="brand__tag" data-testid="brand-tag">
            {label}
          </span>
        </div>
        <ScreenTabs current={screen} onChange={show} />
        <TargetPicker disabled={running !== null || offline} />
      </header>
      {offline && <ConnectionBanner refused={connection === 'refused'} />}
      <NotAnsweringBanner running={running !== null} />
      {/* The one main landmark holds every screen (each screen's own root is a plain div). */}
      <main className="app-main">
        <fieldset className="app-body" disabled={offline}>
          {SCREENS.map(({ id, label: screenLabel, Screen }) => (
            <div key={id} role="tabpanel" id={`screen-${id}`} aria-labelledby={`tab-${id}`} hidden={screen !== id}>
              {/* Each screen's one h1 (the header already shows its name, so it is for assistive tech). */}
              <h1 className="sr-only">DiskDial · {screenLabel}</h1>
              {opened.has(id) && (
                <Screen
                  lockedReason={offline ? OFFLINE_REASON : running && running !== id ? busyReason : undefined}
                  active={screen === id}
                />
              )}
            </div>
          ))}
        </fieldset>
      </main>
      <footer className="app-footer">
        {info ? (
          <span>
            DiskDial {info.appVersion} · engine {info.engineVersion} · {info.platform} ·{' '}
            {info.shell === 'browser' ? 'browser mode' : 'desktop'}
          </span>
        ) : (
          <span>DiskDial</span>
        )}
        <span>1 MB = 10⁶ bytes</span>
      </footer>
    </div>
  );
}
