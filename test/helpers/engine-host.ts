// A service on the engine in its own process, as the app and `serve` run it, shared by a whole
// test file: made before all its tests; stopped, and the engine closed, after them.
import { afterAll, beforeAll } from 'vitest';
import { EngineHost } from '../../app/src/services/engine-host.js';

export function onEngineHost<S extends { stopAll(): Promise<void> }>(make: (host: EngineHost) => S): { host: EngineHost; service: S } {
  const ctx = {} as { host: EngineHost; service: S };
  beforeAll(() => {
    ctx.host = new EngineHost();
    ctx.service = make(ctx.host);
  });
  afterAll(async () => {
    await ctx.service.stopAll();
    await ctx.host.close();
  });
  return ctx;
}
