/**
 * The page's one record, which main.ts makes once and passes to each phase: what its URL asked
 * for, the sweep's collector when it has one, every view in its place on the page, and the run in
 * flight. Nothing of the page's state lives in a module of its own.
 */
import type { Plan } from '../core/plan/plan.ts';
import { ADAPTERS } from '../adapters/registry.ts';
import { SUITES } from '../../suites/index.ts';
import { FIXTURE_IDS } from '../../fixtures/index.ts';
import { MediansChart } from './charts/chart-medians.ts';
import { byId } from './dom.ts';
import { CompareView } from './explorer/compare-view.ts';
import { Explorer } from './explorer/explorer.ts';
import { Controls, type PlanReading } from './form/controls.ts';
import { CollectorClient } from './host/collector-client.ts';
import { detectHeapSupport } from './host/footprint.ts';
import { readPageQuery, type PageQuery } from './host/page-query.ts';
import { AbView } from './results/ab-view.ts';
import { Downloads } from './results/downloads.ts';
import { FindingsList } from './results/findings-list.ts';
import { ResultsTable } from './results/results-table.ts';
import { Banners } from './status/banners.ts';
import { ProgressView } from './status/progress.ts';
import { WarningsView } from './status/warnings.ts';

/** The views of the page, each mounted where index.html keeps a place for it. */
export interface PageViews {
  banners: Banners;
  controls: Controls;
  progress: ProgressView;
  warnings: WarningsView;
  table: ResultsTable;
  chart: MediansChart;
  downloads: Downloads;
  findings: FindingsList;
  compare: CompareView;
  ab: AbView;
  explorer: Explorer;
  runButton: HTMLButtonElement;
  cancelButton: HTMLButtonElement;
  planStatus: HTMLElement;
  runSummary: HTMLElement;
  env: HTMLElement;
}

export interface Page {
  query: PageQuery;
  /** The sweep's collector, in collector mode (`?collector=...&token=...`); else null. */
  collector: CollectorClient | null;
  views: PageViews;
  /** Started at load: where the heap can only be measured slowly, the trial settles before a run. */
  heapSupport: ReturnType<typeof detectHeapSupport>;
  /** The plan on screen when it can run (form/plan-phase.ts); null when it cannot. */
  runnable: Plan | null;
  /** The run in flight, which Cancel and the sweep's Ctrl-C abort; null between runs. */
  running: AbortController | null;
}

/** The page, its views made and mounted; `onPlan` hears each change of the form. */
export function makePage(onPlan: (page: Page, reading: PlanReading) => void): Page {
  const query = readPageQuery(location.search, location.href, navigator.userAgent);
  const page: Page = {
    query,
    collector: query.collector
      ? new CollectorClient(query.collector.url, query.collector.token, query.browser)
      : null,
    views: makeViews((reading) => onPlan(page, reading)),
    heapSupport: detectHeapSupport(),
    runnable: null,
    running: null,
  };
  mount(page.views);
  return page;
}

function makeViews(onChange: (reading: PlanReading) => void): PageViews {
  return {
    banners: new Banners(byId('banners')),
    controls: new Controls({ suites: SUITES, adapters: ADAPTERS, fixtures: FIXTURE_IDS, onChange }),
    progress: new ProgressView(),
    warnings: new WarningsView(),
    table: new ResultsTable(),
    chart: new MediansChart(),
    downloads: new Downloads(),
    findings: new FindingsList('What this run found'),
    compare: new CompareView(),
    ab: new AbView(),
    // The explorer's state shares the URL with the plan; each side rewrites only its own keys.
    explorer: new Explorer(byId('explorer-panel'), location.search, (search) =>
      history.replaceState(null, '', `${location.pathname}${search}`),
    ),
    runButton: byId<HTMLButtonElement>('run'),
    cancelButton: byId<HTMLButtonElement>('cancel'),
    planStatus: byId('plan-status'),
    runSummary: byId('run-summary'),
    env: byId('env'),
  };
}

function mount(v: PageViews): void {
  byId('controls').append(v.controls.element);
  byId('progress').append(v.progress.element, v.warnings.element);
  byId('downloads').append(v.downloads.element);
  // At the top of the Results, under the run's one-line summary.
  v.runSummary.after(v.findings.element);
  byId('chart').append(v.chart.element);
  byId('table').append(v.table.element);
  byId('compare').append(v.compare.element);
  v.runSummary.after(v.ab.element);
  byId('explorer').append(v.explorer.element);
}
