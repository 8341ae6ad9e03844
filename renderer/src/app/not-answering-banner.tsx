// "The drive is not answering": shown while a test runs whose drive has moved no data for a few
// seconds (the core's job.notAnswering event), gone once no test runs. Stop still ends the test
// within a second: the core lets go of a job its drive holds.
import { useEffect, useState } from 'react';
import type { JobNotAnsweringEvent } from '@model/events';
import { getBridge } from '../lib/bridge';

export function NotAnsweringBanner({ running }: { running: boolean }) {
  const [silence, setSilence] = useState<JobNotAnsweringEvent | null>(null);
  useEffect(() => getBridge().onJobNotAnswering(setSilence), []);
  useEffect(() => {
    if (!running) setSilence(null);
  }, [running]);
  if (!silence || !running) return null;
  return (
    <p className="not-answering-banner" role="alert" data-testid="not-answering-banner">
      The drive is not answering: no data has moved for {silence.seconds} s{silence.path ? ` (${silence.path})` : ''}. Stop ends the test
      without waiting for it.
    </p>
  );
}
