// What the macOS and Windows lookups share: the disk they find for a folder, and the read-only
// runner they use by default (argv only; eight seconds, so a hung tool cannot stall a test start).
import { createCommandRunner, readWith, type ReadCommand } from '../exec/commands.js';
import type { LinkInfo } from '../../model/link-types.js';

export const linkRead: ReadCommand = readWith(createCommandRunner({ elevate: 'direct', timeoutMs: 8_000 }));

export interface PlatformDisk {
  /** BSD name (disk4) or Windows disk number ("2"). */
  name: string;
  mountPoint?: string;
  model?: string;
  serial?: string;
  firmware?: string;
  internal?: boolean;
  link: LinkInfo;
}
