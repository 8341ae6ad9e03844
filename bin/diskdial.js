#!/usr/bin/env node
// The `diskdial` command: a thin door to the compiled CLI in dist/.
import('../dist/cli/main.js')
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
