// The systems the format-and-compare wizard has a provider for (platform.ts picks it), and whether
// it has run on real disks there: the CLI's help says what the code supports from this list.
export interface WizardPlatform {
  platform: NodeJS.Platform;
  name: string;
  /** false: command builders and parsers tested against recorded outputs only. */
  realDisks: boolean;
}

export const WIZARD_PLATFORMS: readonly WizardPlatform[] = [
  { platform: 'linux', name: 'Linux', realDisks: true },
  { platform: 'darwin', name: 'macOS', realDisks: false },
  { platform: 'win32', name: 'Windows', realDisks: false },
];

/** "Linux; macOS and Windows tested on recorded tool output only" — the wizard's reach in words. */
export function wizardPlatformsText(list: readonly WizardPlatform[] = WIZARD_PLATFORMS): string {
  const names = (ps: readonly WizardPlatform[]): string =>
    ps.length <= 1
      ? (ps[0]?.name ?? '')
      : `${ps
          .slice(0, -1)
          .map((p) => p.name)
          .join(', ')} and ${ps.at(-1)!.name}`;
  const tried = list.filter((p) => p.realDisks);
  const untried = list.filter((p) => !p.realDisks);
  return [names(tried), untried.length ? `${names(untried)} tested on recorded tool output only` : ''].filter(Boolean).join('; ');
}
