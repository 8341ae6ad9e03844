// The window: a header with the app name and the target picker, the Quick Test screen, and a
// footer line with app and engine versions.
import { useEffect, useState } from 'react';
import type { AppInfo } from '../../../app/src/ipc/contract';
import { TargetPicker } from '../features/targets/target-picker';
import { useTargetsStore } from '../features/targets/store';
import { QuickTestScreen } from '../features/quick-test/quick-test-screen';
import { selectIsBusy, useQuickTestStore } from '../features/quick-test/store';
import { getBridge } from '../lib/bridge';

function Logo() {
  return (
    <svg className="logo" viewBox="0 0 32 32" aria-hidden="true">
      <circle cx="16" cy="16" r="14" fill="none" stroke="currentColor" strokeWidth="2.5" strokeDasharray="66 22" strokeDashoffset="-11" strokeLinecap="round" />
      <path d="M16 16 L24 9" stroke="#ff6a3d" strokeWidth="3" strokeLinecap="round" />
      <circle cx="16" cy="16" r="3" fill="#2fd4a3" />
    </svg>
  );
}

export function App() {
  const busy = useQuickTestStore(selectIsBusy);
  const load = useTargetsStore((s) => s.load);
  const [info, setInfo] = useState<AppInfo | null>(null);

  useEffect(() => {
    void load();
    void getBridge()
      .appInfo()
      .then((r) => r.ok && setInfo(r.value));
  }, [load]);

  return (
    <div className="app">
      <header className="app-header">
        <div className="brand">
          <Logo />
          <span className="brand__name">DiskDial</span>
          <span className="brand__tag">Quick Test</span>
        </div>
        <TargetPicker disabled={busy} />
      </header>
      <QuickTestScreen />
      <footer className="app-footer">
        {info ? (
          <span>
            DiskDial {info.appVersion} · engine {info.engineVersion} · {info.platform} · {info.shell === 'browser' ? 'browser mode' : 'desktop'}
          </span>
        ) : (
          <span>DiskDial</span>
        )}
        <span>1 MB = 10⁶ bytes</span>
      </footer>
    </div>
  );
}
