// The Hash screen's test material. There are no recorded hash documents yet, so these are
// synthetic but realistic: a CPU-bound one (a 16.8 GB clip on a Thunderbolt 5 SSD: read at
// 6,500 MB/s, hashed with SHA-256 at 2,550 MB/s — one core's 2,600 MB/s is the limit) and a
// storage-bound one (a 4 GB test file on a USB SSD: read at 480 MB/s, SHA-512 at 1,900 MB/s on
// one core). Also event builders and a render of the app on the Hash tab.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { HashSection, ResultDocument } from '@model/result';

import { App } from '../../../renderer/src/app/app';
import { setBridgeForTests } from '../../../renderer/src/lib/bridge';
import type { WsBridge } from '../../../renderer/src/lib/ws-bridge';
import { createFakeBridge } from './fake-bridge';
import type { HashProgressEvent, HashStage, HashStageEvent } from '@model/events';

export const HJOB = 'hjob-1';
const MiB = 1024 * 1024;

const rate = (bytes: number, mbps: number) => ({ bytes, seconds: bytes / (mbps * 1e6), mbps });

export const CPU_DIGEST = '9df9e03d054a39737c9597a782feeb11686b3ee3ece4d380fcbafb652348a588';
export const STORAGE_DIGEST =
  '509a993de17a37615b126356b1b3f9bfa073b9af0e380bba66dbb0e41cf42f0ba111480baa834234fca5f7e668ab2b65ed16e51a104db700f63442b9eb73e407';
export const STORAGE_EXPECTED =
  'd6a3ab758dab5dd0d528c05ec89576286ab711a0d48affcac946093e493e57bd3d60f672d05384cd11f6ffffc548b37eebe6eab1ef1144025c426712ab04536e';

function baseDoc(over: Partial<ResultDocument>): ResultDocument {
  return {
    schema: 1,
    id: 'b7d0c1a2-5e3f-4c61-9a0e-2f5d8c7b6a41',
    kind: 'hash',
    startedAt: '2026-11-23T09:14:02.118Z',
    finishedAt: '2026-11-23T09:14:19.904Z',
    app: { version: '0.1.0', engine: '0.2.0' },
    host: {
      os: 'linux',
      osName: 'Debian GNU/Linux 13 (trixie)',
      osRelease: '6.12.48-amd64',
      arch: 'x64',
      cpu: 'AMD Ryzen 5 7640U w/ Radeon 760M Graphics',
      cores: 4,
      ramBytes: 32e9,
    },
    target: {
      path: '/media/ana/TB5',
      volume: 'TB5',
      mountPoint: '/media/ana/TB5',
      fs: 'exfat',
      mountOptions: ['rw', 'relatime'],
      totalBytes: 4e12,
      freeBytes: 2.1e12,
      device: { model: 'OWC Envoy Ultra', bus: 'thunderbolt', link: 'Thunderbolt 5 (80 Gb/s)', removable: true, rotational: false },
    },
    settings: { size: 0, pattern: 'random', cache: 'auto', runs: 1 },
    cacheMode: 'direct',
    dataPattern: 'random',
    flags: [],
    tests: [],
    ...over,
  } as ResultDocument;
}

/** A 16.8 GB clip, SHA-256: the disk reads at 6,500 MB/s, one core hashes at 2,600 → CPU-bound by 2.5×. */
export function cpuBoundDoc(): ResultDocument {
  const bytes = 16_812_302_336;
  const hash: HashSection = {
    algo: 'sha256',
    provider: 'OpenSSL 3.0.22 1 Jul 2025 (libcrypto)',
    file: { path: '/media/ana/TB5/Footage/A001_C002_1122XY.mov', bytes, generated: false },
    digest: CPU_DIGEST,
    read: { ...rate(bytes, 6500), cacheMode: 'direct' },
    readHash: { ...rate(bytes, 2550), cacheMode: 'direct', chunkBytes: MiB, buffers: 4, readerWaitSeconds: 3.92, hasherWaitSeconds: 0.04 },
    memory: { ...rate(5.2e9, 2600), threads: 1 },
    memoryParallel: { ...rate(19.6e9, 9800), threads: 4 },
    verdict: {
      bound: 'cpu',
      factor: 2.5,
      efficiency: 2550 / 2600,
      text: 'CPU-bound by 2.5×: the disk could deliver 2.5× what one core can hash — reading 6,500 MB/s, hashing SHA-256 on one core 2,600 MB/s; read + hash 2,550 MB/s.',
    },
    verify: { expected: CPU_DIGEST, source: '/media/ana/TB5/Footage/SHA256SUMS', match: true, text: 'Matches the SHA-256 in SHA256SUMS.' },
  };
  return baseDoc({ hash });
}

