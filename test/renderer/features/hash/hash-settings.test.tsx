// The Hash screen's settings: Start sends exactly a valid HashSettings for a file, for a test
// file (preset and custom sizes) and with a digest or checksum file to verify; what cannot be
// sent disables Start with the reason; the file picker fills in the path, or says to type one
// in browser mode.
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  DEFAULT_FORM,
  formErrors,
  startBlock,
  toHashSettings,
  verifyValue,
  type HashForm,
} from '../../../../renderer/src/features/hash/settings';
import { useHashStore } from '../../../../renderer/src/features/hash/store';
import { createWsBridge } from '../../../../renderer/src/lib/ws-bridge';
import { createFakeBridge, target } from '../../helpers/fake-bridge';
import { FakeSocket } from '../../helpers/fake-socket';
import { CPU_DIGEST, STORAGE_DIGEST, renderHash } from '../../helpers/hash-fixtures';
import { resetStores } from '../../helpers/reset-stores';
import { HashSettings } from '@model/settings';
import type { TargetInfo } from '@model/history';

const startButton = () => screen.getByTestId('hash-start') as HTMLButtonElement;
const reasonOf = (b: HTMLElement) => document.getElementById(b.getAttribute('aria-describedby') ?? '')?.textContent;
const form = (over: Partial<HashForm>): HashForm => ({ ...DEFAULT_FORM, ...over });

describe('Hash settings (pure)', () => {
  it('turns each form into a HashSettings the contract accepts', () => {
    const cases: Array<[HashForm, string | undefined]> = [
      [form({ path: ' /data/big.iso ' }), undefined],
      [form({ path: '/data/big.iso', algo: 'sha512', verify: STORAGE_DIGEST }), undefined],
      [form({ source: 'generate', size: 16e9 }), '/media/t7'],
      [form({ source: 'generate', size: 'custom', customSize: '512 MiB', verify: '/media/t7/SHA256SUMS' }), '/media/t7'],
    ];
    for (const [f, t] of cases) {
      const s = toHashSettings(f, t);
      expect(s).not.toBeNull();
      expect(HashSettings.parse(s)).toEqual(s);
    }
    expect(toHashSettings(form({ path: ' /data/big.iso ' }), undefined)).toEqual({
      source: { kind: 'file', path: '/data/big.iso' },
      algo: 'sha256',
    });
    expect(toHashSettings(form({ source: 'generate', size: 'custom', customSize: '512 MiB' }), '/media/t7')!.source).toEqual({
      kind: 'generate',
      target: '/media/t7',
      sizeBytes: 512 * 1024 * 1024,
    });
  });

  it('sends nothing it cannot: an empty path, no target, a bad size or a digest of the wrong length', () => {
    expect(toHashSettings(form({ path: '   ' }), '/media/t7')).toBeNull();
    expect(toHashSettings(form({ source: 'generate' }), undefined)).toBeNull();
    expect(toHashSettings(form({ source: 'generate', size: 'custom', customSize: '8 MB' }), '/media/t7')).toBeNull();
    expect(toHashSettings(form({ path: '/x', verify: 'abc123' }), undefined)).toBeNull();
  });

  it('says what is wrong with a field', () => {
    expect(formErrors(form({ source: 'generate', size: 'custom', customSize: 'lots' })).customSize).toBe(
      'Type a size like 750 MB or 10 GB.',
    );
    expect(formErrors(form({ source: 'generate', size: 'custom', customSize: '100 GiB' })).customSize).toBe('Between 16 MiB and 64 GiB.');
    expect(formErrors(form({ verify: 'abc123' })).verify).toBe('A SHA-256 digest has 64 hex digits; this has 6.');
    expect(formErrors(form({ verify: STORAGE_DIGEST })).verify).toBe(
      'That is a SHA-512 digest (128 hex digits): choose SHA-512, or paste the SHA-256 one.',
    );
    expect(formErrors(form({ verify: CPU_DIGEST.toUpperCase() }))).toEqual({});
    expect(formErrors(form({ verify: '~/Downloads/SHA256SUMS' }))).toEqual({});
    // Read as the core reads a pasted digest: labelled, grouped with blanks or colons.
    expect(formErrors(form({ verify: `sha256: ${CPU_DIGEST.match(/.{8}/g)!.join(' ')}` }))).toEqual({});
    expect(formErrors(form({ verify: `SHA-512 ${STORAGE_DIGEST}` })).verify).toMatch(/^That is a SHA-512 digest/);
    expect(formErrors(form({ verify: 'de:ad:be:ef' })).verify).toBe('A SHA-256 digest has 64 hex digits; this has 8.');
  });

  it('takes the digest from a pasted sha256sum line', () => {
    expect(verifyValue(`${CPU_DIGEST}  A001_C002_1122XY.mov`)).toBe(CPU_DIGEST);
    expect(verifyValue(`${CPU_DIGEST} *A001_C002_1122XY.mov\n`)).toBe(CPU_DIGEST);
    expect(verifyValue('  /home/ana/SHA256SUMS ')).toBe('/home/ana/SHA256SUMS');
    expect(verifyValue('   ')).toBeUndefined();
  });

  it('explains why Start is unavailable', () => {
    const t7 = target();
    expect(startBlock(form({}), { target: t7 })).toBe('Type the path of the file to hash, or choose one.');
    expect(startBlock(form({ path: '/x' }), { target: undefined })).toBeNull();
    expect(startBlock(form({ path: '/x' }), { locked: 'A Quick Test is running.', target: t7 })).toBe('A Quick Test is running.');
    expect(startBlock(form({ source: 'generate' }), { target: undefined })).toBe('Choose a drive or folder to write the test file on.');
    const ro: TargetInfo = target({ startable: false, reason: 'The volume is read-only.' });
    expect(startBlock(form({ source: 'generate' }), { target: ro })).toBe('The volume is read-only.');
    expect(startBlock(form({ source: 'generate', size: 16e9 }), { target: target({ freeBytes: 5e9 }) })).toBe(
      "Not enough free space: the test file needs 16 GB and keeps 16.8 MB free for the file system's own bookkeeping and other programs writing meanwhile; 5 GB is free. The largest that fits is 4.9 GB.",
    );
    // Exactly what the workspace refuses: the file plus its head-room (was: only the file).
    expect(startBlock(form({ source: 'generate', size: 1e9 }), { target: target({ freeBytes: 1e9 + 1e6 }) })).toMatch(
      /^Not enough free space: the test file needs 1 GB/,
    );
    expect(startBlock(form({ path: '/x', verify: 'abc' }), { target: t7 })).toBe('Correct the settings marked above.');
  });
});

