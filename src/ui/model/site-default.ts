/**
 * What the published site (npm run site) opens with when its link names no files: the newest run
 * of each browser in the explorer's tables and charts, which a column per run would crowd, while
 * the trends read every file. Pure.
 */
import type { ResultsIndexEntry } from '../../core/results/input.ts';

/** The names of the files holding each browser's newest run (by its start), in listing order. */
export function newestPerBrowser(index: readonly ResultsIndexEntry[]): string[] {
  const newest = new Map<string, { name: string; startedAt: string }>();
  for (const f of index)
    for (const d of f.documents ?? []) {
      const seen = newest.get(d.browser);
      if (!seen || d.startedAt > seen.startedAt)
        newest.set(d.browser, { name: f.name, startedAt: d.startedAt });
    }
  const names = new Set([...newest.values()].map((n) => n.name));
  return index.filter((f) => names.has(f.name)).map((f) => f.name);
}
