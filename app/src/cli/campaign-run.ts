// The terminal around `diskdial campaign`: its questions are answered by lines on stdin (a person
// pressing Enter, or a script), Ctrl-C stops the test in flight and leaves the campaign resumable.
import { createInterface } from 'node:readline';
import { isAbortError } from '../core/engine.js';
import { MAX_SETUPS } from '../model/campaign.js';
import { DiskDialError } from '../model/errors.js';
import type { CampaignCommand } from './campaign-args.js';
import { runCampaignCommand } from './campaign-command.js';
import { cancelOnSignals } from './signals.js';

export async function runCampaign(
  cmd: CampaignCommand,
  exits: { fail: (message: string, code: number) => number; failWith: (err: DiskDialError) => number },
): Promise<number> {
  const cancel = cancelOnSignals();
  // Lines typed before they are asked for are kept, in order (a script may answer ahead).
  const lines: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];
  let ended = false;
  const rl = cmd.action === 'list' ? undefined : createInterface({ input: process.stdin, terminal: false });
  // At most one answer per question a campaign can ask is kept ahead; reading pauses when that
  // many wait (`yes '' | diskdial campaign` filled memory until it crashed), and the surplus is dropped.
  const ahead = MAX_SETUPS + 1;
  rl?.on('line', (line) => {
    if (waiting.length) return waiting.shift()!(line);
    if (lines.length < ahead) lines.push(line);
    if (lines.length >= ahead) rl.pause();
  });
  rl?.on('close', () => {
    ended = true;
    for (const w of waiting.splice(0)) w(undefined);
  });
  const ask = (): Promise<string | undefined> => {
    if (lines.length) {
      const line = lines.shift();
      rl?.resume();
      return Promise.resolve(line);
    }
    return ended ? Promise.resolve(undefined) : new Promise((r) => waiting.push(r));
  };
  try {
    return await runCampaignCommand(cmd, {
      out: (text) => process.stdout.write(text),
      err: (line) => process.stderr.write(`diskdial: ${line}\n`),
      ask,
      signal: cancel.signal,
    });
  } catch (err) {
    if (isAbortError(err) || cancel.exitCode) {
      process.stderr.write('diskdial: cancelled; test files removed\n');
      return cancel.exitCode || 130;
    }
    if (err instanceof DiskDialError) return exits.failWith(err);
    return exits.fail(err instanceof Error ? err.message : String(err), 1);
  } finally {
    rl?.close();
    process.stdin.unref?.();
    cancel.dispose();
  }
}
