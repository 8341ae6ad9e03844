// Answers to the CLI's questions, read from stdin a line at a time (a person pressing Enter, or a
// script answering ahead). What stdin may hold is unbounded: `yes ''` never ends, /dev/zero never
// sends a line break. So an answer is at most MAX_ANSWER characters (a longer line is cut into
// answers of that length, as `fold` would), at most `ahead` answers wait to be asked for (reading
// pauses then, and a chunk's surplus is dropped), and memory stays bounded whatever comes in.
import { StringDecoder } from 'node:string_decoder';

/** Longer than any answer a question takes ("stop", a name): the rest of a line is more answers. */
export const MAX_ANSWER = 1024;

export interface Answers {
  /** The next answer; undefined once stdin has ended. */
  next(): Promise<string | undefined>;
  /** Stops reading (stdin is left paused, so the process can exit). */
  close(): void;
}

export function answerLines(input: NodeJS.ReadableStream, ahead: number): Answers {
  const queued: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];
  const decoder = new StringDecoder('utf8');
  let current = '';
  let ended = false;

  const line = (text: string): void => {
    const answer = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (waiting.length) waiting.shift()!(answer);
    else if (queued.length < ahead) queued.push(answer);
    if (queued.length >= ahead) input.pause();
  };
  const take = (text: string): void => {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      const end = nl < 0 ? text.length : nl;
      // Whole answers of MAX_ANSWER characters out of an over-long line, the rest kept for later.
      while (current.length + end - start > MAX_ANSWER) {
        const cut = start + MAX_ANSWER - current.length;
        line(current + text.slice(start, cut));
        current = '';
        start = cut;
        if (queued.length >= ahead) return; // the rest of this chunk is surplus
      }
      current += text.slice(start, end);
      if (nl < 0) return;
      line(current);
      current = '';
      start = nl + 1;
      if (queued.length >= ahead) return;
    }
  };
  const onData = (chunk: Buffer | string): void => take(typeof chunk === 'string' ? chunk : decoder.write(chunk));
  const onEnd = (): void => {
    if (ended) return;
    ended = true;
    const rest = current + decoder.end();
    current = '';
    if (rest) line(rest);
    for (const w of waiting.splice(0)) w(undefined);
  };
  input.on('data', onData);
  input.on('end', onEnd);
  input.on('close', onEnd);
  input.on('error', onEnd);

  return {
    next() {
      if (queued.length) {
        const answer = queued.shift();
        if (!ended) input.resume();
        return Promise.resolve(answer);
      }
      if (ended) return Promise.resolve(undefined);
      input.resume();
      return new Promise((resolve) => waiting.push(resolve));
    },
    close() {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('close', onEnd);
      input.off('error', onEnd);
      input.pause();
    },
  };
}
