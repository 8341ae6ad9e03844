// Facts about the machine a result was measured on (core/host.ts reads them).
export interface HostInfo {
  /** process.platform: 'linux', 'darwin', 'win32'. */
  os: string;
  /** A human name where the OS offers one cheaply ("Debian GNU/Linux 13 (trixie)"). */
  osName?: string;
  osRelease: string;
  arch: string;
  cpu: string;
  cores: number;
  ramBytes: number;
}
