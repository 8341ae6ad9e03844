// A mistake on the command line: the CLI answers with one line and exit code 2.
import { DiskDialError } from '../model/errors.js';

export class UsageError extends DiskDialError {
  /** `code`: the errno behind it (ENOENT…), printed as a detail after the sentence. */
  constructor(message: string, code = 'ERR_USAGE') {
    super(message, { code, category: 'input' });
  }
}

/** Runs a node:util parseArgs call, turning its errors into one-line usage errors. */
export function parseOptions<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    const message = (err as Error).message;
    const flag = /'(--?[\w-]+)/.exec(message)?.[1] ?? '';
    if ((err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
      throw new UsageError(`unknown option ${flag}; see diskdial --help`);
    throw new UsageError(message.split('\n')[0] ?? 'invalid arguments');
  }
}
