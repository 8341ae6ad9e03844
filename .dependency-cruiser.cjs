// The layers, held in CI (`npm run lint:deps`): no cycles (type-only imports count: a type cycle is still a
// tangle), core below ipc/services/main/cli/server, services below ipc, the model below everything,
// features beside each other and above components/ and lib/.
/* eslint-disable no-undef, @typescript-eslint/no-require-imports -- dependency-cruiser reads a CommonJS config */
const fs = require('node:fs');
const path = require('node:path');

// Read from the folder being cruised (depcruise's paths are relative to it too), so a new screen is
// guarded the day its folder appears and a removed one leaves no stale rule behind.
const FEATURES_DIR = path.resolve('renderer/src/features');
const FEATURES = fs.existsSync(FEATURES_DIR)
  ? fs
      .readdirSync(FEATURES_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort()
  : [];

module.exports = {
  forbidden: [
    { name: 'no-cycle', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'model-imports-only-model',
      comment: 'The shared model is imported by every side and imports nothing of theirs (zod is the one dependency).',
      severity: 'error',
      from: { path: '^app/src/model/' },
      to: { pathNot: ['^app/src/model/', 'node_modules/zod/'] },
    },
    {
      name: 'core-below-the-shells',
      severity: 'error',
      from: { path: '^app/src/core/' },
      to: { path: '^app/src/(ipc|services|main|cli|server)/' },
    },
    {
      name: 'services-below-ipc',
      comment: 'The dispatcher calls the services; what a service sends events through (EventSink) is in the model.',
      severity: 'error',
      from: { path: '^app/src/services/' },
      to: { path: '^app/src/ipc/' },
    },
    {
      name: 'renderer-reaches-app-only-through-model-and-contract',
      severity: 'error',
      from: { path: '^renderer/src/' },
      to: { path: '^app/src/', pathNot: ['^app/src/model/', '^app/src/ipc/contract\\.ts$'] },
    },
    {
      name: 'components-and-lib-below-features',
      comment: 'components/ and lib/ serve every screen, so they name none: what two screens share moves down.',
      severity: 'error',
      from: { path: '^renderer/src/(components|lib)/' },
      to: { path: '^renderer/src/features/' },
    },
    ...FEATURES.map((f) => ({
      name: `feature-${f}-stands-alone`,
      comment: 'Features never import each other; shared things live in components/, lib/ or the model.',
      severity: 'error',
      from: { path: `^renderer/src/features/${f}/` },
      to: { path: '^renderer/src/features/', pathNot: `^renderer/src/features/${f}/` },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    // The renderer's tsconfig, for its @model/@ipc paths: under the root one every aliased import went
    // unresolved and unchecked. app/src's imports are relative and resolve the same under either.
    tsConfig: { fileName: 'renderer/tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.cts', '.js', '.json'] },
    exclude: { path: '^(dist|native/build|node_modules)/' },
  },
};
