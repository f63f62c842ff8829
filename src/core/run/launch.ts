/**
 * Passes in browser launches of their own (the sweep's `--launches`). A launch has effects that
 * last as long as it does (which code the JIT settled on, where the heap and the store's files
 * landed), so a row can agree with itself in every pass of one launch and read a quarter slower
 * in the next (docs/precision.md, "Passes in launches of their own", has sweeps that show it).
 * Passes inside one launch cannot see that. Spread over launches, a row carries its samples from
 * one launch to the next, its passes differ as much as its launches do, and its interval
 * (stats.passSpread) counts that: the level of repetition Kalibera and Jones ask for in
 * "Rigorous Benchmarking in Reasonable Time" (ISMM 2013).
 *
 * The sweep runs one launch per pass by default, as long as each gets MIN_LAUNCH_MS of the budget
 * (plan/budget.ts, defaultLaunches): pairs of default sweeps then differ beyond their intervals on
 * fewer rows (docs/precision.md, "What it changed").
 *
 * Pure data and its checks: the runner takes a launch's passes and rows (runner.ts), the page
 * fetches them from the sweep, and the sweep hands on what each launch returns (src/cli/commands/sweep/launches.ts).
 */
import type { DbMode } from '../base/identity.ts';
import { DB_MODES, type RunInfo } from '../results/results.ts';
import type { CarriedRow } from './row.ts';

export const CARRY_SCHEMA = 'storebench/carry@1';

/** The rows of a run after some of its passes, for the launch that takes the next ones. */
export interface Carry {
  schema: typeof CARRY_SCHEMA;
  runId: string;
  /** Passes the rows have been through. */
  passesDone: number;
  rows: CarriedRow[];
  order: RunInfo['order'];
}

/**
 * What one launch runs: passes `first` to `last` of the plan, within `budgetMs`, from the carried
 * rows. `budgetLeftMs` is what is left of the whole run's budget (`budgetMs` in the last launch):
 * a row's minimum samples are bounded by it, as they are by the whole budget in one launch, so
 * the last case of a launch is not left without samples when the cases before it ran over. Both
 * are the sweep's Budget.launchShare (plan/budget.ts), which the page's runner hands to its own
 * Budget (Budget.inLaunch).
 */
export interface LaunchOrder {
  /** Which launch of the browser this is, from 1: its 'pass' and 'done' messages say so, and only its own count. */
  launch: number;
  first: number;
  last: number;
  budgetMs: number;
  budgetLeftMs: number;
  carry: Carry | null;
}

export class LaunchError extends Error {
  override readonly name = 'LaunchError';
}

/** The key of a row across launches. */
export function carryKey(row: {
  suite: string;
  case: string;
  size: number;
  adapter: string;
}): string {
  return JSON.stringify([row.suite, row.case, row.size, row.adapter]);
}

