// The e2e project's global setup: builds the compiled core and the UI once, before any test file,
// outside the files' beforeAll hooks and their time limit (a build on a loaded machine takes
// minutes). The files still call buildIfNeeded, which then finds everything up to date.
import { buildIfNeeded } from './harness.js';

export default function setup(): void {
  buildIfNeeded();
}
