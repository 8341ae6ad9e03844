// protocol.ts: app:// serves the built renderer and nothing else, every answer with the CSP
// (checklist items 7 and 18), with `electron` replaced by test/helpers/electron-fake.ts.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { protocol, resetElectronFake } from '../../helpers/electron-fake.js';

vi.mock('electron', () => import('../../helpers/electron-fake.js'));

const { contentTypeFor, createAppProtocolHandler, registerAppProtocol, registerAppScheme, resolveAppPath } =
  await import('../../../app/src/main/protocol.js');
const { CSP } = await import('../../../app/src/main/security.js');

let base: string;
let root: string;

beforeAll(async () => {
  base = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-protocol-'));
  root = path.join(base, 'renderer');
  await fsp.mkdir(path.join(root, 'assets'), { recursive: true });
  await fsp.writeFile(path.join(root, 'index.html'), '<!doctype html><title>DiskDial</title>');
  await fsp.writeFile(path.join(root, 'assets', 'app-1234.js'), 'console.log(1)');
  await fsp.writeFile(path.join(root, 'assets', 'app-1234.css'), 'body{}');
  await fsp.writeFile(path.join(root, 'assets', 'dial.svg'), '<svg/>');
  // Beside the served folder, sharing its name as a prefix: a naive startsWith(root) lets it out.
  await fsp.mkdir(path.join(base, 'renderer-secret'));
  await fsp.writeFile(path.join(base, 'renderer-secret', 'key.txt'), 'secret');
  await fsp.writeFile(path.join(base, 'secret.txt'), 'secret');
});
afterAll(async () => {
  await fsp.rm(base, { recursive: true, force: true });
});
beforeEach(() => resetElectronFake());

function get(url: string, method = 'GET'): Promise<Response> {
  return createAppProtocolHandler(root)(new Request(url, { method }));
}

describe('scheme registration', () => {
  it('registers app:// as standard, secure and fetch-capable, and nothing more', () => {
    registerAppScheme();
    expect(protocol.privileged).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
  });

  it('registerAppProtocol handles the app scheme with the file handler', async () => {
    registerAppProtocol(root);
    const handler = protocol.handlers.get('app');
    expect(handler).toBeDefined();
    const res = await handler!(new Request('app://diskdial/index.html'));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>DiskDial</title>');
  });
});

describe('serving files', () => {
  it('serves index.html for / and /index.html with the CSP header', async () => {
    for (const url of ['app://diskdial/', 'app://diskdial/index.html', 'app://diskdial']) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(CSP);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toBe('<!doctype html><title>DiskDial</title>');
    }
  });

  it('serves assets with their content types and the CSP', async () => {
    const js = await get('app://diskdial/assets/app-1234.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('content-security-policy')).toBe(CSP);
    expect(await js.text()).toBe('console.log(1)');
    expect((await get('app://diskdial/assets/app-1234.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await get('app://diskdial/assets/dial.svg')).headers.get('content-type')).toBe('image/svg+xml');
    expect(contentTypeFor('x.WOFF2')).toBe('font/woff2');
    expect(contentTypeFor('x.unknown')).toBe('application/octet-stream');
  });

  it('answers HEAD without a body', async () => {
    const res = await get('app://diskdial/index.html', 'HEAD');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('answers 404 with the CSP for missing files and folders', async () => {
    for (const url of ['app://diskdial/nope.js', 'app://diskdial/assets', 'app://diskdial/assets/']) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-security-policy')).toBe(CSP);
    }
  });

  it('refuses other methods', async () => {
    const res = await get('app://diskdial/index.html', 'POST');
    expect(res.status).toBe(405);
    expect(res.headers.get('content-security-policy')).toBe(CSP);
  });

  it('refuses another host on the app scheme', async () => {
    expect((await get('app://other/index.html')).status).toBe(404);
  });
});

describe('path traversal', () => {
  const attempts = [
    'app://diskdial/../../etc/passwd',
    'app://diskdial/../secret.txt',
    'app://diskdial/%2e%2e/secret.txt',
    'app://diskdial/%2E%2E/%2E%2E/etc/passwd',
    'app://diskdial/..%2fsecret.txt',
    'app://diskdial/assets/..%2f..%2fsecret.txt',
    'app://diskdial/%2e%2e%2fsecret.txt',
    'app://diskdial/..%5csecret.txt',
    'app://diskdial/%2e%2e%2frenderer-secret%2fkey.txt',
    'app://diskdial/%2fetc%2fpasswd',
    'app://diskdial//etc/passwd',
    'app://diskdial/index.html%00.js',
    'app://diskdial/%E0%A4%A', // malformed escape
  ];

  it.each(attempts)('%s is refused', async (url) => {
    const res = await get(url);
    expect(res.status).toBe(404);
    const body = await res.text();
    expect(body).not.toContain('secret');
    expect(body).not.toContain('root:');
  });

  it('never resolves outside the root', () => {
    for (const url of attempts) {
      const file = resolveAppPath(root, url);
      if (file !== null) expect(file.startsWith(root + path.sep), `${url} → ${file}`).toBe(true);
    }
    expect(resolveAppPath(root, 'app://diskdial/%2e%2e%2frenderer-secret%2fkey.txt')).toBeNull();
    expect(resolveAppPath(root, 'app://diskdial/assets/app-1234.js')).toBe(path.join(root, 'assets', 'app-1234.js'));
  });
});
