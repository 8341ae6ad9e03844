// Facts about the machine a result was measured on, for the result document: a number is only
// comparable when you know the CPU, RAM and OS it came from.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { HostInfo } from '../model/host.js';

export function hostInfo(): HostInfo {
  const cpus = os.cpus();
  const info: HostInfo = {
    os: process.platform,
    osRelease: os.release(),
    arch: process.arch,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    ramBytes: os.totalmem(),
  };
  const name = osName();
  if (name) info.osName = name;
  return info;
}

function osName(): string | undefined {
  if (process.platform === 'linux') {
    try {
      const text = readFileSync('/etc/os-release', 'utf8');
      const m = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(text);
      return m?.[1] || undefined;
    } catch {
      return undefined;
    }
  }
  if (process.platform === 'darwin') return `macOS (Darwin ${os.release()})`;
  if (process.platform === 'win32') return os.version();
  return undefined;
}
