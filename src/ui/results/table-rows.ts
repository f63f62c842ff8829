/**
 * One row of the results table: its cells, each numeric one keeping its number for the sort, and
 * its reason, folded to one line. An ok row's reason says its driven finding, a median too close
 * to the timer step, its precision, outliers, freezes and storage. All text goes in through
 * textContent.
 */
import { drivenFinding, isTimedSection } from '../../../suites/driven.ts';
import type { CaseResult } from '../../core/results/results.ts';
import { opsPerSecond } from '../../core/stats/stats.ts';
import { MIN_TIMER_STEPS, timedSectionMs, underTimerResolution } from '../../core/base/timer.ts';
import { formatBytes, formatMeasuredDuration, formatMs, formatRate } from '../../core/base/format.ts';
import { h } from '../dom.ts';
import {
  describeMean,
  describeMedian,
  formatMedianInterval,
  precisionNotes,
  samplingNotes,
} from './row-text.ts';

/** A frame gap beyond this is a freeze a reader notices (a long task is 50 ms or more). */
const FREEZE_MS = 50;

type OkRow = Extract<CaseResult, { status: 'ok' }>;

/** What a row's cells need besides the row: the stores' labels, the run's timer step and sampling. */
export interface RowContext {
  adapterLabels: ReadonlyMap<string, string>;
  timerStepMs: number;
  /** Whether the rows were sampled adaptively, so a row at its sample cap says so. */
  adaptive: boolean;
}

/** A row, and whether its median is under MIN_TIMER_STEPS timer steps (coarse). */
export function tableRow(r: CaseResult, ctx: RowContext): { tr: HTMLTableRowElement; coarse: boolean } {
  const samplesTitle =
    r.samples.length > 0
      ? `samples (ms): ${r.samples.map((s) => formatMs(s)).join(', ')}`
      : 'no timed samples';
  const lead = [
    h(
      'td',
      { className: 'adapter', title: ctx.adapterLabels.get(r.adapter) ?? '' },
      h('code', {}, r.adapter),
    ),
    h(
      'td',
      { className: 'case', title: r.title },
      `${r.suite}/${r.case}`,
      h('span', { className: 'case-title' }, r.title),
    ),
    numCell(String(r.size), undefined, r.size),
    numCell(String(r.samples.length), samplesTitle, r.samples.length),
  ];
  const status = h('td', {}, h('span', { className: `status status-${r.status}` }, r.status));
  if (r.status !== 'ok') return { tr: notOkRow(r, lead, status), coarse: false };
  return okRow(r, ctx, lead, status, samplesTitle);
}

function okRow(
  r: OkRow,
  ctx: RowContext,
  lead: readonly HTMLElement[],
  status: HTMLElement,
  samplesTitle: string,
): { tr: HTMLTableRowElement; coarse: boolean } {
  const s = r.stats;
  const median = numCell(
    formatMs(s.median),
    `${describeMedian(r)}\n${describeMean(s)}\n${samplesTitle}`,
    s.median,
  );
  const { notes, coarse } = okNotes(r, median, ctx);
  const perOp = r.operations > 0 ? s.median / r.operations : null;
  const rate = r.operations > 0 ? opsPerSecond(s.median, r.operations) : undefined;
  const tr = h(
    'tr',
    { className: 'row-ok', attrs: { 'data-status': 'ok', 'data-adapter': r.adapter } },
    ...lead,
    median,
    h('td', { className: 'num factor' }, '—'),
    numCell(formatMedianInterval(r) ?? '—', `${describeMedian(r)}\n${describeMean(s)}`),
    numCell(formatMeasuredDuration(perOp), undefined, perOp ?? undefined),
    numCell(rate !== undefined ? formatRate(rate) : '—', undefined, rate),
    status,
    reasonCell(notes.join('; ')),
  );
  return { tr, coarse };
}

/**
 * What an ok row's reason cell says: its driven finding, a median too close to the timer step
 * (which also marks the median cell), its precision, outliers, freezes and storage.
 */
