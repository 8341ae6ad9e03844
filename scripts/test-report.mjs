// The end of a CI log: the slowest test files and every failure again, read from vitest's JSON
// reports (test-artifacts/vitest*.json, written when CI=true), so a truncated log still names them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] ?? 'test-artifacts';
const reports = readdirSync(dir)
  .filter((f) => /^vitest.*\.json$/.test(f))
  .map((f) => ({ file: f, ...JSON.parse(readFileSync(path.join(dir, f), 'utf8')) }));
const files = reports.flatMap((r) => r.testResults);
const rel = (name) => path.relative(process.cwd(), name);
// The message and its diff, then only the first line of the stack: the test's own line.
const indent = (text, lines) => {
  const all = String(text ?? '').split('\n');
  const at = all.findIndex((l) => /^\s+at /.test(l));
  const head = (at < 0 ? all : all.slice(0, at)).slice(0, lines);
  return [...head, ...(at < 0 ? [] : [all[at].trim()])].join('\n    ');
};

console.log('\n==== the 10 slowest test files (s)');
for (const t of [...files].sort((a, b) => b.endTime - b.startTime - (a.endTime - a.startTime)).slice(0, 10))
  console.log(((t.endTime - t.startTime) / 1000).toFixed(0).padStart(6) + '  ' + rel(t.name));

const failed = [];
for (const t of files) {
  const bad = t.assertionResults.filter((a) => a.status === 'failed');
  if (t.status === 'failed' && !bad.length) failed.push(`${rel(t.name)}\n    ${indent(t.message, 12)}`);
  for (const a of bad) failed.push(`${rel(t.name)} > ${a.fullName}\n    ${indent(a.failureMessages[0], 16)}`);
}
// vitest fails a run on an error thrown outside any test; its JSON report does not say which.
for (const r of reports)
  if (!r.success && !r.numFailedTests && !r.numFailedTestSuites)
    failed.push(`${r.file}: an error outside any test (the log's "Unhandled Error" section names it)`);
if (failed.length) console.log('\n==== failed tests\n' + failed.join('\n'));