/** A 4 GB test file, SHA-512, on a USB SSD: one core hashes at 1,900 MB/s, the disk reads at
 *  480 → storage-bound by 4.0×; the pasted digest does not match. (Texts worded as
 *  app/src/core/hash-run.ts and hash-verify.ts word them.) */
export function storageBoundDoc(): ResultDocument {
  // 4 GB asked; the core writes whole MiB.
  const bytes = Math.floor(4e9 / MiB) * MiB;
  const hash: HashSection = {
    algo: 'sha512',
    provider: 'OpenSSL 3.0.22 1 Jul 2025 (libcrypto)',
    file: { path: '/media/t7/.diskdial-3f9c2e41/hash-test.dat', bytes, generated: true },
    digest: STORAGE_DIGEST,
    read: { ...rate(bytes, 480), cacheMode: 'direct' },
    readHash: { ...rate(bytes, 470), cacheMode: 'direct', chunkBytes: MiB, buffers: 4, readerWaitSeconds: 0.02, hasherWaitSeconds: 6.4 },
    memory: { ...rate(3.8e9, 1900), threads: 1 },
    memoryParallel: { ...rate(7.4e9, 3700), threads: 2 },
    verdict: {
      bound: 'storage',
      factor: 1900 / 480,
      efficiency: 470 / 480,
      text: 'Storage-bound by 4.0×: one core could hash 4.0× what the disk delivers — reading 480 MB/s, hashing SHA-512 on one core 1,900 MB/s; read + hash 470 MB/s.',
    },
    verify: {
      expected: STORAGE_EXPECTED,
      source: 'pasted',
      match: false,
      text: 'Does NOT match the SHA-512 you gave: the file differs from the one that digest was made from.',
    },
  };
  return baseDoc({
    target: {
      path: '/media/t7',
      volume: 'T7',
      mountPoint: '/media/t7',
      fs: 'exfat',
      mountOptions: ['rw', 'relatime'],
      totalBytes: 1e12,
      freeBytes: 6e11,
      device: { model: 'Samsung PSSD T7', bus: 'usb', link: 'USB 3.2 Gen 2 (10 Gb/s)', removable: true, rotational: false },
    },
    host: {
      os: 'linux',
      osRelease: '6.1.0-28-amd64',
      arch: 'x64',
      cpu: 'Intel(R) Core(TM) i5-7200U CPU @ 2.50GHz',
      cores: 2,
      ramBytes: 8e9,
    },
    hash,
  });
}

export function hashProgress(over: Partial<HashProgressEvent> = {}): HashProgressEvent {
  return {
    jobId: HJOB,
    stage: 'read',
    stageIndex: 0,
    stageCount: 4,
    bytesDone: 0,
    bytesTotal: 16_812_302_336,
    elapsed: 0,
    secondsTotal: 0,
    instMBps: 0,
    avgMBps: 0,
    ...over,
  };
}

export function hashStage(stage: HashStage, mbps: number, over: Partial<HashStageEvent> = {}): HashStageEvent {
  return { jobId: HJOB, stage, mbps, bytes: 1e9, seconds: 1e9 / (mbps * 1e6), ...over };
}

/** The stage events that would have led to `doc`, in the order the core sends them. */
export function stagesOf(doc: ResultDocument, jobId = HJOB): HashStageEvent[] {
  const h = doc.hash!;
  return [
    { jobId, stage: 'read', mbps: h.read.mbps, bytes: h.read.bytes, seconds: h.read.seconds },
    { jobId, stage: 'read-hash', mbps: h.readHash.mbps, bytes: h.readHash.bytes, seconds: h.readHash.seconds, digest: h.digest },
    { jobId, stage: 'memory', mbps: h.memory.mbps, bytes: h.memory.bytes, seconds: h.memory.seconds, threads: 1 },
    {
      jobId,
      stage: 'memory-parallel',
      mbps: h.memoryParallel.mbps,
      bytes: h.memoryParallel.bytes,
      seconds: h.memoryParallel.seconds,
      threads: h.memoryParallel.threads,
    },
  ];
}

/** The app on the Hash tab, with the fake bridge's first target selected. */
/** `socketBridge`: browser mode (the fake's verbs, that bridge's connection). */
export async function renderHash(fake = createFakeBridge(), socketBridge: WsBridge | null = null) {
  const user = userEvent.setup();
  setBridgeForTests(fake.bridge, socketBridge);
  const view = render(<App />);
  await screen.findByRole('button', { name: /Target: T7/ });
  await user.click(screen.getByTestId('nav-hash'));
  return { fake, user, view };
}
