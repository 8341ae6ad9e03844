// The Quick Test's --video and --fps: print the "Will it work?" table after the result (and add it
// to --json) at a frame rate. The quick kind takes these flags; the table's data lives here.
import { inputError } from '../../errors.js';
import type { KindModule } from '../types.js';
import { DEFAULT_VIDEO_FPS, willItWorkFps } from './will-it-work.js';

/** --fps as the table knows frame rates (29.97, 25, 59.94, …); `diskdial export --fps` reads it too. */
export function fpsFlag(text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text.trim())) throw inputError(`--fps must be a frame rate such as 25 or 29.97, not "${text}"`);
  try {
    return willItWorkFps(Number(text));
  } catch (err) {
    throw inputError(`--fps: ${(err as Error).message}`);
  }
}

export const willItWorkCli = {
  flags: { video: 'boolean', fps: 'string' },
  flagHelp: {
    video: '             "Will it work?" for video formats after the result',
    fps: 'N             with --video: the frame rate (default 29.97)',
  },
  parse: (flag, given) => {
    const fps = flag('fps');
    if (fps !== undefined && !given('video')) throw inputError('--fps sets the frame rate of the --video table; add --video');
    return given('video') ? { willItWork: { fps: fps === undefined ? DEFAULT_VIDEO_FPS : fpsFlag(fps) } } : {};
  },
} as const satisfies KindModule['cli'];
