// Which physical drives a path lives on, as lock keys: one test per drive means one per disk, not
// per file system. Linux walks path → mount → source device(s) → whole disk: a partition's parent
// disk, an md/dm device's slaves, a loop device's backing file (itself a path, so the walk
// recurses), every member of a multi-device Btrfs. A mount with no block device is its own drive:
// a network share by its source (server and export), anything else (tmpfs, FUSE) by its device
// number. macOS and Windows key on the whole disk their tools name, else on the volume.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { powershell } from './exec/powershell.js';
import { exists, readTrim } from './link/index.js';
import { linkRead } from './link/platform.js';
import { isNetworkFs } from '../model/network.js';
import { findMount, mountDevNumber, readMountinfo, type MountEntry } from './volume.js';

/** A loop device over a file on a loop device over a file …: deeper than this is a cycle. */
const MAX_DEPTH = 8;

/** Lock keys (file-name safe, sorted, unique) of the drives holding `target`, which must exist. */
export async function driveKeysOf(target: string): Promise<string[]> {
  const st = await fsp.stat(target);
  const { dev } = st;
  let keys: string[] = [];
  // A whole device (a kind's --device command): its own disk, by the number sysfs gives its node.
  const node =
    st.isBlockDevice() && process.platform === 'linux'
      ? await readTrim(`/sys/class/block/${path.basename(await fsp.realpath(target))}/dev`)
      : undefined;
  if (node) keys = await wholeDisks(node, await readMountinfo(), 0);
  else if (process.platform === 'linux') keys = await linuxDrives(target, await readMountinfo(), 0);
  else if (process.platform === 'darwin') keys = await macDrive(target);
  else if (process.platform === 'win32') keys = await windowsDrive(target);
  if (keys.length === 0) keys = [`volume-${dev}`];
  return [...new Set(keys.map(safeKey))].sort();
}

/** Keys become file names: only [A-Za-z0-9_-]; a name that had other characters (a share's
 *  source "nas:/export") keeps a short hash of the original so two sources never merge. */
function safeKey(key: string): string {
  const clean = key.replace(/[^A-Za-z0-9_-]/g, '_');
  if (clean === key && key.length <= 100) return key;
  return `${clean.slice(0, 80)}-${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

async function linuxDrives(target: string, mounts: readonly MountEntry[], depth: number): Promise<string[]> {
  let real: string;
  try {
    real = await fsp.realpath(target);
  } catch {
    return [];
  }
  const m = findMount(mounts, real);
  if (!m) return [];
  const dev = await mountDevNumber(m);
  if (dev.startsWith('0:')) return [isNetworkFs(m.fsType) ? `share-${m.fsType}-${m.source}` : `fs-${dev.replace(':', '-')}`];
  const devices = m.fsType === 'btrfs' ? await btrfsMembers(dev) : [dev];
  const keys: string[] = [];
  for (const d of devices) keys.push(...(await wholeDisks(d, mounts, depth)));
  return keys;
}

/** Every device of the Btrfs file system that `dev` belongs to (/sys/fs/btrfs/<uuid>/devices
 *  lists them by name); just `dev` when sysfs does not say. */
async function btrfsMembers(dev: string): Promise<string[]> {
  const name = await blockName(dev);
  if (!name) return [dev];
  let uuids: string[];
  try {
    uuids = await fsp.readdir('/sys/fs/btrfs');
  } catch {
    return [dev];
  }
  for (const uuid of uuids) {
    const names = await fsp.readdir(path.join('/sys/fs/btrfs', uuid, 'devices')).catch((): string[] => []);
    if (!names.includes(name)) continue;
    const devs = await Promise.all(names.map((n) => readTrim(`/sys/class/block/${n}/dev`)));
    return devs.filter((d): d is string => d !== undefined);
  }
  return [dev];
}

async function blockName(dev: string): Promise<string | undefined> {
  try {
    return path.basename(await fsp.realpath(`/sys/dev/block/${dev}`));
  } catch {
    return undefined;
  }
}

/** The whole disk(s) under a block device: partition → its disk; md/dm → their slaves; loop → the
 *  drives of its backing file. */
async function wholeDisks(dev: string, mounts: readonly MountEntry[], depth: number): Promise<string[]> {
  let node: string;
  try {
    node = await fsp.realpath(`/sys/dev/block/${dev}`);
  } catch {
    return [`block-${dev.replace(':', '-')}`];
  }
  // A partition's sysfs folder sits inside its disk's folder.
  const disk = (await exists(path.join(node, 'partition'))) ? path.dirname(node) : node;
  const name = path.basename(disk);
  if (depth >= MAX_DEPTH) return [`block-${name}`];
  const slaves = await fsp.readdir(path.join(disk, 'slaves')).catch((): string[] => []);
  if (slaves.length > 0) {
    const keys: string[] = [];
    for (const s of slaves) {
      const sdev = await readTrim(path.join(disk, 'slaves', s, 'dev'));
      keys.push(...(sdev ? await wholeDisks(sdev, mounts, depth + 1) : [`block-${s}`]));
    }
    return keys;
  }
  // The kernel marks a backing file deleted since binding with " (deleted)": its path is gone,
  // so the loop device stands for itself.
  const backing = await readTrim(path.join(disk, 'loop/backing_file'));
  if (backing && !backing.endsWith(' (deleted)')) {
    const keys = await linuxDrives(backing, mounts, depth + 1);
    if (keys.length > 0) return keys;
  }
  return [`block-${name}`];
}

/** macOS: `df` names the volume's BSD device (disk4s1); its whole disk (disk4) is the key. An APFS
 *  container counts as its own disk. */
async function macDrive(target: string): Promise<string[]> {
  try {
    const device = (await linkRead(['df', '-P', target])).trim().split('\n').at(-1)?.split(/\s+/)[0] ?? '';
    const whole = /^\/dev\/(disk\d+)/.exec(device)?.[1];
    return whole ? [`disk-${whole}`] : [];
  } catch {
    return [];
  }
}

/** Windows: the drive letter's disk number (Get-Partition); a share or a silent PowerShell leaves
 *  the volume as the key. */
async function windowsDrive(target: string): Promise<string[]> {
  const letter = /^([A-Za-z]):/.exec(path.resolve(target))?.[1]?.toUpperCase();
  if (!letter) return [];
  try {
    const n = (await linkRead(powershell(`(Get-Partition -DriveLetter ${letter}).DiskNumber`))).trim();
    return /^\d+$/.test(n) ? [`disk-${n}`] : [];
  } catch {
    return [];
  }
}
