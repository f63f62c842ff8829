/**
 * The sweep's "What this run found", printed before its table of medians: the default plan's
 * findings (core/verdicts/default-findings.ts) recomputed from the results, under their headings, one
 * line per browser and store; the findings made per case one line per case; stores a finding is
 * missing on folded by reason. Pure: documents in, lines out. Names from a file are escaped.
 */
import { checkDefaultFindings } from '../../core/verdicts/default-findings.ts';
import {
  groupedFindings,
  type ListGroup,
  type MissingFold,
} from '../../core/verdicts/findings-grouped.ts';
import { formatCellRatio } from '../../core/verdicts/findings.ts';
import type { ResultsFile } from '../../core/results/results.ts';
import { printableField } from './escape.ts';

const HEADING =
  'What this run found (slower ÷ faster per operation, paired by pass where the two rows share passes, with its 95% interval, and its verdict):';

/** The section's lines, ending in a blank one; none when the run checked no finding. */
export function findingsText(docs: readonly ResultsFile[]): string[] {
  const topics = groupedFindings(checkDefaultFindings(docs));
  if (topics.length === 0) return [];
  const width = Math.max(
    ...topics.flatMap((t) => t.groups.map((g) => printableField(g.browser).length)),
  );
  const lines = [HEADING];
  for (const topic of topics) {
    lines.push(`  ${topic.title}`);
    const measured = topic.groups.flatMap((g) => g.measured);
    const widths = {
      browser: width,
      store: Math.max(0, ...measured.map((m) => printableField(m.cell.adapter).length)),
      ratio: Math.max(0, ...measured.map((m) => formatCellRatio(m.cell).length)),
    };
    let last: string | null = null;
    for (const group of topic.groups) {
      // The browser once, at its first line.
      const browser = (group.browser === last ? '' : printableField(group.browser)).padEnd(width);
      last = group.browser;
      lines.push(
        ...(group.label === null
          ? storeLines(group, browser, widths)
          : [`    ${browser}  ${caseLine(group)}`]),
      );
    }
  }
  return [...lines, ''];
}

/** A pair's lines in one browser: a store per line, then the stores it is missing on. */
function storeLines(
  group: ListGroup,
  browser: string,
  widths: { browser: number; store: number; ratio: number },
): string[] {
  const lines = group.measured.map(
    (m) =>
      `${printableField(m.cell.adapter).padEnd(widths.store)}  ${formatCellRatio(m.cell).padEnd(widths.ratio)}  ${m.cell.verdict}`,
  );
  lines.push(...group.missing.map(missingText));
  return lines.map((line, i) => `    ${i === 0 ? browser : ''.padEnd(widths.browser)}  ${line}`);
}

/** The stores missing for one reason; one store's reason in full, several stores' in short. */
function missingText(fold: MissingFold): string {
  const on = fold.every
    ? `every store (${fold.stores.length})`
    : fold.stores.map(printableField).join(', ');
  return `missing on ${on}: ${printableField(fold.stores.length === 1 ? (fold.reasons[0] ?? fold.why) : fold.why)}`;
}

/** A case's line: its fastest store against the next, or every store against raw IndexedDB. */
function caseLine(group: ListGroup): string {
  const label = printableField(group.label ?? '');
  const measured = group.measured.map((m) => {
    const names = m.finding.names;
    if (group.measured.length === 1 && m.finding.topic === 'fastest' && names) {
      return `${printableField(names.faster)}, ${formatCellRatio(m.cell)} faster than ${printableField(names.slower)}: ${m.cell.verdict}`;
    }
    return `${printableField(m.cell.adapter)} ${formatCellRatio(m.cell)} ${m.cell.verdict}`;
  });
  const missing = group.missing.map(
    (f) =>
      `missing on ${f.every ? 'every store' : f.stores.map(printableField).join(', ')} (${printableField(f.why)})`,
  );
  return `${label}: ${[...measured, ...missing].join('; ')}`;
}
