/**
 * Phase 7 of a sweep: what it says. A line per browser as it ends (its rows, how precise its
 * medians are), then the table of medians, the files written, the verdict and its exit code, and
 * with --baseline the gate against it.
 */
import { abDecision, abRows } from '../../../core/verdicts/ab.ts';
import { runPassesText } from '../../../core/verdicts/ab-size.ts';
import { compareResults } from '../../../core/verdicts/compare.ts';
import { gate } from '../../../core/verdicts/gate.ts';
import {
  formatNoise,
  formatPassDifference,
  formatPrecisionSummary,
  precisionSummary,
} from '../../../core/verdicts/precision.ts';
import type { CaseResult } from '../../../core/results/results.ts';
import { abTable } from '../../terminal/ab-table.ts';
import { formatComparison } from '../../terminal/comparison-text.ts';
import { findingsText } from '../../terminal/findings.ts';
import { displayPath, outputFailure, writeAtomically } from '../../files/output.ts';
import { summaryMarkdown, type SummaryInput } from '../../../export/summary-markdown.ts';
import { formatClock } from '../../../core/base/format.ts';
import { resultsTable, type BrowserColumn } from '../../terminal/table.ts';
import { plannedLooksOf } from '../../../core/plan/plan.ts';
import { printableField } from '../../terminal/escape.ts';
import { MAX_WARNINGS_SHOWN } from './launches.ts';
import type { BrowserOutcome, BrowserRun, SweepRun } from '../../browser-runs/sweep-run.ts';
import { completeResults } from './write.ts';

/** The browser's line as it ends, with its precision (or what went wrong) under it. */
export function reportBrowser(run: SweepRun, b: BrowserRun, o: BrowserOutcome): void {
  const hidden = b.warnings - MAX_WARNINGS_SHOWN;
  const more = hidden > 0 ? ` (${hidden} more warning${hidden === 1 ? '' : 's'} not shown)` : '';
  run.view.finish(
    `${o.browser.padEnd(9)} ${summarizeEnd(o.end, o.cases.length, Date.now() - b.across.startedAt)}${more}`,
  );
  if (o.end.kind !== 'done') {
    for (const d of ('details' in o.end ? o.end.details : undefined) ?? [])
      run.out(`          ${d}`);
    return;
  }
  const s = precisionSummary(o.cases, run.plan.auto?.targetRelCi);
  run.out(`${''.padEnd(9)} precision: ${formatPrecisionSummary(s)}`);
  if (s.passes) run.out(`${''.padEnd(9)}            ${formatPassDifference(s.passes)}`);
  if (s.noise) run.out(`${''.padEnd(9)} noise: ${formatNoise(s.noise)}`);
}

function summarizeEnd(end: BrowserOutcome['end'], rows: number, ms: number): string {
  const took = formatClock(ms);
  switch (end.kind) {
    case 'done': {
      const count = (s: CaseResult['status']) =>
        end.results.cases.filter((c) => c.status === s).length;
      const parts = [
        `${count('ok')} ok`,
        `${count('unsupported')} unsupported`,
        `${count('error')} error`,
        `${count('timeout')} timeout`,
      ];
      return `${end.results.run.cancelled ? 'cancelled' : 'done'} in ${took}: ${end.results.cases.length} rows (${parts.join(', ')})`;
    }
    case 'not-found':
      return `not run: ${end.message}`;
    case 'checked':
      return `FAILED after ${took}: the page ran the adapter contract instead of the plan`;
    default:
      return `FAILED after ${took} (${end.kind}, ${rows} row${rows === 1 ? '' : 's'} kept): ${end.message}`;
  }
}

