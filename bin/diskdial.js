#!/usr/bin/env node
// The `diskdial` command: a thin door to the compiled CLI's bundle (scripts/bundle-cli.mjs).
import module from 'node:module';

// Node keeps the compiled code between runs (in its own folder under the temp directory): the CLI
// starts with ~15 % less CPU (docs/benchmarks.md, CLI start-up). Older Nodes lack it.
module.enableCompileCache?.();

import('../dist/cli-bundle/main.js')
  .then((m) => m.main(process.argv.slice(2)))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      console.error(`diskdial: ${err?.message ?? err}`);
      process.exitCode = 1;
    },
  );
