// A mistake on the command line: the CLI answers with one line and exit code 2.
import { DiskDialError } from '../core/errors.js';

export class UsageError extends DiskDialError {
  constructor(message: string) {
    super(message, { code: 'ERR_USAGE', category: 'input' });
  }
}
