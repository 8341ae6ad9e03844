// `diskdial run <share> --test share` as a user runs it, for the share-limits tests: the result
// document, checked against the published schema, with the run having succeeded; and the lab
// they run it in: a small NAS (its disk a loop device, 96 MiB of page cache) behind a veth.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ResultDocument } from '../../app/src/model/result.js';
import { buildCoreIfChanged } from './build-core.js';
import { auditRenders, auditResult } from './claims-audit.js';
import { runCli } from './cli.js';
import { cleanupStaleLabs, startNetLab, type NetLab } from './netns.js';
import { serverDisk, type ServerDisk } from './server-disk.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
addFormats.default(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(path.join(root, 'docs/result.schema.json'), 'utf8')) as object);

/** The share test on `mount` with the large file `size` and `files` small files; its document. */
export function shareDoc(mount: string, home: string, size: string, files: number): ResultDocument {
  const r = runCli(['run', mount, '--test', 'share', '--size', size, '--files', String(files), '--no-save', '--json'], {
    cwd: home,
    home,
    timeout: 300_000,
  });
  // The stall notice is the one line allowed: a server disk of 5 MB/s takes seconds to take the
  // flush of a 32 MiB file, with no byte moving meanwhile, and the CLI says so.
  const stderr = r.stderr
    .split('\n')
    .filter(
      (l) =>
        l !== '' && !/^diskdial: the drive is not answering: no data has moved for \d+ s .*Still waiting for it; Ctrl-C stops\.$/.test(l),
    );
  expect(stderr).toEqual([]);
  expect(r.status).toBe(0);
  const doc = JSON.parse(r.stdout) as ResultDocument;
  expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
  // Its verdicts hold against its own figures, and every export format renders it.
  expect(auditResult(doc)).toEqual([]);
  expect(auditRenders(doc)).toEqual([]);
  const run = doc.share?.runs[0];
  if (process.env.DISKDIAL_SHARE_FIGURES)
    console.log(
      JSON.stringify({
        mount: path.basename(mount),
        rtt: doc.share?.rttMs,
        ...run,
        verdict: run?.verdict.outcome,
        fileVerdict: run?.fileVerdict,
      }),
    );
  return doc;
}

export interface ShareLab {
  lab: NetLab;
  disk: ServerDisk;
  home: string;
  /** The share over SFTP (sshfs) and over SMB (smbnetfs), by protocol. */
  shares(): Array<[protocol: string, mount: string]>;
}

/** Starts, before the tests of the block it is called in, a lab whose servers share a folder on a
 *  320 MiB ext4 loop device (image in RAM) and may keep 96 MiB of it (and of their own memory) in
 *  RAM; removes it all after them. */
export function useShareLab(): ShareLab {
  const it = {
    shares: () => [
      ['SFTP', it.lab.sshfsMount!],
      ['SMB', it.lab.smbMount!],
    ],
  } as ShareLab;
  beforeAll(async () => {
    buildCoreIfChanged();
    await cleanupStaleLabs();
    it.home = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-share-home-'));
    it.disk = await serverDisk(320, 96);
    it.lab = await startNetLab({ shareDir: it.disk.dir, serverGroups: it.disk.groups });
  }, 120_000);
  afterAll(async () => {
    await it.lab?.cleanup();
    await it.disk?.cleanup();
    if (it.home) await fsp.rm(it.home, { recursive: true, force: true });
  }, 60_000);
  return it;
}
