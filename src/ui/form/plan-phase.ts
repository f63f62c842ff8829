/**
 * The page's first phase: the plan. The URL's plan goes into the form, the form's plan into the
 * URL (the address bar always holds a link that reproduces the plan on screen), the status line
 * beside Run says what the plan amounts to, and Run is enabled only for a plan that can run.
 */
import { errorMessage } from '../../core/base/errors.ts';
import { formatDuration } from '../../core/base/format.ts';
import { Budget } from '../../core/plan/budget.ts';
import { passesOf, type Plan } from '../../core/plan/plan.ts';
import { planToQuery } from '../../core/plan/url.ts';
import { planGroups } from '../../core/run/runner.ts';
import { ADAPTERS } from '../../adapters/registry.ts';
import { SUITES } from '../../../suites/index.ts';
import { byId, h } from '../dom.ts';
import { withPlanQuery } from '../explorer/explorer-url.ts';
import type { Page } from '../page.ts';
import type { PlanReading } from './controls.ts';

/** The URL's plan in the form and the status line. */
export function showUrlPlan(page: Page): void {
  page.views.controls.setPlan(page.query.plan);
  showPlan(page, page.query.plan);
}

/** A change of the form: its plan on screen, and in the URL when it is a plan. */
export function onPlanChange(page: Page, reading: PlanReading): void {
  showPlan(page, reading.ok ? reading.plan : null);
  if (reading.ok) keepInUrl(reading.plan);
}

/** The form's plan when Run is pressed, in the URL; null when it cannot run. */
export function planToRun(page: Page): Plan | null {
  const reading = page.views.controls.read();
  if (!reading.ok || !describePlan(reading.plan).ok) return null;
  keepInUrl(reading.plan);
  return reading.plan;
}

function keepInUrl(plan: Plan): void {
  history.replaceState(
    null,
    '',
    `${location.pathname}${withPlanQuery(location.search, planToQuery(plan))}`,
  );
}

function showPlan(page: Page, plan: Plan | null): void {
  const { planStatus, runButton } = page.views;
  const described = plan ? describePlan(plan) : { ok: false, text: '' };
  planStatus.textContent = described.text;
  planStatus.classList.toggle('plan-status-bad', plan !== null && !described.ok);
  page.runnable = described.ok ? plan : null;
  runButton.disabled = page.running !== null || page.runnable === null;
}

/** What the plan amounts to, or why a suite rejects its parameters (which would fail the run). */
function describePlan(plan: Plan): { ok: boolean; text: string } {
  try {
    const rows =
      planGroups(
        plan,
        SUITES.filter((s) => plan.suites.includes(s.id)),
      ).length * plan.adapters.length;
    const a = plan.auto;
    const passes = passesOf(a) > 1 ? ` spent in ${passesOf(a)} passes` : '';
    const browserMs = new Budget(plan).browserMs;
    const budget =
      browserMs !== undefined ? `, within a ${formatDuration(browserMs)} budget${passes}` : '';
    const samples = a
      ? `adaptive: until the median's 95% interval is within ±${Number((a.targetRelCi * 100).toPrecision(6))}% of it, ${a.minN} to ${a.maxN} samples or ${a.maxMs} ms a row${budget}`
      : `${plan.iterations} timed`;
    const where = plan.worker ? ' · in a Worker' : '';
    return {
      ok: true,
      text: `${rows} row${rows === 1 ? '' : 's'} · ${samples} + ${plan.warmup} warm-up sample${plan.warmup === 1 ? '' : 's'} each${where}`,
    };
  } catch (e) {
    return { ok: false, text: errorMessage(e) };
  }
}

/** Each store's answer to supported(), into the form's note beside it, as it comes. */
export function checkSupport(page: Page): void {
  for (const adapter of ADAPTERS) {
    Promise.resolve()
      .then(() => adapter.supported())
      .then(
        (support) => page.views.controls.setSupport(adapter.id, support),
        (e: unknown) => page.views.controls.setSupport(adapter.id, { failed: errorMessage(e) }),
      );
  }
}

/**
 * After a run started from the URL, the form folds under one line: its plan is the URL's and the
 * status line beside Run says it, while the form's lists (every suite, every store) would put the
 * results a screen further down. Opened, it is the same form, ready to change and run again.
 */
export function foldPlanForm(): void {
  const controls = byId('controls');
  const fold = h(
    'details',
    { className: 'plan-fold', attrs: { 'data-testid': 'plan-fold' } },
    h('summary', {}, "The plan's form: this run's plan came from the page's URL"),
  );
  controls.replaceWith(fold);
  fold.append(controls);
}
