// security.ts: navigation, new windows, webviews, permissions, external links (checklist items
// 5, 12, 13, 14, 15), with `electron` replaced by test/helpers/electron-fake.ts.
import type { App, Session, WebContents } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { app, FakeSession, FakeWebContents, fakeEvent, resetElectronFake, shell } from '../../helpers/electron-fake.js';

vi.mock('electron', () => import('../../helpers/electron-fake.js'));

const { CSP, EXTERNAL_ALLOWLIST, hardenApp, hardenSession, hardenWebContents, isAllowedExternal, isAppUrl } =
  await import('../../../app/src/main/security.js');

function hardened(): FakeWebContents {
  const wc = new FakeWebContents();
  hardenWebContents(wc as unknown as WebContents);
  return wc;
}

function navigate(wc: FakeWebContents, url: string, event = 'will-navigate'): boolean {
  const e = fakeEvent({ url });
  wc.emit(event, e, url);
  return e.defaultPrevented;
}

beforeEach(() => resetElectronFake());

describe('navigation (item 13)', () => {
  it('allows navigation within app://diskdial', () => {
    const wc = hardened();
    expect(navigate(wc, 'app://diskdial/index.html')).toBe(false);
    expect(navigate(wc, 'app://diskdial/index.html#/history')).toBe(false);
  });

  it('prevents navigation to any other origin, and opens nothing for a non-listed site', () => {
    const wc = hardened();
    for (const url of [
      'https://evil.example/',
      'http://github.com/',
      'file:///etc/passwd',
      'app://other/index.html',
      'app://diskdial.evil/index.html',
      'javascript:alert(1)',
      'not a url',
    ]) {
      expect(navigate(wc, url), url).toBe(true);
    }
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('prevents a redirect elsewhere too', () => {
    const wc = hardened();
    expect(navigate(wc, 'https://evil.example/', 'will-redirect')).toBe(true);
    expect(navigate(wc, 'app://diskdial/index.html', 'will-redirect')).toBe(false);
  });

  it('sends an allow-listed link to the OS browser instead of navigating the app', () => {
    const wc = hardened();
    expect(navigate(wc, 'https://github.com/diskdial/diskdial')).toBe(true);
    expect(shell.openExternal).toHaveBeenCalledExactlyOnceWith('https://github.com/diskdial/diskdial');
  });
});

describe('new windows (items 14, 15)', () => {
  it('denies every window.open, and opens allow-listed https links externally', () => {
    const wc = hardened();
    expect(wc.windowOpenHandler).not.toBeNull();
    const url = 'https://www.blackmagicdesign.com/products/davinciresolve';
    expect(wc.windowOpenHandler!({ url })).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenCalledExactlyOnceWith(url);
  });

  it('denies and does not open anything else', () => {
    const wc = hardened();
    for (const url of [
      'https://evil.example/',
      'http://github.com/', // not https
      'https://github.com.evil.example/',
      'https://github.com@evil.example/',
      'https://user:pw@github.com/',
      'file:///etc/passwd',
      'app://diskdial/index.html', // our own page in a new window: still no
      'smb://nas/share',
    ]) {
      expect(wc.windowOpenHandler!({ url }), url).toEqual({ action: 'deny' });
    }
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('allow-list matches origin and path prefix, parsed', () => {
    expect(EXTERNAL_ALLOWLIST.every((p) => p.startsWith('https://') && p.endsWith('/'))).toBe(true);
    expect(isAllowedExternal('https://support.apple.com/en-us/102585')).toBe(true);
    expect(isAllowedExternal('https://GITHUB.com/x')).toBe(true); // hosts are case-insensitive
    expect(isAllowedExternal('https://apple.com/')).toBe(false); // www.apple.com is listed, not apple.com
    expect(isAllowedExternal('https://github.com/x', ['https://github.com/diskdial/'])).toBe(false);
    expect(isAllowedExternal('https://github.com/diskdial/x', ['https://github.com/diskdial/'])).toBe(true);
  });
});

describe('webview (item 12)', () => {
  it('prevents attaching a <webview>', () => {
    const wc = hardened();
    const e = fakeEvent();
    wc.emit('will-attach-webview', e, { nodeIntegration: true }, { src: 'https://evil.example/' });
    expect(e.defaultPrevented).toBe(true);
  });
});

describe('hardenApp', () => {
  it('hardens every web contents the app creates', () => {
    hardenApp(app as unknown as App);
    const wc = new FakeWebContents();
    app.emit('web-contents-created', fakeEvent(), wc);
    expect(wc.windowOpenHandler).not.toBeNull();
    expect(navigate(wc, 'https://evil.example/')).toBe(true);
    expect(wc.listenerCount('will-attach-webview')).toBe(1);
  });
});

describe('permissions (item 5)', () => {
  it('denies every permission request and check', () => {
    const ses = new FakeSession();
    hardenSession(ses as unknown as Session);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'fullscreen', 'hid']) {
      const callback = vi.fn();
      ses.permissionRequestHandler!(new FakeWebContents(), permission, callback);
      expect(callback).toHaveBeenCalledExactlyOnceWith(false);
      expect(ses.permissionCheckHandler!(null, permission, 'app://diskdial', {})).toBe(false);
    }
    expect(ses.devicePermissionHandler!({ deviceType: 'usb', origin: 'app://diskdial' })).toBe(false);
  });
});

describe('CSP string (item 7)', () => {
  it('allows only our own scripts and forbids framing, plugins, base and forms', () => {
    const directives = new Map(
      CSP.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
    );
    expect(directives.get('default-src')).toBe("'self'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(directives.get('form-action')).toBe("'none'");
    expect(CSP).not.toMatch(/unsafe-eval|\*/);
  });
});

describe('isAppUrl', () => {
  it('compares scheme and host (Node reports origin "null" for app:)', () => {
    expect(new URL('app://diskdial/index.html').origin).toBe('null');
    expect(isAppUrl('app://diskdial/index.html')).toBe(true);
    expect(isAppUrl('app://diskdial:8080/index.html')).toBe(false);
    expect(isAppUrl('app://x@diskdial/index.html')).toBe(false);
    expect(isAppUrl('https://diskdial/index.html')).toBe(false);
  });
});
