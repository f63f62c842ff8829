/**
 * A group's rows: opened in the launch's first pass (stores that cannot run the case are
 * finished at once as `unsupported`), and finished after the run's last pass, after Cancel, or
 * when a later launch ends before it opened them.
 */
import type { StoreAdapter } from '../store/adapter.ts';
import { matchBaseline, type Baseline } from '../verdicts/baseline.ts';
import { CAPABILITIES, missingCapabilities } from '../store/capabilities.ts';
import { drivenReason } from './driver-cases.ts';
import type { CaseIdentity } from '../base/identity.ts';
import { carryKey } from './launch.ts';
import type { PlannedGroup } from './plan-groups.ts';
import {
  carriedResult,
  cutShort,
  newRow,
  refreshInterval,
  restoreRow,
  rowResult,
  type Row,
} from './row.ts';
import type { Group, LaunchPasses, RunContext, RunRows, Support } from './records.ts';
import { pairUp } from './sampling/pairing.ts';
import { rowWeight } from './sampling/passes.ts';
import { resolveSuiteParams, type BenchCase } from '../store/suite.ts';
import { now } from '../base/timer.ts';
import { createRng, deriveSeed } from '../../../fixtures/random.ts';

/** The group's rows, in the launch's first pass (stores that failed to load finish as `error`); undefined when no store can run it. */
export function openGroup(
  ctx: RunContext,
  launch: LaunchPasses,
  rows: RunRows,
  planned: PlannedGroup,
): Group | undefined {
  const { suite, c, size } = planned;
  const identity = (adapter: StoreAdapter): CaseIdentity => ({
    suite: suite.id,
    case: c.id,
    title: c.title,
    adapter: adapter.id,
    size,
    // Only what the case itself uses: rows of runs with other suite-wide values still match.
    params: { ...c.params },
    operations: c.operations(size),
  });
  const open: Row[] = [];
  for (const adapter of ctx.input.adapters) {
    const support = ctx.support.get(adapter.id) ?? 'not checked';
    const failed = loadFailure(support);
    const reason = failed ?? unsupportedReason(support as true | string, c, adapter);
    if (reason === null) open.push(rowFor(ctx, launch, adapter, c, identity(adapter)));
    else
      rows.finish({
        ...identity(adapter),
        status: failed === null ? 'unsupported' : 'error',
        reason,
        samples: [],
        warmup: [],
      });
  }
  if (ctx.plan.ab) pairRows(ctx, rows, open, identity);
  if (open.length === 0) return undefined;
  const earlier = rows.order.find(
    (o) => o.suite === suite.id && o.case === c.id && o.size === size,
  );
  const rounds: string[][] = earlier?.rounds ?? [];
  if (!earlier) rows.order.push({ suite: suite.id, case: c.id, size, rounds });
  // A later launch deals its own orders: the same seed would repeat the first launch's.
  const from = launch.first > 1 ? `/from-pass-${launch.first}` : '';
  const rng = createRng(deriveSeed(ctx.plan.seed, `order/${suite.id}/${c.id}/${size}${from}`));
  const group: Group = {
    target: { c, size, params: resolveSuiteParams(suite, ctx.plan.params) },
    suiteId: suite.id,
    rows: open,
    rounds,
    rng,
    identity,
    startedAt: now(),
    endsAt: Infinity,
    weight: open.length * rowWeight(ctx.plan),
    finished: false,
    aFirst: rng.next() < 0.5,
  };
  rows.open.set(planned, group);
  return group;
}

/**
 * With --ab the group's two rows sample as a pair (sampling/pairing.ts). A row whose other side cannot run
 * the case has nothing to be compared with: it ends unsupported, saying so, instead of sampling alone.
 */
function pairRows(
  ctx: RunContext,
  rows: RunRows,
  open: Row[],
  identity: (adapter: StoreAdapter) => CaseIdentity,
): void {
  if (open.length === 2) return pairUp(open);
  for (const row of open.splice(0)) {
    const other = ctx.input.adapters.find((a) => a !== row.adapter);
    const otherId = other?.id ?? 'the other store';
    // As when a side fails mid-run (row.failRow): a side that failed to load fails its partner too.
    const failed = loadFailure(other && ctx.support.get(other.id));
    rows.finish({
      ...identity(row.adapter),
      status: failed === null ? 'unsupported' : 'error',
      reason:
        failed === null
          ? `--ab: ${otherId} cannot run this case, so ${row.adapter.id} has nothing to be compared with`
          : `not compared: the other side of the pair, ${otherId}, ${failed}`,
      samples: row.samples,
      warmup: row.warmup,
    });
  }
}

/** The reason of a row whose store failed to load, or null when it loaded. */
function loadFailure(support: Support | undefined): string | null {
  return typeof support === 'object'
    ? `failed to load (supported() threw): ${support.failed}`
    : null;
}

/** A new row, or the one an earlier launch carried; set to sample against its baseline counterpart where there is one. */
function rowFor(
  ctx: RunContext,
  launch: LaunchPasses,
  adapter: StoreAdapter,
  c: BenchCase,
  id: CaseIdentity,
): Row {
  const carried = launch.carried.get(carryKey(id));
  const row = withBaseline(
    carried ? restoreRow(adapter, c, carried) : newRow(adapter, c),
    ctx.input.baseline,
    id,
  );
  if (carried) refreshInterval(row);
  return row;
}

/** The row, set to sample against its baseline counterpart when the run has a baseline and the case is in it. */
function withBaseline(row: Row, baseline: Baseline | undefined, id: CaseIdentity): Row {
  const match = baseline ? matchBaseline(baseline.rows, id) : undefined;
  if (baseline && match) row.baseline = { row: match, thresholdPct: baseline.thresholdPct };
  return row;
}

function unsupportedReason(
  support: true | string,
  c: BenchCase,
  adapter: StoreAdapter,
): string | null {
  if (support !== true) return support;
  const missing = missingCapabilities(c.needs, adapter.capabilities);
  if (missing.length === 0) {
    const own = c.supports?.(adapter) ?? true;
    if (own !== true) return own;
    return c.driven === undefined ? null : drivenReason(c.driven);
  }
  const why = missing.map((m) => adapter.lacks?.[m]).filter(Boolean);
  return `needs ${missing.map((m) => `${m} (${CAPABILITIES[m]})`).join(', ')}, which ${adapter.id} does not declare${why.length > 0 ? `: ${why.join('; ')}` : ''}`;
}

/** Emit the group's rows (all of them, or those given). */
export function finishGroup(rows: RunRows, group: Group, which: readonly Row[] = group.rows): void {
  group.finished = true;
  for (const row of which)
    rows.finish(rowResult(group.identity(row.adapter), row, group.target.c.series));
}

/** After Cancel: each row ends as row.cutShort says, and one with too few samples to keep is left out. */
export function cancelGroup(rows: RunRows, group: Group): void {
  const kept = group.rows.filter((row) => {
    const state = cutShort(row);
    if (state) row.state = state;
    return state !== null;
  });
  finishGroup(rows, group, kept);
}

/** After Cancel in a later launch: the carried rows of groups it had not opened yet end as carriedResult says. */
export function endCarriedRows(rows: RunRows, launch: LaunchPasses): void {
  const ended = new Set(rows.cases.map(carryKey));
  for (const [key, carried] of launch.carried) {
    const result = ended.has(key) ? null : carriedResult(carried);
    if (result) rows.finish(result);
  }
}
