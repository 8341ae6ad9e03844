import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hostInfo } from '../../../app/src/core/host.js';
import { weakestCacheMode, type ResultTest } from '../../../app/src/model/result.js';
import { buildResult, resultFlags, targetFromVolume } from '../../../app/src/core/result.js';

function test(cacheMode: ResultTest['cacheMode'], extra: Partial<ResultTest> = {}): ResultTest {
  return {
    name: 'Write',
    rw: 'write',
    bs: 1 << 20,
    qd: 8,
    threads: 1,
    bytes: 1e8,
    seconds: 1,
    mbps: 100,
    iops: 95,
    latencyUs: { mean: 1, p50: 1, p90: 1, p99: 1, p999: 1, max: 1 },
    series: [],
    cacheMode,
    run: 1,
    spec: { rw: 'write', bs: 1 << 20, qd: 8, threads: 1, fileSize: 1e8, pattern: 'random', cache: 'auto' },
    ...extra,
  };
}

describe('result document', () => {
  it('takes the weakest cache mode across tests', () => {
    expect(weakestCacheMode(['direct', 'direct'])).toBe('direct');
    expect(weakestCacheMode(['direct', 'nocache'])).toBe('nocache');
    expect(weakestCacheMode(['buffered', 'direct', 'buffered-flushed'])).toBe('buffered');
  });

  it('flags buffered tests with the engine note, and zeros', () => {
    expect(resultFlags([test('direct')], { cache: 'auto', pattern: 'random' })).toEqual([]);
    const flags = resultFlags([test('direct'), test('buffered-flushed', { name: 'Read', cacheNote: 'exFAT refused O_DIRECT (EINVAL)' })], {
      cache: 'auto',
      pattern: 'zeros',
    });
    expect(flags.map((f) => f.code)).toEqual(['cache-not-direct', 'zeros-pattern']);
    expect(flags[0]!.message).toContain('Read');
    expect(flags[0]!.message).toContain('exFAT refused O_DIRECT (EINVAL)');
    expect(flags[0]!.fix.length).toBeGreaterThan(10);
    const ram = resultFlags([test('direct', { cacheNote: 'the target is in RAM (tmpfs)' })], { cache: 'auto', pattern: 'random' });
    expect(ram.map((f) => f.code)).toEqual(['engine-note']);
    expect(ram[0]!.message).toContain('the target is in RAM (tmpfs)');
  });

  it('builds a schema-1 document with versions, host and target', () => {
    const host = hostInfo();
    const doc = buildResult({
      kind: 'quick',
      label: 'new SSD',
      startedAt: new Date('2026-01-01T00:00:00Z'),
      finishedAt: new Date('2026-01-01T00:00:05Z'),
      engineVersion: '9.9.9',
      host,
      target: targetFromVolume('/mnt/x', undefined),
      settings: { size: 1e9, pattern: 'random', cache: 'auto', runs: 1 },
      tests: [test('direct'), test('buffered')],
    });
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(doc).toMatchObject({
      schema: 1,
      kind: 'quick',
      label: 'new SSD',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:05.000Z',
      app: { version: pkg.version, engine: '9.9.9' },
      cacheMode: 'buffered',
      dataPattern: 'random',
      target: { path: '/mnt/x', fs: 'unknown', device: { model: 'unknown', bus: 'unknown' } },
    });
    expect(doc.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(doc.flags.map((f) => f.code)).toEqual(['cache-not-direct']);
    expect(host.cores).toBeGreaterThan(0);
    expect(host.ramBytes).toBeGreaterThan(0);
    expect(host.os).toBe(process.platform);
  });

  it('judges flags by the volume, carries the link, firmware and temperatures, and leaves empty context out', () => {
    const volume = {
      path: '/mnt/t7',
      realPath: '/mnt/t7',
      mountPoint: '/mnt/t7',
      device: '/dev/sdb1',
      fsType: 'exfat',
      mountOptions: ['rw'],
      superOptions: [],
      totalBytes: 1e12,
      freeBytes: 5e11,
      disk: {
        name: 'sdb',
        bus: 'usb' as const,
        model: 'T7',
        removable: false,
        rotational: false,
        linkInfo: { kind: 'usb' as const, label: 'USB 2.0 Hi-Speed (480 Mb/s)', rawMbps: 480, ceilingMBps: 53, source: 'sysfs' },
        health: { firmware: 'SVT02B6Q', temperatureC: 40 },
      },
    };
    const base = {
      kind: 'quick',
      startedAt: new Date(),
      finishedAt: new Date(),
      engineVersion: '1',
      host: hostInfo(),
      target: targetFromVolume('/mnt/t7', volume),
      settings: { size: 1e8, pattern: 'random' as const, cache: 'auto' as const, runs: 1 },
      tests: [test('direct', { mbps: 500 })],
      volume,
    };
    const doc = buildResult({ ...base, context: { temperatureC: { before: 40, after: 47 } } });
    expect(doc.target.device).toMatchObject({ link: 'USB 2.0 Hi-Speed (480 Mb/s)', linkInfo: { ceilingMBps: 53 }, firmware: 'SVT02B6Q' });
    expect(doc.context).toEqual({ temperatureC: { before: 40, after: 47 } });
    expect(doc.flags.map((f) => f.code)).toEqual(['above-interface-ceiling']);
    expect(buildResult({ ...base, context: {} }).context).toBeUndefined();
  });
});
