// The app:// protocol that serves the renderer's built files (dist/renderer) and nothing else.
// Security checklist item 18, "Avoid usage of the file:// protocol and prefer usage of custom
// protocols": a file:// page could read any file the user can, and every file:// page shares one
// origin. Here the page has its own origin (app://diskdial), every path is confined to one folder,
// and every response carries the CSP (item 7).
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { protocol } from 'electron';
import { APP_HOST, APP_SCHEME, CSP } from './security.js';

/**
 * Must run before app `ready`: Chromium reads scheme privileges once, at start-up.
 * `standard` gives app:// real origins and relative-URL resolution; `secure` makes it a secure
 * context (like https); `supportFetchAPI` lets the page fetch its own assets. No
 * `bypassCSP`, no `corsEnabled` beyond what standard gives: the page stays under its CSP.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Headers on every answer, errors included: the CSP holds for an error page too. */
function baseHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': CSP,
    // Content-Type is authoritative; the page cannot get a .txt run as script.
    'X-Content-Type-Options': 'nosniff',
  };
}

function plain(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { ...baseHeaders(), 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

/**
 * Maps an app:// URL to a file inside `rootDir`, or null when it is not ours or would leave the
 * folder. The URL parser already removes `..` segments; the decoded path is checked again because
 * `%2F` and `%5C` only become separators after decoding.
 */
export function resolveAppPath(rootDir: string, rawUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let rel: string;
  try {
    rel = decodeURIComponent(url.pathname);
  } catch {
    return null; // malformed escape
  }
  if (rel.includes('\0')) return null;
  if (rel === '/' || rel === '') rel = '/index.html';
  const root = path.resolve(rootDir);
  const file = path.resolve(root, `.${rel.startsWith('/') ? rel : `/${rel}`}`);
  if (!file.startsWith(root + path.sep)) return null;
  return file;
}

/** The handler behind `protocol.handle('app', …)`: GET/HEAD of files under rootDir, else 404. */
export function createAppProtocolHandler(rootDir: string): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'method not allowed');
    const file = resolveAppPath(rootDir, request.url);
    if (!file) return plain(404, 'not found');
    let body: Buffer;
    try {
      const stat = await fsp.stat(file);
      if (!stat.isFile()) return plain(404, 'not found');
      body = await fsp.readFile(file);
    } catch {
      return plain(404, 'not found');
    }
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
      status: 200,
      headers: { ...baseHeaders(), 'Content-Type': contentTypeFor(file), 'Cache-Control': 'no-cache' },
    });
  };
}

/** After `ready`: serve app://diskdial/* from the built renderer folder. */
export function registerAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, createAppProtocolHandler(rendererDir));
}
