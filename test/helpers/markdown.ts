// Markdown as the exports write it, read back by tests.

/** The lines of the Markdown's `which`-th table (0: the first), each starting with '|'. */
export function markdownTableLines(md: string, which = 0): string[] {
  const tables: string[][] = [];
  let prev = false;
  for (const l of md.split('\n')) {
    const row = l.startsWith('|');
    if (row && !prev) tables.push([]);
    if (row) tables[tables.length - 1]!.push(l);
    prev = row;
  }
  return tables[which] ?? [];
}