function okNotes(
  r: OkRow,
  median: HTMLElement,
  { timerStepMs, adaptive }: RowContext,
): { notes: string[]; coarse: boolean } {
  const notes: string[] = [];
  const found = drivenFinding(r);
  if (found !== null) notes.push(found);
  const coarse = isTimedSection(r) && underTimerResolution(timedSectionMs(r), timerStepMs);
  if (coarse) {
    const steps = Math.round(timedSectionMs(r) / timerStepMs);
    median.classList.add('coarse');
    median.title = `only ${steps} timer steps of ${timerStepMs} ms: mostly timer noise. ${median.title}`;
    notes.push(
      `⚠ median is ${steps} timer step${steps === 1 ? '' : 's'} (under ${MIN_TIMER_STEPS}): mostly timer noise; use bigger sizes`,
    );
  }
  notes.push(...precisionNotes(r, adaptive));
  const outliers = r.outliers?.indexes.length ?? 0;
  if (outliers > 0)
    notes.push(
      `${outliers} outlier${outliers === 1 ? '' : 's'} flagged (beyond median ± ${r.outliers?.k}·MAD), kept in the statistics`,
    );
  // Older files have the frame gap per sample, in metrics, not in blocking.
  const gap = r.blocking?.maxFrameGapMs ?? maxOf(r.metrics?.maxFrameGapMs);
  if (gap !== undefined && gap > FREEZE_MS) notes.push(`page froze up to ${formatMs(gap)} ms`);
  const stored = r.footprint?.storageBytes;
  if (stored !== undefined) notes.push(`≈ ${formatBytes(stored)} stored (estimate)`);
  return { notes, coarse };
}

/** A numeric cell; data-value holds the number a sort compares (the text may carry units or a ×). */
function numCell(text: string, title?: string, value?: number): HTMLTableCellElement {
  return h(
    'td',
    {
      className: 'num',
      ...(title ? { title } : {}),
      attrs: value === undefined || !Number.isFinite(value) ? {} : { 'data-value': String(value) },
    },
    text,
  );
}

/** A row that did not finish ok: dashes for its statistics, and its reason. */
function notOkRow(
  r: Exclude<CaseResult, OkRow>,
  lead: readonly HTMLElement[],
  status: HTMLElement,
): HTMLTableRowElement {
  // A timeout may have taken samples: how they ran is part of why it timed out.
  const sampling = samplingNotes(r);
  return h(
    'tr',
    {
      className: `row-${r.status}`,
      attrs: { 'data-status': r.status, 'data-adapter': r.adapter },
    },
    ...lead,
    ...Array.from({ length: 5 }, () => numCell('—')),
    status,
    reasonCell(
      sampling.length > 0 && r.samples.length > 0
        ? `${r.reason} (${sampling.join('; ')})`
        : r.reason,
    ),
  );
}

/**
 * A text folded to one line, unfolded by a click, Enter or Space; its title holds the whole text
 * for a hover.
 */
export function lineFold(text: string): HTMLElement {
  const fold = h('span', {
    className: 'line-fold',
    attrs: { role: 'button', tabindex: '0', 'aria-expanded': 'false', title: text },
  });
  fold.textContent = text;
  const toggle = () =>
    fold.setAttribute('aria-expanded', String(fold.getAttribute('aria-expanded') !== 'true'));
  fold.addEventListener('click', toggle);
  fold.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    toggle();
  });
  return fold;
}

/**
 * A row's reason, folded to one line so that the row is one line too: a reason runs to a paragraph
 * (how it stopped, its database, its outliers, what it stored) and made a row of four stores seven
 * lines tall.
 */
function reasonCell(text: string): HTMLTableCellElement {
  return h('td', { className: 'reason' }, lineFold(text));
}

const maxOf = (values: readonly number[] | undefined): number | undefined =>
  values && values.length > 0 ? Math.max(...values) : undefined;
