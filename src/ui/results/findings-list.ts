/**
 * "What this run found": the default plan's findings in words, recomputed from the results
 * (core/verdicts/default-findings.ts, grouped by core/verdicts/findings-grouped.ts as the sweep
 * prints them), at the top of the page's Results after a run and of the explorer for the files
 * it opened. Each line is the finding's sentence (the ratio, its interval, where, the verdict);
 * the stores a finding is missing on fold into one line per reason, with each store's own reason
 * under it.
 */
import { checkDefaultFindings } from '../../core/verdicts/default-findings.ts';
import {
  groupedFindings,
  type ListGroup,
  type ListTopic,
  type Measured,
  type MissingFold,
} from '../../core/verdicts/findings-grouped.ts';
import { findingSentence, formatCellRatio } from '../../core/verdicts/findings.ts';
import type { ResultsFile } from '../../core/results/results.ts';
import { h } from '../dom.ts';

const NOTE =
  'Each line is slower ÷ faster per operation, at the largest size both rows ran, with its 95% interval: paired by pass where the two rows share passes (the geometric mean of each pass’s ratio, Student’s t over passes, at the plan’s looks), else the ratio of the two medians. ' +
  'holds: the whole interval is on the claim’s side of 1; reversed: wholly on the other side; same: wholly within ±5%; slower / faster (a store against raw IndexedDB): wholly beyond ±5%; undecided: no interval, or one that reaches across a bound; missing: a row is absent or not ok.';

/** The note's one line, folded over it: every line reads the same way, and one look is enough. */
const NOTE_LINE =
  'How a line reads: slower ÷ faster per operation, its 95% interval, and what holds, reversed, same and undecided mean.';

/** Headings whose lists are long (one line per case and store) start folded. */
const FOLDED = new Set(['over-raw']);

export class FindingsList {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;

  constructor(title: string) {
    this.body = h('div', { className: 'findings-body' });
    this.element = h(
      'section',
      { className: 'findings', attrs: { 'data-testid': 'findings', 'aria-label': title } },
      h('h3', { className: 'findings-title' }, title),
      h(
        'details',
        { className: 'findings-note muted' },
        h('summary', {}, NOTE_LINE),
        h('p', {}, NOTE),
      ),
      this.body,
    );
    this.element.hidden = true;
  }

  /** Show what the documents found; hidden when they checked no finding. */
  render(docs: readonly ResultsFile[]): void {
    const topics = docs.length > 0 ? groupedFindings(checkDefaultFindings(docs)) : [];
    this.body.replaceChildren(...topics.map(topicElement));
    this.element.hidden = topics.length === 0;
  }
}

function topicElement(topic: ListTopic): HTMLElement {
  const items = topic.groups.flatMap((g) => (g.label === null ? storeItems(g) : [caseItem(g)]));
  const details = h(
    'details',
    { className: 'findings-topic', attrs: { 'data-topic': topic.id } },
    h('summary', {}, topic.title),
    h('ul', { className: 'findings-items' }, ...items),
  );
  details.open = !FOLDED.has(topic.id);
  return details;
}

/** A measured finding's line, its verdict in its class for the colour and in data- attributes for tests. */
function verdictItem(m: Measured, text = findingSentence(m.finding, m.cell)): HTMLElement {
  const attrs = {
    'data-finding': m.finding.id,
    'data-store': m.cell.adapter,
    'data-browser': m.cell.browser,
    'data-verdict': m.cell.verdict,
  };
  return h(
    'li',
    { className: `finding verdict-${m.cell.verdict.replace(/ /g, '-')}`, attrs },
    text,
  );
}

function missingItem(fold: MissingFold, browser: string): HTMLElement {
  const on = fold.every ? `every store (${fold.stores.length})` : fold.stores.join(', ');
  const reasons = h(
    'ul',
    { className: 'finding-reasons' },
    ...fold.stores.map((store, i) => h('li', {}, `${store}: ${fold.reasons[i] ?? fold.why}`)),
  );
  return h(
    'li',
    {
      className: 'finding verdict-missing',
      attrs: { 'data-verdict': 'missing', 'data-browser': browser },
    },
    h('details', {}, h('summary', {}, `missing on ${on} in ${browser}: ${fold.why}`), reasons),
  );
}

/** A pair in one browser: a line per store, then the stores it is missing on. */
function storeItems(group: ListGroup): HTMLElement[] {
  return [
    ...group.measured.map((m) => verdictItem(m)),
    ...group.missing.map((f) => missingItem(f, group.browser)),
  ];
}

/** A case in one browser: its fastest store's sentence, or every store against raw IndexedDB in short. */
function caseItem(group: ListGroup): HTMLElement {
  const only =
    group.measured.length === 1 && group.missing.length === 0 ? group.measured[0] : undefined;
  if (only) return verdictItem(only);
  const short = (m: Measured) =>
    verdictItem(m, `${m.cell.adapter}: ${formatCellRatio(m.cell)}, ${m.cell.verdict}`);
  return h(
    'li',
    { className: 'finding-case' },
    h('span', { className: 'finding-case-label' }, `${group.label ?? ''} in ${group.browser}`),
    h(
      'ul',
      { className: 'findings-items' },
      ...group.measured.map(short),
      ...group.missing.map((f) => missingItem(f, group.browser)),
    ),
  );
}
