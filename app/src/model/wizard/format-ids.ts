// Every file system the wizard knows (its own module so the settings schema can list them without
// the wizard's types, which name the settings).
/** Every file system the wizard knows, on any platform. Which ones this machine can make is
 *  FormatInfo.available. */
/** What the Linux provider can make (each where its tools are installed). */
export const LINUX_FORMAT_IDS = ['ext4', 'ext4-fscrypt', 'ext4-luks', 'xfs', 'btrfs', 'exfat', 'ntfs', 'fat32'] as const;

export const FORMAT_IDS = [
  ...LINUX_FORMAT_IDS,
  // macOS (exfat and fat32 above are shared)
  'apfs',
  'apfs-encrypted',
  'apfs-cs',
  'apfs-cs-encrypted',
  'hfs+',
  'hfs+-cs',
  // Windows (ntfs, exfat, fat32 above are shared)
  'refs',
  'ntfs-bitlocker',
] as const;
export type FormatId = (typeof FORMAT_IDS)[number];