describe('Hash settings (screen)', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('an empty path disables Start with the reason; typing one enables it and Start sends the file', async () => {
    const { fake, user } = await renderHash();
    expect(startButton().disabled).toBe(true);
    expect(reasonOf(startButton())).toBe('Type the path of the file to hash, or choose one.');
    await user.type(screen.getByLabelText('File'), '/home/ana/ubuntu-24.04.iso');
    expect(startButton().disabled).toBe(false);
    await user.click(startButton());
    expect(fake.hashCalls.start).toHaveLength(1);
    const sent = fake.hashCalls.start[0]!;
    expect(HashSettings.parse(sent)).toEqual(sent);
    expect(sent).toEqual({ source: { kind: 'file', path: '/home/ana/ubuntu-24.04.iso' }, algo: 'sha256' });
  });

  it('a test file on the selected target, SHA-512 and a checksum file to verify against', async () => {
    const { fake, user } = await renderHash();
    await user.click(screen.getByTestId('hash-source-generate'));
    expect(screen.getByTestId('hash-source-generate').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('hash-target-note').textContent).toBe('Written on T7 (/media/t7), then removed.');
    await user.click(screen.getByRole('radio', { name: '16 GB' }));
    await user.click(screen.getByTestId('hash-algo-sha512'));
    await user.type(screen.getByLabelText('Verify (optional)'), '/media/t7/SHA512SUMS');
    await user.click(startButton());
    const sent = fake.hashCalls.start[0]!;
    expect(HashSettings.parse(sent)).toEqual(sent);
    expect(sent).toEqual({
      source: { kind: 'generate', target: '/media/t7', sizeBytes: 16e9 },
      algo: 'sha512',
      verify: '/media/t7/SHA512SUMS',
    });
  });

  it('a custom size is checked as typed, and sent in bytes', async () => {
    const { fake, user } = await renderHash();
    await user.click(screen.getByTestId('hash-source-generate'));
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    const input = screen.getByLabelText('Custom test file size');
    await user.type(input, '8 MB');
    expect(screen.getByRole('alert').textContent).toBe('Between 17 MB and 68 GB.');
    expect(startButton().disabled).toBe(true);
    expect(reasonOf(startButton())).toBe('Correct the settings marked above.');
    await user.clear(input);
    await user.type(input, '2.5 GB');
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(startButton());
    expect(fake.hashCalls.start[0]).toEqual({ source: { kind: 'generate', target: '/media/t7', sizeBytes: 2.5e9 }, algo: 'sha256' });
  });

  it('a pasted digest is checked against the algorithm and sent with the request', async () => {
    const { fake, user } = await renderHash();
    await user.type(screen.getByLabelText('File'), '/data/clip.mov');
    const verify = screen.getByLabelText('Verify (optional)');
    await user.click(verify);
    await user.paste(STORAGE_DIGEST);
    expect(screen.getByRole('alert').textContent).toMatch(/That is a SHA-512 digest/);
    expect(verify.getAttribute('aria-invalid')).toBe('true');
    expect(startButton().disabled).toBe(true);
    await user.click(screen.getByTestId('hash-algo-sha512'));
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(startButton());
    const sent = fake.hashCalls.start[0]!;
    expect(HashSettings.parse(sent)).toEqual(sent);
    expect(sent).toEqual({ source: { kind: 'file', path: '/data/clip.mov' }, algo: 'sha512', verify: STORAGE_DIGEST });
  });

  it('a pasted sha256sum line sends its digest', async () => {
    const { fake, user } = await renderHash();
    await user.type(screen.getByLabelText('File'), '/data/clip.mov');
    await user.click(screen.getByLabelText('Verify (optional)'));
    await user.paste(`${CPU_DIGEST}  clip.mov`);
    await user.click(startButton());
    expect(fake.hashCalls.start[0]!.verify).toBe(CPU_DIGEST);
  });

  it('browser mode: no Choose… button (there is no picker for the server’s disk); the typed path is the way', async () => {
    const socketBridge = createWsBridge('ws://h/ws?token=t', (u) => new FakeSocket(u));
    FakeSocket.last.open();
    const { fake, user } = await renderHash(createFakeBridge(), socketBridge);
    expect(screen.queryByTestId('hash-choose')).toBeNull();
    await user.type(screen.getByLabelText('File'), '/data/clip.mov');
    await user.click(startButton());
    expect(fake.hashCalls.start[0]!.source).toMatchObject({ kind: 'file', path: '/data/clip.mov' });
    socketBridge.close();
  });

  it('a picker that answers unsupported says to type the path, and puts the cursor there', async () => {
    const { fake, user } = await renderHash();
    await user.click(screen.getByTestId('hash-choose'));
    expect(fake.hashCalls.chooseFile).toBe(1);
    expect(screen.getByTestId('hash-pick-note').textContent).toBe(
      'Type the file’s path (browser mode cannot open a file picker on this machine).',
    );
    expect(document.activeElement).toBe(screen.getByLabelText('File'));
  });

  it('desktop: the picked file fills in the path and its size; editing the path drops the size', async () => {
    const fake = createFakeBridge();
    fake.bridge.chooseFile = () => Promise.resolve({ ok: true, value: { path: '/home/ana/Footage/A001.mov', bytes: 16_812_302_336 } });
    const { user } = await renderHash(fake);
    await user.click(screen.getByTestId('hash-choose'));
    expect((screen.getByLabelText('File') as HTMLInputElement).value).toBe('/home/ana/Footage/A001.mov');
    expect(screen.getByText(/^16\.8 GB · Only read/)).toBeTruthy();
    expect(screen.queryByTestId('hash-pick-note')).toBeNull();
    await user.type(screen.getByLabelText('File'), 'x');
    expect(useHashStore.getState().form.pathBytes).toBeNull();
  });

  it('a cancelled picker changes nothing; a picker error is shown in words', async () => {
    const fake = createFakeBridge();
    fake.bridge.chooseFile = () => Promise.resolve({ ok: true, value: null });
    const { user } = await renderHash(fake);
    await user.click(screen.getByTestId('hash-choose'));
    expect((screen.getByLabelText('File') as HTMLInputElement).value).toBe('');
    fake.bridge.chooseFile = () => Promise.resolve({ ok: false, error: { code: 'EACCES', message: 'The file picker could not open.' } });
    await act(() => useHashStore.getState().chooseFile());
    expect(screen.getByTestId('hash-pick-note').textContent).toBe('The file picker could not open.');
  });

  it('keyboard: Tab reaches the path, Choose…, the algorithm and Start; Enter starts', async () => {
    const { fake, user } = await renderHash();
    screen.getByLabelText('File').focus();
    await user.keyboard('/data/x.iso');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByTestId('hash-choose'));
    for (let i = 0; i < 20 && document.activeElement !== startButton(); i++) await user.tab();
    expect(document.activeElement).toBe(startButton());
    await user.keyboard('{Enter}');
    expect(fake.hashCalls.start).toHaveLength(1);
  });

  it('settings are locked while the test runs', async () => {
    const { user } = await renderHash();
    await user.type(screen.getByLabelText('File'), '/data/x.iso');
    await user.click(startButton());
    expect(screen.getByLabelText('File').matches(':disabled')).toBe(true);
    expect(screen.getByTestId('hash-algo-sha512').matches(':disabled')).toBe(true);
  });
});
