// The layers, held in CI (`npm run lint:deps`): no cycles (type-only imports count: a type cycle is still a
// tangle), core below ipc/services/main/cli/server, the model below everything, features beside each other.
const FEATURES = ['targets', 'quick-test', 'detailed', 'hash', 'history', 'wizard'];

// eslint-disable-next-line no-undef -- dependency-cruiser reads a CommonJS config
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
      name: 'renderer-reaches-app-only-through-model-and-contract',
      severity: 'error',
      from: { path: '^renderer/src/' },
      to: { path: '^app/src/', pathNot: ['^app/src/model/', '^app/src/ipc/contract\\.ts$'] },
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
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.cts', '.js', '.json'] },
    exclude: { path: '^(dist|native/build|node_modules)/' },
  },
};
