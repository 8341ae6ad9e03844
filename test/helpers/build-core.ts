// The compiled core (dist/, what `npm install` builds), compiled again only when its sources
// changed since the last build made here (scripts/build-if-changed.mjs, shared with `npm start`).
// Tests that run bin/diskdial.js need it current; a full tsc in every such file's beforeAll took
// past the hook's time limit on a loaded machine.
export { buildCoreIfChanged, newest } from '../../scripts/build-if-changed.mjs';
