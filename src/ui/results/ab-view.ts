/**
 * B against A, as the page and the explorer show an A/B run (plan.ab): the run's one verdict
 * (core/verdicts/ab.ts) first, where its passes ran, the legend in words, the forest plot
 * (charts/chart-forest.ts), and the same numbers as a table for screen readers and copying.
 * One block per A/B run among the documents given; nothing at all when there is none.
 */
import type { ResultsFile } from '../../core/results/results.ts';
import { FAMILY_ALPHA, powerText } from '../../core/verdicts/change.ts';
import type { ChangeVerdict } from '../../core/schema/vocabulary.ts';
import { forestPlot, lineName, verdictBadges } from '../charts/chart-forest.ts';
import { h } from '../dom.ts';
import { abForests, times, type AbForest } from '../model/ab-forest.ts';


function meaning(verdict: ChangeVerdict, t: number, browsers: number): string {
  const up = `×${Number((1 + t / 100).toPrecision(4))}`;
  const down = `×${Number((1 - t / 100).toPrecision(4))}`;
  const family = `every row${browsers > 1 ? ' and browser' : ''}`;
  switch (verdict) {
    case 'slower':
      return `B/A is above ${up} and B is shown slower with the chance of any false alarm over ${family} held at ${FAMILY_ALPHA * 100}% (Holm): it fails the run`;
    case 'faster':
      return `B/A is below ${down} and B is shown faster by the same test`;
    case 'same':
      return `the whole interval is within ${down} to ${up}: any difference is smaller than ${t}%`;
    case 'undecided':
      return 'none of these: the row says the slowdown the run could have caught in it';
  }
}

const rowCount = (n: number) => `${n} row${n === 1 ? '' : 's'}`;

export class AbView {
  readonly element: HTMLElement;

  constructor() {
    this.element = h('div', { className: 'ab-view', attrs: { 'data-testid': 'ab-view' } });
    this.element.hidden = true;
  }

  /** Show the A/B runs among these documents (none: the view hides). */
  render(docs: readonly ResultsFile[]): void {
    const forests = abForests(docs);
    this.element.hidden = forests.length === 0;
    this.element.replaceChildren(...forests.map(runBlock));
  }
}

function runBlock(forest: AbForest): HTMLElement {
  const browsers = forest.browsers.join(', ');
  return h(
    'section',
    {
      className: 'ab-run',
      attrs: { 'data-run': forest.runId, 'data-pair': `${forest.a},${forest.b}` },
    },
    h(
      'h3',
      { className: 'explorer-heading' },
      `B against A: ${forest.b} (B) against ${forest.a} (A)`,
      h('span', { className: 'muted ab-where' }, ` · ${browsers} · run ${forest.runId}`),
    ),
    h(
      'p',
      {
        className: 'ab-verdict',
        attrs: { 'data-code': forest.decision.outcome, 'data-testid': 'ab-verdict' },
      },
      forest.line,
    ),
    scopeNote(forest),
    legend(forest),
    forestPlot(forest),
    table(forest),
  );
}

/** Where the passes ran: a page's run has them all in one launch, and its intervals are narrower for it. */
function scopeNote(forest: AbForest): HTMLElement | null {
  if (forest.oneLaunch.length === 0)
    return h(
      'p',
      { className: 'ab-scope muted' },
      'Each pass ran in a browser launch of its own: each interval is over launches.',
    );
  const which =
    forest.oneLaunch.length === forest.browsers.length
      ? 'this run'
      : `${forest.oneLaunch.join(', ')}`;
  return h(
    'p',
    { className: 'ab-scope', attrs: { 'data-testid': 'ab-scope' } },
    `In ${which}, every pass ran in one browser launch: each interval is over passes, not launches. `,
    'It leaves out how one launch of a browser differs from the next, so it can be narrower than a sweep would find; ',
    h('code', {}, `npm run sweep -- --ab ${forest.a},${forest.b}`),
    ' runs each pass in a launch of its own.',
  );
}

function legend(forest: AbForest): HTMLElement {
  const t = forest.thresholdPct;
  return h(
    'ul',
    { className: 'ab-legend', attrs: { 'aria-label': 'What the verdicts mean' } },
    ...(['slower', 'faster', 'same', 'undecided'] as const).map((v) =>
      h(
        'li',
        { attrs: { 'data-verdict': v } },
        h('span', { className: 'ab-swatch', attrs: { 'aria-hidden': 'true' } }),
        h('span', { className: `ab-word ab-word-${v}` }, v),
        ` ${meaning(v, t, forest.browsers.length)} · ${rowCount(forest.decision.tally[v])}`,
      ),
    ),
    h(
      'li',
      { attrs: { 'data-testid': 'ab-power' } },
      h('span', { className: 'ab-detectable' }, 'would catch:'),
      ` the smallest slowdown the run would have caught in a row with 80% probability; ${powerText(forest.decision.power)}.`,
    ),
    forest.passes === null
      ? null
      : h(
          'li',
          { attrs: { 'data-testid': 'ab-passes' } },
          h('span', { className: 'ab-detectable' }, 'passes:'),
          ` ${forest.passes}.`,
        ),
  );
}

function table(forest: AbForest): HTMLElement {
  const head = ['Row', 'B/A', '95% interval', 'Passes', 'Verdict', 'Would catch'];
  const cell = (label: string, className: string, ...children: (Node | string)[]) =>
    h('td', { className, attrs: { 'data-label': label } }, ...children);
  const rows = forest.lines.map((line) => {
    const [row, ...meta] = lineName(line, forest.browsers.length);
    return h(
      'tr',
      { attrs: { 'data-verdict': line.verdict, 'data-key': line.key } },
      cell('Row', 'case', row ?? '', h('span', { className: 'case-title' }, meta.join(' · '))),
      cell('B/A', 'num', line.ratio ? times(line.ratio.ratio) : '—'),
      cell(
        '95% interval',
        'ab-interval',
        line.ratio ? `${times(line.ratio.lo)} to ${times(line.ratio.hi)}` : (line.why ?? ''),
      ),
      cell('Passes', 'num', line.ratio ? String(line.ratio.passes) : '—'),
      cell(
        'Verdict',
        'ab-verdict-cell',
        h('span', { className: 'ab-badges' }, ...verdictBadges(line)),
      ),
      cell(
        'Would catch',
        'num',
        line.detectable === null ? '—' : `×${line.detectable.toFixed(2)}`,
      ),
    );
  });
  return h(
    'div',
    { className: 'table-scroll ab-table-wrap' },
    h(
      'table',
      { className: 'ab-table', attrs: { 'data-testid': 'ab-table' } },
      h(
        'caption',
        { className: 'visually-hidden' },
        `B = ${forest.b} against A = ${forest.a}: B/A per row with its 95% interval over passes and its verdict against ±${forest.thresholdPct}%`,
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...head.map((label) =>
            h(
              'th',
              {
                className: ['B/A', 'Passes', 'Would catch'].includes(label) ? 'num' : '',
                attrs: { scope: 'col' },
              },
              label,
            ),
          ),
        ),
      ),
      h('tbody', {}, ...rows),
    ),
  );
}