/** The table, the files, the verdict; the exit code. */
export function reportSweep(run: SweepRun): number {
  const { out, outcomes } = run;
  out();
  const columns: BrowserColumn[] = outcomes
    .filter((o) => o.end.kind !== 'not-found')
    .map((o) => ({
      browser: o.browser,
      cases: o.cases,
      ...(o.end.kind === 'done' ? { timerStepMs: o.end.results.environment.timerStepMs } : {}),
      looks: plannedLooksOf(run.plan.auto),
    }));
  for (const line of findingsText(completeResults(run))) out(line);
  out(resultsTable(columns, run.plan.adapters));
  out();
  out(run.output.written.length > 0 ? 'Files written:' : 'No files written.');
  for (const path of run.output.written) out(`  ${displayPath(path)}`);
  const rescued = run.output.rescued;
  if (rescued)
    out(
      `--out could not take them (${rescued.why}): they are in ${rescued.dir}, which nothing removes`,
    );
  for (const line of run.unwritten) out(`NOT WRITTEN: ${line}`);
  out();
  const why = verdict(
    outcomes,
    run.stop.signalled !== null,
    rescued !== null || run.unwritten.length > 0,
  );
  const line =
    why === null
      ? `OK: ${outcomes.length} browser${outcomes.length === 1 ? '' : 's'} completed, no row is error or timeout.`
      : `FAILED: ${why}.`;
  out(line);
  if (why !== null) return withSummary(run, 1, line);
  if (run.plan.ab) return abVerdictOf(run, run.plan.ab);
  return withSummary(run, run.args.baseline ? againstBaseline(run, run.args.baseline) : 0, line);
}

/** B against A over every browser: its table, then its verdict last (core/verdicts/ab.ts). */
function abVerdictOf(run: SweepRun, ab: NonNullable<SweepRun['plan']['ab']>): number {
  const decision = abDecision(
    completeResults(run).flatMap(abRows),
    ab.thresholdPct,
    ab.detectPct ?? null,
  );
  run.out();
  run.out(abTable(decision, ab.thresholdPct));
  run.out();
  const passes = runPassesText(decision.rows, completeResults(run));
  if (passes !== null) run.out(`Passes: ${passes}.`);
  run.out(decision.line);
  return withSummary(run, decision.code, decision.line, {
    decision,
    thresholdPct: ab.thresholdPct,
  });
}

/** --summary FILE: the run as Markdown (export/summary-markdown.ts); the exit code as it was, or 1 when the file cannot be written. */
function withSummary(
  run: SweepRun,
  code: number,
  verdict: string,
  ab?: SummaryInput['ab'],
): number {
  const path = run.args.summary;
  if (path === null) return code;
  const text = summaryMarkdown({ docs: completeResults(run), verdict, ...(ab ? { ab } : {}) });
  try {
    writeAtomically(path, text);
  } catch (e) {
    run.fail(`--summary: ${outputFailure(path, e)}`);
    return code === 0 ? 1 : code;
  }
  run.out(`Summary: ${displayPath(path)} (Markdown, ${text.length} characters)`);
  return code;
}

/** Why the sweep fails, or null when it passes. */
function verdict(
  outcomes: readonly BrowserOutcome[],
  cancelled: boolean,
  notInOut: boolean,
): string | null {
  const reasons: string[] = [];
  if (cancelled) reasons.push('cancelled');
  if (notInOut)
    reasons.push('the results could not all be written to --out (see above for where they are)');
  const missing = outcomes.filter((o) => o.end.kind === 'not-found').map((o) => o.browser);
  if (missing.length > 0) reasons.push(`${missing.join(', ')} not found`);
  const unfinished = outcomes
    .filter(
      (o) => o.end.kind !== 'not-found' && (o.end.kind !== 'done' || o.end.results.run.cancelled),
    )
    .map((o) => o.browser);
  if (unfinished.length > 0) reasons.push(`${unfinished.join(', ')} did not complete`);
  const bad = outcomes.flatMap((o) =>
    o.cases.filter((c) => c.status === 'error' || c.status === 'timeout'),
  );
  const errors = bad.filter((c) => c.status === 'error').length;
  const timeouts = bad.length - errors;
  if (errors > 0) reasons.push(`${errors} row${errors === 1 ? ' is' : 's are'} error`);
  if (timeouts > 0) reasons.push(`${timeouts} row${timeouts === 1 ? ' is' : 's are'} timeout`);
  return reasons.length > 0 ? reasons.join('; ') : null;
}

/** Against the baseline, as npm run compare would say it: its table, then its verdict last. */
function againstBaseline(run: SweepRun, baseline: { path: string; thresholdPct: number }): number {
  const complete = completeResults(run);
  const comparison = compareResults(
    run.baselineDocs.filter((d) => complete.some((c) => c.run.browser === d.run.browser)),
    complete,
    baseline.thresholdPct,
  );
  const decision = gate(comparison);
  run.out();
  run.out(`Against the baseline ${baseline.path}:`);
  run.out(formatComparison(comparison));
  run.out();
  run.out(printableField(decision.line));
  return decision.code;
}
