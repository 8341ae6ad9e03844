// A folder of many files as a camera card or a photo library holds them, for the folder check's
// test and benchmark: `count` files from 0 B to 64 MiB — most under 1 MiB (sizes drawn as the cube
// of a uniform, so small ones dominate), one in a hundred between 16 and 64 MiB — in 17
// sub-folders, names with spaces and UTF-8. 1,000 files come to about 0.6 GiB. Contents differ
// per file (its index and offset at the start of each 4 MiB of a random pool).
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

const MiB = 1024 * 1024;
const WORDS = ['Datei größe', 'café crème', '日本語 ファイル', 'Ünïcødé', 'plain name', 'clip  two spaces'];

export interface FileTree {
  /** Relative names, `/`-separated, in creation order. */
  names: string[];
  bytes: number;
}

export async function makeFileTree(root: string, count = 1000, seed = 17): Promise<FileTree> {
  const pool = randomBytes(4 * MiB);
  const names: string[] = [];
  let bytes = 0;
  let state = seed;
  const rand = (): number => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < count; i++) {
    const size = i === 0 ? 0 : i === 1 ? 64 * MiB : i % 100 === 7 ? Math.floor((16 + rand() * 48) * MiB) : Math.floor(rand() ** 3 * MiB);
    const name = `folder ${i % 17}/${WORDS[i % WORDS.length]} ${i}.bin`;
    await fsp.mkdir(path.join(root, path.dirname(name)), { recursive: true });
    const h = await fsp.open(path.join(root, name), 'w');
    try {
      for (let at = 0; at < size; at += pool.length) {
        const piece = Buffer.from(pool.subarray(0, Math.min(pool.length, size - at)));
        if (piece.length >= 8) {
          piece.writeUInt32LE(i, 0);
          piece.writeUInt32LE(at / MiB, 4);
        }
        await h.write(piece);
      }
    } finally {
      await h.close();
    }
    names.push(name);
    bytes += size;
  }
  return { names, bytes };
}
