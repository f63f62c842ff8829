/**
 * "What this run found" as a list, for the sweep's summary and the page alike: the default
 * findings under their headings, per browser, the ones made per case grouped by case, and the
 * stores a finding is missing on folded into one entry per reason. Pure: checked findings in.
 */
import { FINDING_TOPICS } from './default-findings.ts';
import { namedStores, type CheckedFinding, type Finding, type FindingCell } from './findings.ts';

/** A finding measured in one browser and store: a ratio, maybe an interval, and its verdict. */
export interface Measured {
  finding: Finding;
  cell: FindingCell;
}

/** Stores a finding is missing on for one reason; `every` when that is every store it was checked on. */
export interface MissingFold {
  stores: string[];
  /** In short: which row and its status ("bulk is unsupported"). */
  why: string;
  /** Each store's own reason in full, in the order of `stores`. */
  reasons: string[];
  every: boolean;
}

/** One browser's entries under a heading; `label` names the case for the findings made per case. */
export interface ListGroup {
  browser: string;
  label: string | null;
  measured: Measured[];
  missing: MissingFold[];
}

export interface ListTopic {
  id: string;
  title: string;
  groups: ListGroup[];
}

/** The reason in short: which row and its status ("bulk is unsupported"), without the store's own name. */
function shortWhy(cell: FindingCell): string {
  const why = cell.why ?? 'a row is absent';
  const head = why.split(': ')[0] ?? why;
  return head.startsWith(`${cell.adapter} `) ? head.slice(cell.adapter.length + 1) : head;
}

/** The headings in order, each with its entries per browser (and per case), and only those with any. */
export function groupedFindings(checked: readonly CheckedFinding[]): ListTopic[] {
  const topicOf = (c: CheckedFinding) => c.finding.topic ?? c.finding.id;
  const known = FINDING_TOPICS.map((t) => t.id);
  const others = [...new Set(checked.map(topicOf))]
    .filter((id) => !known.includes(id))
    .map((id) => ({ id, title: id }));
  return [...FINDING_TOPICS, ...others].flatMap((topic) => {
    const mine = checked.filter((c) => topicOf(c) === topic.id);
    return mine.length > 0 ? [{ id: topic.id, title: topic.title, groups: groupsOf(mine) }] : [];
  });
}

function groupsOf(checked: readonly CheckedFinding[]): ListGroup[] {
  const entries = checked.flatMap(({ finding, cells }) => cells.map((cell) => ({ finding, cell })));
  // Findings about named stores (made per case) group by case; the others are one group per browser.
  const caseOf = (f: Finding) => (namedStores(f) ? `${f.slower.suite} ${f.slower.case}` : null);
  const keyOf = (m: Measured) => `${m.cell.browser}\u0000${caseOf(m.finding) ?? ''}`;
  const groups = new Map<string, Measured[]>();
  for (const m of entries) groups.set(keyOf(m), [...(groups.get(keyOf(m)) ?? []), m]);
  // Browser by browser, each with its cases in the order the findings came.
  const browsers = [...new Set(entries.map((m) => m.cell.browser))];
  return browsers.flatMap((browser) =>
    [...groups.values()]
      .filter((list) => list[0]?.cell.browser === browser)
      .map((list) => {
        const first = list[0] as Measured;
        return {
          browser,
          label: caseOf(first.finding),
          measured: list.filter((m) => m.cell.verdict !== 'missing'),
          missing: foldMissing(list),
        };
      }),
  );
}

function foldMissing(list: readonly Measured[]): MissingFold[] {
  const folds = new Map<string, FindingCell[]>();
  for (const { cell } of list.filter((m) => m.cell.verdict === 'missing'))
    folds.set(shortWhy(cell), [...(folds.get(shortWhy(cell)) ?? []), cell]);
  return [...folds].map(([why, cells]) => ({
    why,
    stores: cells.map((c) => c.adapter),
    reasons: cells.map((c) => c.why ?? why),
    every: cells.length === list.length && list.length > 1,
  }));
}
