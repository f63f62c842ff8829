/**
 * The verdict of a comparison as a build sees it, by the gate's one rule (change.ts): an exit code
 * and one line that always says how many rows were compared, why the others were not, and what
 * the comparison could have caught. Shared by `npm run compare`, the sweep's --baseline summary
 * and the page's compare view, so all three say the same.
 */
import type { ChangeVerdict } from '../schema/vocabulary.ts';
import {
  FAMILY_ALPHA,
  MAX_UNDETECTED_SHARE,
  powerOf,
  powerText,
  RUN_EXIT,
  type Power,
  type PowerWords,
  type RunOutcome,
} from './change.ts';
import type { Comparison } from './compare.ts';
import { shiftText, signedPct } from './compare-text.ts';

/** What an undecided row between two runs needs: the one sentence every caller of the gate ends on. */
const BETWEEN_RUNS_NOTE =
  'Between two runs a row must move further than identical code moves between runs here; to decide the undecided rows, sample both sides in one run: npm run sweep -- --ab A,B.';
/** Said with a failure: two runs of identical code at 1,000 documents moved single rows by +49% to +84% (docs/gate.md, "Between runs"). */
const BETWEEN_RUNS_CONFIRM =
  'Two runs of identical code have moved single rows here by up to +84%, far past the scatter the gate allows for (docs/gate.md, "Between runs"): before acting on a row, confirm it with both sides in one run, npm run sweep -- --ab A,B.';

/** Exit codes of the gate, one per outcome (change.ts). 2 (bad input) is the callers' own. */
export const GATE_EXIT = RUN_EXIT;

/** How strict a build is: how much must be compared, and what it must have been able to catch. */
export interface GatePolicy {
  /** The fewest rows, of those ok in both files, that must be compared: a share (0 to 1) or a count. */
  minCompared: { share: number } | { count: number };
  /** Any undecided row or shift (neither slower nor within the threshold) leaves the gate undecided, exit 3. */
  failOnUndecided: boolean;
  /** --detect: the slowdown, in %, two thirds of the rows must have been able to catch; null: none asked. */
  detectPct: number | null;
}

/** At least 90% of the rows ok in both files: a few rows may lack an interval (a time-capped row of 2 samples), most may not. */
export const DEFAULT_GATE: GatePolicy = {
  minCompared: { share: 0.9 },
  failOnUndecided: false,
  detectPct: null,
};

/** `90%` (a share of the rows ok in both files) or `40` (a count of rows). */
export function parseMinCompared(text: string): GatePolicy['minCompared'] {
  const share = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text);
  if (share) {
    const pct = Number(share[1]);
    if (pct <= 100) return { share: pct / 100 };
  } else if (/^\s*\d+\s*$/.test(text)) return { count: Number(text) };
  throw new RangeError(
    `min-compared: "${text}" is neither a percentage from 0% to 100% (e.g. 90%) nor a whole number of rows (e.g. 40)`,
  );
}

export interface GateResult {
  outcome: RunOutcome;
  code: (typeof GATE_EXIT)[RunOutcome];
  /** One line: the outcome, what it could have caught, then the tally. */
  line: string;
}

const result = (outcome: RunOutcome, line: string): GateResult => ({
  outcome,
  code: GATE_EXIT[outcome],
  line,
});

/** A comparison's words for its power line (change.powerText): changes in %. */
const COMPARISON_POWER: PowerWords = {
  noun: 'comparison',
  slowdown: (ratio) => signedPct((ratio - 1) * 100),
  goal: (pct) => `+${pct}%`,
};

/** The compared rows' power (change.powerOf), each row's detectable change as the B/A it stands for. */
function comparisonPower(c: Comparison, detectPct: number | null): Power {
  const judged = c.rows.flatMap((r) =>
    r.change ? [{ verdict: r.verdict, detectable: 1 + r.change.detectablePct / 100 }] : [],
  );
  return powerOf(judged, detectPct, c.thresholdPct);
}

