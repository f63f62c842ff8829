/**
 * The plan's catalogue of defaults: what a plan takes for each field it leaves out, the plan run
 * when none is named, and the limits every field is held to. Values only: the parser (fields.ts)
 * applies them, and the page and the sweep show them.
 */
import type { ParamValue } from '../base/identity.ts';
import type { PercentRange } from '../base/percent.ts';
import { DEFAULT_LOOKS } from '../stats/sequential.ts';
import type { AutoSampling, Plan } from './plan.ts';

/**
 * ±2% of the median: a 5% regression then stands clear of run-to-run noise. minN 6: the fewest
 * samples with a distribution-free 95% interval of the median. maxN and maxMs keep one noisy row
 * from taking the whole budget. passes 12: a machine that is slow for half a minute then slows a
 * twelfth of every row's samples instead of all of a few rows'; each pass fills its own databases,
 * and a store's speed differs between passes (by up to 6% here for IndexedDB stores), which only
 * more passes average out: that part of a row's interval shrinks as 1/√passes
 * (stats.passInterval). Twelve rather than six: default Chromium runs, taken in turn, read the
 * median row at ±4.1% against ±5.0% and ±4.5%; 24 passes spend too much of the budget on each
 * pass's fills and warm-ups. looks 4: see sequential.ts.
 */
export const DEFAULT_AUTO: Readonly<AutoSampling> = {
  targetRelCi: 0.02,
  minN: 6,
  maxN: 1000,
  maxMs: 60_000,
  passes: 12,
  looks: DEFAULT_LOOKS,
};

/**
 * Sampling time per browser by default: with the browsers' launches, fills and warm-ups on top,
 * the default plan in three engines takes about 15 minutes (docs/figures.md).
 */
export const DEFAULT_BUDGET_MS = 3.5 * 60_000;

export const PLAN_LIMITS = {
  maxSize: 10_000_000,
  maxIterations: 10_000,
  maxWarmup: 1_000,
  maxTimeoutMs: 24 * 3600 * 1000,
  minBudgetMs: 1000,
  maxBudgetMs: 24 * 3600 * 1000,
  /** Adaptive sampling targets, as a fraction of the median. */
  minTargetRelCi: 0.001,
  maxTargetRelCi: 0.5,
  /** Passes over the plan with adaptive sampling: each one refills every shared database. */
  maxPasses: 50,
  /** Planned looks: each one widens every look's interval a little (sequential.boundary). */
  maxLooks: 10,
} as const;

/**
 * The plan when none is named: the questions people choose a store by (serial against bulk
 * writes, one get at a time against a batch, skip against startkey, an index against a scan,
 * persisted against temporary views, the first query after opening against a warm one), on every
 * store, at the default size (1,000 documents: at 100 the skip/limit penalty and the temporary
 * views' cost barely show). Every other suite, case and size runs by name (--suites, --cases, --sizes).
 */
export const DEFAULT_SUITES: readonly string[] = ['insert', 'read', 'paginate', 'find', 'views'];
export const DEFAULT_CASES: readonly string[] = [
  'serial',
  'bulk', // insert
  'get-serial',
  'get-batch',
  'all', // read
  'ref-skip',
  'ref-startkey', // paginate
  'eq-indexed',
  'eq-scan',
  'eq-indexed-cold',
  'count-all', // find
  'persisted',
  'temp', // views
];

/**
 * Queries per sample of the find and views cases in the default plan: at 1,000 documents one
 * temporary view's query builds its index anew (1 to 4 s a sample of 10 on PouchDB here), and 3
 * measure the same per query for a third of the time.
 */
export const DEFAULT_PLAN_PARAMS: Readonly<Record<string, ParamValue>> = { queries: 3 };

/** The default plan's size: the PouchDB 2.2.0 and JSONStore studies start at 1,000 documents, where their findings show. */
export const DEFAULT_PLAN_SIZES: readonly number[] = [1000];

export const DEFAULT_PLAN: Readonly<Omit<Plan, 'suites' | 'adapters'>> = {
  /** A plan that names its suites or cases: small and quick, for a question of its own; --sizes for more. */
  sizes: [100],
  iterations: 5,
  warmup: 1,
  seed: 42,
  timeoutMs: 120_000,
  fixture: 'person',
  params: {},
};

/** The slowdown an A/B row is judged against when none is given: 5%, as the regression gate's. */
export const DEFAULT_AB_THRESHOLD_PCT = 5;

/**
 * The thresholds an A/B row may be judged against: above 0 and below 100% (at 100% a faster B
 * would need a ratio below 0), in hundredths of a percent, finer than any interval here resolves.
 */
export const AB_THRESHOLD_RANGE: PercentRange = { min: 0.01, max: 99.99, decimals: 2 };

/** The slowdowns `--detect` takes: above 0, and at most a tenfold (a run that cannot catch that has no interval). */
export const DETECT_RANGE: PercentRange = { min: 0.01, max: 900, decimals: 2 };
