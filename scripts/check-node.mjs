#!/usr/bin/env node
// npm install's first step: refuse an unsupported Node.js in one plain sentence, before any
// dependency warns EBADENGINE or the addon build fails in a less readable way.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const [wantMajor, wantMinor] = pkg.engines.node
  .replace(/^>=\s*/, '')
  .split('.')
  .map(Number);
const [major, minor] = process.versions.node.split('.').map(Number);

if (major < wantMajor || (major === wantMajor && minor < (wantMinor ?? 0))) {
  console.error(
    `DiskDial needs Node.js ${wantMajor}.${wantMinor ?? 0} or newer to build (this is ${process.versions.node}). ` +
      'Install the current LTS, Node.js 24 (nodejs.org, or `nvm install 24`), then run `npm install` again.',
  );
  process.exit(1);
}
