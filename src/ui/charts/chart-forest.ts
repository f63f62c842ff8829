/**
 * The forest plot of an A/B run: a line per row and browser, B/A as a point with its 95% interval
 * as a bar on a log axis, the ±threshold band shaded around a line at ×1, each line in its
 * verdict's colour and named in words beside it. Drawn in HTML and CSS rather than on a canvas:
 * the labels are text that wraps, and on a phone they stack above their bars (style.css), so
 * nothing overlaps or runs off the side at any width. Positions come from model/ab-forest.ts.
 */
import { h } from '../dom.ts';
import { times, type AbForest, type ForestLine } from '../model/ab-forest.ts';

/** Percent of the track, for a CSS left or width. */
const pct = (x: number) => `${(x * 100).toFixed(3)}%`;

function placed(className: string, left: number, width?: number): HTMLElement {
  const el = h('div', { className });
  el.style.left = pct(left);
  if (width !== undefined) el.style.width = pct(width);
  return el;
}

/** What every track draws behind its line: the band and the line at ×1. */
function trackOf(forest: AbForest, ...marks: HTMLElement[]): HTMLElement {
  const { band, one } = forest.axis;
  return h(
    'div',
    { className: 'forest-track' },
    placed('forest-band', band.lo, band.hi - band.lo),
    placed('forest-one', one),
    ...marks,
  );
}

function marksOf(line: ForestLine): HTMLElement[] {
  if (!line.at) return [h('span', { className: 'forest-none' }, 'no interval')];
  const { point, lo, hi, loCut, hiCut } = line.at;
  return [
    placed(`forest-bar${loCut ? ' cut-lo' : ''}${hiCut ? ' cut-hi' : ''}`, lo, hi - lo),
    ...(loCut ? [placed('forest-cut forest-cut-lo', 0)] : []),
    ...(hiCut ? [placed('forest-cut forest-cut-hi', 1)] : []),
    placed('forest-point', point),
  ];
}

/** The verdict in words, and whether it fails the run: the colour only repeats it. */
export function verdictBadges(line: ForestLine): HTMLElement[] {
  return [
    h('span', { className: `ab-word ab-word-${line.verdict}` }, line.verdict),
    line.fails
      ? h(
          'span',
          {
            className: 'ab-fails',
            title:
              'Slower, with the chance of any false alarm over every row held at 5% (Holm): this row fails the run',
          },
          '⚑ fails the run',
        )
      : null,
  ].filter((x): x is HTMLElement => x !== null);
}

/** A line's name: the case, its size and parameters, and the browser when the run has several. */
export function lineName(line: ForestLine, browsers: number): string[] {
  return [
    line.row,
    `${line.size.toLocaleString()} docs`,
    line.params,
    browsers > 1 ? line.browser : '',
  ].filter(Boolean);
}

function lineOf(forest: AbForest, line: ForestLine): HTMLElement {
  const name = lineName(line, forest.browsers.length);
  const value = line.ratio
    ? h(
        'span',
        { className: 'forest-ratio' },
        times(line.ratio.ratio),
        ' ',
        h(
          'span',
          { className: 'forest-interval' },
          `[${times(line.ratio.lo)}, ${times(line.ratio.hi)}]`,
        ),
      )
    : h('span', { className: 'forest-why' }, line.why ?? '');
  return h(
    'div',
    {
      className: 'forest-line',
      attrs: {
        'data-verdict': line.verdict,
        'data-fails': String(line.fails),
        'data-key': line.key,
      },
    },
    h(
      'div',
      { className: 'forest-label' },
      h('span', { className: 'forest-row' }, name[0] ?? ''),
      ...name.slice(1).map((n) => h('span', { className: 'forest-meta' }, n)),
    ),
    h(
      'div',
      { className: 'forest-value' },
      value,
      h('span', { className: 'forest-verdict' }, ...verdictBadges(line)),
    ),
    trackOf(forest, ...marksOf(line)),
  );
}

function axisOf(forest: AbForest): HTMLElement {
  const ticks = forest.axis.ticks.map((t) => {
    const tick = placed(`forest-tick${t.major ? ' major' : ''}`, t.at);
    tick.textContent = t.label;
    return tick;
  });
  return h(
    'div',
    { className: 'forest-line forest-axis' },
    h('div', { className: 'forest-label' }, 'B/A, log scale'),
    h('div', { className: 'forest-ticks' }, ...ticks),
  );
}

/** The plot; the same numbers are in the table beside it, for screen readers and copying. */
export function forestPlot(forest: AbForest): HTMLElement {
  const t = forest.thresholdPct;
  return h(
    'figure',
    {
      className: 'forest',
      attrs: { 'data-chart': 'forest', 'data-lines': String(forest.lines.length) },
    },
    h(
      'div',
      { className: 'forest-plot', attrs: { 'aria-hidden': 'true' } },
      ...forest.lines.map((line) => lineOf(forest, line)),
      axisOf(forest),
    ),
    h(
      'figcaption',
      { className: 'figure-caption' },
      `Point: B/A, how long ${forest.b} (B) takes over ${forest.a} (A), the ratio of their medians in each pass and a geometric mean over passes; above ×1, B is slower. `,
      `Bar: its 95% interval over passes, on a log scale. Shaded: ±${t}% around ×1 (×${Number((1 - t / 100).toPrecision(4))} to ×${Number((1 + t / 100).toPrecision(4))}). `,
      'The numbers are in the table below.',
    ),
  );
}
