/**
 * Planned looks in a run (sequential.ts): after each pass the plan looks at, the rows whose
 * comparisons are all decided stop, `settled`, and the time they would have taken goes to the
 * rows still open. A comparison is A against B in an --ab run (ab.pairAtLook); otherwise each
 * finding the row is a side of (default-findings.ts: the pairs of cases, and each store against
 * raw IndexedDB), settled once its verdict is decided and its interval is within
 * ±SETTLE_PRECISION. A row in no comparison, and a finding whose other row is missing, never
 * settle a row: such a row samples on. The fastest store of a case against the next
 * is chosen from the medians at hand, so it holds no row open: it is read at the end.
 */
import { pairAtLook } from '../../verdicts/ab.ts';
import { checkDefaultFindingsIn } from '../../verdicts/default-findings.ts';
import {
  DECIDED_VERDICTS,
  type BrowserRows,
  type RowRef,
  type FindingVerdict,
} from '../../verdicts/findings.ts';
import type { CaseIdentity } from '../../base/identity.ts';
import { carryKey } from '../launch.ts';
import { plannedLooksOf, type Plan } from '../../plan/plan.ts';
import type { CaseResult } from '../../results/results.ts';
import { isSampling, stopRow, type Row } from '../row.ts';
import { passesReached, passLogRatios, type ReachedSide } from '../../stats/paired.ts';
import { summarize } from '../../stats/stats.ts';

/**
 * A decided finding settles its rows once its ratio is known to ±10%: the factor a reader quotes
 * ("5× faster") is then right to a tenth. Until then its rows sample on, so a finding that
 * settles early does not leave the run with a factor that is only right to a quarter.
 */
const SETTLE_PRECISION = 0.1;

/** A row as a look sees it: where it is and what it sampled. */
export interface LookRow {
  id: CaseIdentity;
  row: Row;
}

/** Whether `passesDone` is one of the plan's planned looks (and not its last pass, where every row ends anyway). */
export function isLook(plan: Plan, passesDone: number, passes: number): boolean {
  const looks = plannedLooksOf(plan.auto);
  return looks !== null && passesDone < passes && looks.includes(passesDone);
}

/**
 * Settle the rows whose comparisons are all decided at this look; returns how many are still
 * sampling or may sample again in a later pass (0: nothing is left to sample).
 */
export function settleAtLook(plan: Plan, rows: readonly LookRow[]): number {
  const settled = plan.ab ? settledPairs(plan, rows) : settledByFindings(plan, rows);
  for (const { id, row } of rows)
    if (settled.has(carryKey(id)) && row.state.kind !== 'failed') stopRow(row, 'settled');
  return rows.filter(({ row }) => mayStillSample(row)).length;
}

/** A row sampling now, or stopped for a reason a later pass takes back. */
function mayStillSample(row: Row): boolean {
  return (
    isSampling(row) ||
    (row.state.kind === 'stopped' && !['iterations', 'time-cap', 'settled'].includes(row.state.why))
  );
}

/** --ab: the pairs whose B/A is settled at this look (ab.pairAtLook), both sides' keys. */
function settledPairs(plan: Plan, rows: readonly LookRow[]): Set<string> {
  const looks = plannedLooksOf(plan.auto);
  const pairs = rows.filter(({ row }) => row.pair?.side === 'A');
  const out = new Set<string>();
  for (const a of pairs) {
    const b = rows.find((r) => r.row === a.row.pair?.other);
    if (!b || a.row.state.kind === 'failed') continue;
    const logs = passLogRatios(a.row, b.row);
    const reached = passesReached(reachedSide(a.row), reachedSide(b.row));
    if (pairAtLook(logs, looks, plan.ab?.thresholdPct ?? 5, reached).settled) {
      out.add(carryKey(a.id));
      out.add(carryKey(b.id));
    }
  }
  return out;
}

function reachedSide(row: Row): ReachedSide {
  return {
    samplesPerPass: row.samplesPerPass,
    ...(row.state.kind === 'stopped' ? { stopped: row.state.why } : {}),
  };
}

/** The rows every one of whose findings is settled at this look (settles). */
function settledByFindings(plan: Plan, rows: readonly LookRow[]): Set<string> {
  const browser: BrowserRows = { browser: 'this run', rows: rows.map(asResult), plans: [plan] };
  const open = new Set<string>();
  const decided = new Set<string>();
  for (const { finding, cells } of checkDefaultFindingsIn([browser])) {
    if (finding.topic === 'fastest') continue;
    for (const cell of cells) {
      if (cell.verdict === 'missing' || cell.verdict === 'not measurable' || !cell.size) continue;
      const keys = [finding.slower, finding.faster].map((ref) =>
        keyOf(ref, cell.adapter, cell.size as number),
      );
      const into = settles(cell.verdict, cell.ratio) ? decided : open;
      for (const key of keys) into.add(key);
    }
  }
  return new Set([...decided].filter((key) => !open.has(key)));
}

/** Whether a finding's cell lets its rows stop: decided, and known to ±SETTLE_PRECISION. */
function settles(verdict: FindingVerdict, ratio: { lo: number; hi: number } | null): boolean {
  if (!DECIDED_VERDICTS.includes(verdict) || !ratio) return false;
  return Math.sqrt(ratio.hi / ratio.lo) - 1 <= SETTLE_PRECISION;
}

function keyOf(ref: RowRef, store: string, size: number): string {
  return carryKey({ suite: ref.suite, case: ref.case, size, adapter: ref.adapter ?? store });
}

/** The row as a results row would read now: ok with its statistics, or its failure. */
function asResult({ id, row }: LookRow): CaseResult {
  const common = { ...id, samples: row.samples, warmup: row.warmup };
  if (row.state.kind === 'failed')
    return { ...common, status: row.state.status, reason: row.state.reason };
  if (row.samples.length === 0) return { ...common, status: 'error', reason: 'no samples yet' };
  return {
    ...common,
    samplesPerPass: row.samplesPerPass,
    status: 'ok',
    reason: null,
    stats: summarize(row.samples, row.samplesPerPass),
  };
}
