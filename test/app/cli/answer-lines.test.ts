// Answers read from stdin: in order, one a question, bounded however much stdin holds — `yes ''`
// (endless lines) and /dev/zero (one endless line) keep only what can be asked for.
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { answerLines, MAX_ANSWER } from '../../../app/src/cli/answer-lines.js';

/** An endless stdin that counts the chunks it was asked for. */
function endless(chunk: string): { input: Readable; pulled: () => number } {
  let n = 0;
  const input = new Readable({
    read() {
      n++;
      this.push(chunk);
    },
  });
  return { input, pulled: () => n };
}

describe('answers from stdin', () => {
  it('one line an answer, in order, CRLF or LF, the last one without a line break too; then the end', async () => {
    const input = new PassThrough();
    const a = answerLines(input, 4);
    input.end('go\r\nstop\n\nlast');
    expect([await a.next(), await a.next(), await a.next(), await a.next(), await a.next()]).toEqual(['go', 'stop', '', 'last', undefined]);
  });

  it('waits for an answer typed later, and splits no character across chunks', async () => {
    const input = new PassThrough();
    const a = answerLines(input, 4);
    const answer = a.next();
    const e = Buffer.from('é\n');
    input.write(e.subarray(0, 1));
    input.write(e.subarray(1));
    expect(await answer).toBe('é');
    a.close();
  });

  it.each([
    ["`yes ''`", '\n'.repeat(64 * 1024)],
    ['/dev/zero', '\0'.repeat(64 * 1024)],
  ])('%s: answers keep coming, and reading stops while none is asked for', async (_what, chunk) => {
    const { input, pulled } = endless(chunk);
    const a = answerLines(input, 13);
    for (let i = 0; i < 30; i++) {
      const answer = await a.next();
      expect(answer!.length).toBeLessThanOrEqual(MAX_ANSWER);
    }
    // The reader pauses stdin itself once as many answers wait as can be asked for (the old one
    // kept every line until memory ran out); by then it has pulled a few chunks, not thousands.
    if (!input.isPaused()) await once(input, 'pause');
    expect(pulled()).toBeLessThan(100);
    a.close();
  });

  it('a line longer than an answer is cut into answers of that length', async () => {
    const input = new PassThrough();
    const a = answerLines(input, 8);
    input.end(`${'x'.repeat(MAX_ANSWER * 2 + 5)}\nok\n`);
    expect(await a.next()).toBe('x'.repeat(MAX_ANSWER));
    expect(await a.next()).toBe('x'.repeat(MAX_ANSWER));
    expect(await a.next()).toBe('xxxxx');
    expect(await a.next()).toBe('ok');
  });
});
