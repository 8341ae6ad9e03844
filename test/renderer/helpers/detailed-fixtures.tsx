// The Detailed screen's test material: the real engine's result documents (test/fixtures/results),
// documents with a knee and with a varying curve built from the real sustained one, event
// builders, and a render of the app on the Detailed tab with charts at a fixed size (jsdom has
// no layout for ResponsiveContainer to measure).
import type { CurvePoint, CurveVerdict } from '@model/knee';
import type { ResultDocument, ResultTest } from '@model/result';

import cdmJson from '../../fixtures/results/cdm.json';
import filesJson from '../../fixtures/results/files.json';
import sustainedJson from '../../fixtures/results/sustained.json';
import { createFakeBridge } from './fake-bridge';
import { renderApp } from './render-app';
import type { DetailedPlanEvent, DetailedProgressEvent, DetailedStepEvent } from '@model/events';
import { noResizeObserver } from './dom';

noResizeObserver();

const clone = <T,>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** Fresh copies of the engine's documents (tests may change them). */
export const cdmDoc = (): ResultDocument => clone(cdmJson) as unknown as ResultDocument;
export const sustainedDoc = (): ResultDocument => clone(sustainedJson) as unknown as ResultDocument;
export const filesDoc = (): ResultDocument => clone(filesJson) as unknown as ResultDocument;

/** The sustained document with a curve and verdict of the given shape (one run, 40 GB). */
export function sustainedWith(curve: CurvePoint[], verdict: CurveVerdict, summary: string): ResultDocument {
  const doc = sustainedDoc();
  const s = doc.sustained!;
  const bytes = curve.at(-1)?.bytes ?? 0;
  s.runs = [{ run: 1, bytes, sliceBytes: curve[0]?.bytes ?? 0, curve, verdict, summary }];
  s.plannedBytes = bytes;
  return doc;
}

/** 3,000 MB/s until 12.4 GB, then 800 MB/s to 40 GB, in 100 MB slices. */
export function kneeDoc(): ResultDocument {
  const curve: CurvePoint[] = [];
  for (let i = 1; i <= 400; i++) curve.push({ bytes: i * 1e8, mbps: i * 1e8 <= 12.4e9 ? 3000 : 800 });
  return sustainedWith(
    curve,
    { kind: 'knee', kneeBytes: 12.4e9, beforeMBps: 3000, afterMBps: 800, lowestMBps: 780, change: -0.733 },
    'Fast cache ≈ 12.4 GB, then 800 MB/s (−73 %)',
  );
}

export function variesDoc(): ResultDocument {
  const curve: CurvePoint[] = [];
  for (let i = 1; i <= 200; i++) curve.push({ bytes: i * 1e8, mbps: Math.floor(i / 25) % 2 ? 600 : 1900 });
  return sustainedWith(
    curve,
    { kind: 'varies', minMBps: 600, maxMBps: 1900, medianMBps: 1200, drops: 3 },
    'Speed falls and recovers (3 drops): 600–1,900 MB/s, median 1,200 MB/s — a sign of thermal throttling',
  );
}

export const JOB = 'djob-1';

export function plan(over: Partial<DetailedPlanEvent> = {}): DetailedPlanEvent {
  return { jobId: JOB, kind: 'cdm', runs: 1, steps: [], bytes: 0, notes: [], ...over };
}

export function progress(over: Partial<DetailedProgressEvent> = {}): DetailedProgressEvent {
  return {
    jobId: JOB,
    kind: 'cdm',
    run: 1,
    runs: 1,
    testIndex: 0,
    testCount: 8,
    testName: 'SEQ1M Q8T1 Read',
    stage: 'run',
    instMBps: 1000,
    avgMBps: 1000,
    bytesDone: 0,
    bytesTotal: 0,
    elapsed: 0,
    secondsTotal: 5,
    ...over,
  };
}

export function step(test: ResultTest, over: Partial<DetailedStepEvent> = {}): DetailedStepEvent {
  return { jobId: JOB, kind: 'cdm', run: test.run, testIndex: 0, test, ...over };
}

/** The app on the Detailed tab, charts 800 × 240, with the fake bridge's first target selected. */
export async function renderDetailed(fake = createFakeBridge()) {
  const { user, view } = await renderApp(fake.bridge, 'nav-detailed');
  return { fake, user, view };
}
