export function newest(...paths: string[]): number;
export function buildCoreIfChanged(): void;
export function buildRendererIfChanged(): void;
