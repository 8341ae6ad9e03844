// One way to read a file DiskDial opens on a user's behalf (a manifest, a checksum file, an
// import, a saved plan or campaign): opened without waiting (a FIFO opened O_NONBLOCK answers at
// once and is refused), a regular file only (fstat on the open handle, so a swap after a check
// changes nothing), never more than a cap per purpose, and, for files in DiskDial's own folders,
// without following a link. Schema validation comes after, in the caller's model.
import { constants as fsConstants, promises as fsp } from 'node:fs';
import { DiskDialError } from '../model/errors.js';

// Absent on Windows: there an lstat before opening stands in for O_NOFOLLOW, and FIFOs are not files.
const O_NOFOLLOW = fsConstants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fsConstants.O_NONBLOCK ?? 0;

export interface ReadLimits {
  /** What the file should be, in words: "a checksum manifest", "a results file". */
  what: string;
  /** The most bytes such a file can sensibly hold; a larger one is refused before reading. */
  maxBytes: number;
  /** Follow a symbolic link (a path the user typed); false for files in DiskDial's own folders. */
  follow: boolean;
}

/** Sizes as a person reads them in the refusal: "64 MB", "512 KB". */
function sizeWords(bytes: number): string {
  return bytes >= 1e6 ? `${Math.round(bytes / 1e6)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} KB`;
}

function refuse(file: string, code: string, message: string): DiskDialError {
  return new DiskDialError(message, { code, path: file, category: 'input' });
}

/** The file's bytes, or a DiskDialError in plain words (ERR_NOT_A_FILE, EISDIR, EFBIG, ELOOP).
 *  fs errors such as ENOENT and EACCES pass through unchanged for the caller to word. */
export async function readUserBytes(file: string, limits: ReadLimits): Promise<Buffer> {
  const noFollow = limits.follow ? 0 : O_NOFOLLOW;
  const link = (): DiskDialError =>
    refuse(file, 'ELOOP', `${file} is a symbolic link; DiskDial reads ${limits.what} only from the file itself, not through a link.`);
  if (!limits.follow && !O_NOFOLLOW && (await fsp.lstat(file)).isSymbolicLink()) throw link();
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, fsConstants.O_RDONLY | noFollow | O_NONBLOCK);
  } catch (err) {
    // Linux answers ELOOP for a link under O_NOFOLLOW; macOS and the BSDs too (EMLINK on some).
    const code = (err as NodeJS.ErrnoException).code;
    if (!limits.follow && (code === 'ELOOP' || code === 'EMLINK')) throw link();
    throw err;
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw refuse(file, 'EISDIR', `${file} is a folder, not ${limits.what}.`);
    if (!st.isFile())
      throw refuse(file, 'ERR_NOT_A_FILE', `${file} is not a regular file (a pipe, a device or a socket), so it cannot be ${limits.what}.`);
    const tooLarge = (): DiskDialError =>
      refuse(file, 'EFBIG', `${file} is larger than ${limits.what} can be (at most ${sizeWords(limits.maxBytes)}).`);
    if (st.size > limits.maxBytes) throw tooLarge();
    // Read to the end, never past the cap: the file may grow between fstat and read.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      // Sized to what fstat said is left (plus one byte, to see the end), not to the cap: a few-KB
      // state file read a thousand times must not allocate a megabyte each time.
      const buf = Buffer.allocUnsafe(Math.min(limits.maxBytes + 1 - total, 1 << 20, Math.max(st.size + 1 - total, 64 * 1024)));
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      chunks.push(buf.subarray(0, bytesRead));
      total += bytesRead;
      if (total > limits.maxBytes) throw tooLarge();
    }
    return Buffer.concat(chunks, total);
  } finally {
    await handle.close();
  }
}

/** readUserBytes as UTF-8 text. */
export async function readUserText(file: string, limits: ReadLimits): Promise<string> {
  return (await readUserBytes(file, limits)).toString('utf8');
}