/** The passes of each launch, 1-based and inclusive: `passes` split as evenly as it goes, earlier launches taking the extra ones. */
export function launchPasses(passes: number, launches: number): { first: number; last: number }[] {
  const n = Math.max(1, Math.min(launches, passes));
  const out: { first: number; last: number }[] = [];
  let first = 1;
  for (let i = 0; i < n; i++) {
    const count = Math.floor(passes / n) + (i < passes % n ? 1 : 0);
    out.push({ first, last: first + count - 1 });
    first += count;
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isNumbers = (v: unknown): v is number[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'number');
const STATE_KINDS = new Set(['sampling', 'stopped', 'failed']);

/** Check one carried row; the message says which field is wrong. */
function checkRow(data: unknown, where: string): CarriedRow {
  if (!isObject(data)) throw new LaunchError(`${where}: not an object`);
  for (const key of ['suite', 'case', 'adapter', 'title'] as const)
    if (typeof data[key] !== 'string') throw new LaunchError(`${where}.${key}: not a string`);
  for (const key of ['size', 'repeats'] as const)
    if (!isCount(data[key])) throw new LaunchError(`${where}.${key}: not a whole number`);
  if (typeof data.operations !== 'number' || !(data.operations > 0))
    throw new LaunchError(`${where}.operations: not a count above 0`);
  if (!isObject(data.params)) throw new LaunchError(`${where}.params: not an object`);
  if (!DB_MODES.includes(data.db as DbMode))
    throw new LaunchError(`${where}.db: not ${DB_MODES.join(' or ')}`);
  if (
    data.series !== undefined &&
    !(
      isObject(data.series) &&
      typeof data.series.x === 'string' &&
      typeof data.series.y === 'string'
    )
  )
    throw new LaunchError(`${where}.series: not the names of its x and y`);
  for (const key of ['spentMs', 'sampleWallMs'] as const)
    if (typeof data[key] !== 'number' || !(data[key] >= 0))
      throw new LaunchError(`${where}.${key}: not a time`);
  if (
    data.settledCostMs !== undefined &&
    !(typeof data.settledCostMs === 'number' && data.settledCostMs >= 0)
  )
    throw new LaunchError(`${where}.settledCostMs: not a time`);
  for (const key of ['samples', 'warmup', 'samplesPerPass'] as const)
    if (!isNumbers(data[key])) throw new LaunchError(`${where}.${key}: not a list of numbers`);
  const samples = data.samples as number[];
  if ((data.samplesPerPass as number[]).reduce((a, k) => a + k, 0) !== samples.length)
    throw new LaunchError(
      `${where}.samplesPerPass: does not add up to the ${samples.length} samples`,
    );
  if (
    !isObject(data.metrics) ||
    !Object.values(data.metrics).every((m) => isNumbers(m) && m.length === samples.length)
  )
    throw new LaunchError(`${where}.metrics: not one number per sample for each metric`);
  if (!Array.isArray(data.points) || data.points.length !== samples.length)
    throw new LaunchError(`${where}.points: not one list per sample`);
  if (!isObject(data.state) || !STATE_KINDS.has(data.state.kind as string))
    throw new LaunchError(`${where}.state: not sampling, stopped or failed`);
  return data as unknown as CarriedRow;
}

/**
 * A launch order as the page fetched it, or a carry as the sweep received it: checked against the
 * run it belongs to. Both sides of the page/CLI line call it. Throws LaunchError saying what is wrong.
 */
export function checkCarry(data: unknown, runId: string, passesDone?: number): Carry {
  if (!isObject(data) || data.schema !== CARRY_SCHEMA)
    throw new LaunchError(`the carried rows are not ${CARRY_SCHEMA}`);
  if (data.runId !== runId)
    throw new LaunchError(
      `the carried rows are of run ${String(data.runId)}, not of this run (${runId})`,
    );
  if (!isCount(data.passesDone) || data.passesDone < 1)
    throw new LaunchError(`the carried rows' passesDone is not a whole number from 1`);
  if (passesDone !== undefined && data.passesDone !== passesDone)
    throw new LaunchError(
      `the carried rows have been through ${String(data.passesDone)} passes; this launch continues after ${passesDone}`,
    );
  if (!Array.isArray(data.rows) || !Array.isArray(data.order))
    throw new LaunchError('the carried rows have no rows or order list');
  data.rows.forEach((row, i) => checkRow(row, `carry.rows[${i}]`));
  return data as unknown as Carry;
}

export function checkLaunchOrder(data: unknown, runId: string, passes: number): LaunchOrder {
  if (!isObject(data)) throw new LaunchError('the launch order is not an object');
  const { launch, first, last, budgetMs, budgetLeftMs } = data;
  if (!isCount(launch) || launch < 1)
    throw new LaunchError(
      `the launch order's launch is not a whole number from 1, got ${String(launch)}`,
    );
  if (!isCount(first) || !isCount(last) || first < 1 || last < first || last > passes)
    throw new LaunchError(
      `the launch order's passes ${String(first)} to ${String(last)} are not within the plan's 1 to ${passes}`,
    );
  if (typeof budgetMs !== 'number' || !(budgetMs >= 0))
    throw new LaunchError('the launch order has no budget');
  if (typeof budgetLeftMs !== 'number' || !(budgetLeftMs >= budgetMs))
    throw new LaunchError("the launch order's budget left of the run is missing or below its own");
  if (first === 1 && data.carry !== null) throw new LaunchError('the first launch carries no rows');
  const carry = first === 1 ? null : checkCarry(data.carry, runId, first - 1);
  return { launch, first, last, budgetMs, budgetLeftMs, carry };
}
