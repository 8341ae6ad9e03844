// Hardening that applies to every web page the app ever hosts, each piece named after the item
// of the Electron security checklist (https://www.electronjs.org/docs/latest/tutorial/security)
// it implements. The window's own webPreferences (items 2, 3, 4, 6, 8, 9) live in window.ts, the
// IPC sender check (item 17) in ipc-main.ts, the app:// protocol (items 1, 18) in protocol.ts.
import type { App, Event, HandlerDetails, Session, WebContents } from 'electron';
import { shell } from 'electron';

/** The one origin our pages are served from (see protocol.ts). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'diskdial';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * Checklist item 7, "Define a Content Security Policy". Sent as a response header on every
 * app:// response (a header cannot be removed by the page, unlike a <meta> tag).
 * 'unsafe-inline' for styles only: React's `style={…}` and recharts write inline styles; no
 * inline or remote script can run, nothing can be framed, posted or fetched from elsewhere.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/**
 * Checklist item 15, "Do not use shell.openExternal with untrusted content": only these https
 * prefixes (help pages and vendors' format references the UI links to) ever reach the OS browser.
 */
export const EXTERNAL_ALLOWLIST: readonly string[] = [
  'https://github.com/',
  'https://www.apple.com/',
  'https://support.apple.com/',
  'https://www.blackmagicdesign.com/',
  'https://www.avid.com/',
];

/**
 * True for a URL served by our own protocol. Compared by scheme and host, not `URL.origin`:
 * Node's URL parser does not know `app:` is a standard scheme and reports its origin as "null".
 */
export function isAppUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST && url.username === '' && url.password === '';
}

/**
 * True when `raw` is an https URL on the allow-list. Compared parsed, origin for origin and path
 * prefix for path, so `https://github.com.evil.example/` and `https://github.com@evil.example/`
 * do not pass as GitHub.
 */
export function isAllowedExternal(raw: string, allowlist: readonly string[] = EXTERNAL_ALLOWLIST): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return false;
  return allowlist.some((prefix) => {
    const allowed = new URL(prefix);
    return url.origin === allowed.origin && url.pathname.startsWith(allowed.pathname);
  });
}

/** Opens an allow-listed URL in the user's browser; anything else is dropped. */
export function openExternalIfAllowed(raw: string): boolean {
  if (!isAllowedExternal(raw)) return false;
  // openExternal rejects when no handler exists; nothing useful to tell the page.
  shell.openExternal(raw).catch(() => undefined);
  return true;
}

/**
 * Checklist items 13 and 14, "Disable or limit navigation" and "Disable or limit creation of
 * new windows", and item 12, "Verify WebView options before creation" (we have none: refuse all).
 */
export function hardenWebContents(contents: WebContents): void {
  // Item 13: a page may only navigate within our own origin. A plain link to an allow-listed
  // site opens in the browser instead of replacing the app.
  const guardNavigation = (event: Event<{ url: string }>): void => {
    const url = event.url;
    if (isAppUrl(url)) return;
    event.preventDefault();
    openExternalIfAllowed(url);
  };
  contents.on('will-navigate', guardNavigation);
  // A same-origin navigation that a server answer redirects elsewhere is still elsewhere.
  contents.on('will-redirect', guardNavigation);

  // Item 14: no page ever opens an Electron window; allow-listed links go to the OS browser.
  contents.setWindowOpenHandler((details: HandlerDetails) => {
    openExternalIfAllowed(details.url);
    return { action: 'deny' };
  });

  // Item 12: the window disables the <webview> tag (webviewTag: false); this refuses one anyway,
  // should a future change turn the tag back on.
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
}

/**
 * Checklist item 5, "Handle session permission requests from remote content": DiskDial needs no
 * camera, microphone, notifications, geolocation, HID, serial or USB, so every request and every
 * check is answered no.
 */
export function hardenSession(ses: Session): void {
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
}

/** Installs the per-page hardening on every web contents the app creates, ours or not. */
export function hardenApp(app: App): void {
  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents);
  });
}