export function gate(c: Comparison, policy: GatePolicy = DEFAULT_GATE): GateResult {
  const { okInBoth, compared, why } = c.coverage;
  const k = c.counts;
  const need =
    'share' in policy.minCompared
      ? Math.ceil(policy.minCompared.share * okInBoth)
      : policy.minCompared.count;
  const reasons = Object.entries(why).map(([reason, n]) => `${n} ${reason}`);
  const coverage = `compared ${compared} of ${okInBoth} rows ok in both${reasons.length > 0 ? ` (not compared: ${reasons.join(', ')})` : ''}`;
  const others = [
    k['status changed'] > 0 ? `${k['status changed']} changed status` : '',
    k['only in base'] > 0 ? `${k['only in base']} only in base` : '',
    k['only in new'] > 0 ? `${k['only in new']} only in new` : '',
  ].filter(Boolean);
  const tally = `${coverage}: ${k.slower} slower beyond ${c.thresholdPct}%, ${k.faster} faster, ${k.same} same, ${k.undecided} undecided${k.broke > 0 ? `, ${k.broke} broke` : ''}${others.length > 0 ? `; ${others.join(', ')}` : ''}.`;
  const power = comparisonPower(c, policy.detectPct);
  const powerLine = powerText(power, COMPARISON_POWER);
  if (c.failed) {
    const worst = c.rows
      .filter((r) => r.verdict === 'slower' || r.verdict === 'broke')
      .map(
        (r) =>
          `${r.browser} ${r.suite}/${r.case} ${r.adapter} ${r.size}${r.change ? ` ${signedPct(r.change.pct)}` : ' broke'}`,
      );
    return result(
      'fail',
      `FAIL: ${worst.length} row${worst.length === 1 ? '' : 's'} slower beyond ${c.thresholdPct}% or broken (${worst.slice(0, 5).join('; ')}${worst.length > 5 ? '; …' : ''}), a slower one shown so with the chance of any false alarm over all rows held at ${FAMILY_ALPHA * 100}% (Holm); ${tally} ${BETWEEN_RUNS_CONFIRM}`,
    );
  }
  if (compared === 0 || compared < need) {
    const wanted =
      'share' in policy.minCompared
        ? `${Math.round(policy.minCompared.share * 100)}% (${need})`
        : String(need);
    return result(
      'undecided',
      `UNDECIDED: too few rows compared, ${compared} where --min-compared asks for ${compared === 0 && need === 0 ? 'at least 1' : wanted}; ${tally}`,
    );
  }
  const shifted = shifts(c, ['slower']);
  if (shifted)
    return result(
      'undecided',
      `UNDECIDED: every row moved together, ${shifted}, slower beyond ${c.thresholdPct}%: a slower machine or a change every store shares, which one run per side cannot tell apart (rows are judged net of it); ${tally}`,
    );
  // Compared rows that do not answer --detect (change.meetsDetect); none is slower by here.
  const missed = power.within === undefined ? 0 : power.rows - power.within;
  if (missed > MAX_UNDETECTED_SHARE * compared)
    return result(
      'undecided',
      `UNDECIDED: ${missed} of ${compared} rows could not have caught +${policy.detectPct}% and were not shown same (--detect), more than ${Math.round(MAX_UNDETECTED_SHARE * 100)}%: a slowdown that size could hide among them; ${powerLine}; ${tally} ${BETWEEN_RUNS_NOTE}`,
    );
  const unsure = policy.failOnUndecided && shifts(c, ['undecided']);
  if (unsure)
    return result(
      'undecided',
      `UNDECIDED: the shift every row shares, ${unsure}, is neither slower beyond ${c.thresholdPct}% nor within it (--fail-on-undecided); ${tally}`,
    );
  if (policy.failOnUndecided && k.undecided > 0)
    return result(
      'undecided',
      `UNDECIDED: ${k.undecided} row${k.undecided === 1 ? '' : 's'} neither slower beyond ${c.thresholdPct}% nor within it (--fail-on-undecided); ${tally}`,
    );
  return result(
    'pass',
    `PASS: no row slower beyond ${c.thresholdPct}%; ${powerLine}; ${tally}${k.undecided > 0 ? ` ${BETWEEN_RUNS_NOTE}` : ''}`,
  );
}

/** The browsers whose shift (RunToRun.shift) has one of `verdicts`, as "chromium +16.2% [+14.0%, +18.5%]", or '' for none. */
function shifts(c: Comparison, verdicts: readonly ChangeVerdict[]): string {
  return c.runToRun
    .filter((r) => r.shift && verdicts.includes(r.shift.verdict))
    .map(shiftText)
    .join(', ');
}
