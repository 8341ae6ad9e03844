// The terminal around `diskdial campaign`: its questions are answered by lines on stdin (a person
// pressing Enter, or a script), Ctrl-C stops the test in flight and leaves the campaign resumable.
import { isAbortError } from '../core/engine.js';
import { MAX_SETUPS } from '../model/campaign.js';
import { DiskDialError } from '../model/errors.js';
import { answerLines } from './answer-lines.js';
import type { CampaignCommand } from './campaign-args.js';
import { runCampaignCommand } from './campaign-command.js';
import { cancelOnSignals } from './signals.js';

export async function runCampaign(
  cmd: CampaignCommand,
  exits: { fail: (message: string, code: number) => number; failWith: (err: DiskDialError) => number },
): Promise<number> {
  const cancel = cancelOnSignals();
  // At most one answer per question a campaign can ask is kept ahead, each at most MAX_ANSWER
  // characters: `yes ''` filled memory until it crashed, and /dev/zero, one endless line, did sooner.
  const answers = cmd.action === 'list' ? undefined : answerLines(process.stdin, MAX_SETUPS + 1);
  const ask = (): Promise<string | undefined> => answers?.next() ?? Promise.resolve(undefined);
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
    answers?.close();
    process.stdin.unref?.();
    cancel.dispose();
  }
}
