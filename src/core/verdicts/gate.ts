/**
 * The verdict of a comparison as a build sees it: an exit code and one line that always says how
 * many rows were compared and why the others were not. Shared by `npm run compare`, the sweep's
 * --baseline summary and the page's compare view, so all three say the same.
 */
import type { Comparison, Verdict } from './compare.ts';
import { shiftText, signedPct } from './compare-text.ts';

/** What an inconclusive row between two runs needs: the one sentence every caller of the gate ends on. */
const BETWEEN_RUNS_NOTE =
  'Between two runs a row must move further than identical code moves between runs here; to decide the inconclusive rows, sample both sides in one run: npm run sweep -- --ab A,B.';
/** Said with a failure: two runs of identical code at 1,000 documents moved single rows by +49% to +84% (docs/gate.md, "Between runs"). */
const BETWEEN_RUNS_CONFIRM =
  'Two runs of identical code have moved single rows here by up to +84%, far past the scatter the gate allows for (docs/gate.md, "Between runs"): before acting on a row, confirm it with both sides in one run, npm run sweep -- --ab A,B.';

/** Exit codes of the gate. 2 (bad input) is the callers' own. */
export const GATE_EXIT = { ok: 0, regression: 1, undecided: 3 } as const;

/** How strict a build is: how much must be compared, and whether an undecided row or shift fails it. */
export interface GatePolicy {
  /** The fewest rows, of those ok in both files, that must be compared: a share (0 to 1) or a count. */
  minCompared: { share: number } | { count: number };
  /** An inconclusive row or shift (cannot rule out a slowdown beyond the threshold) fails the gate with exit 3. */
  failOnInconclusive: boolean;
}

/** At least 90% of the rows ok in both files: a few rows may lack an interval (a time-capped row of 2 samples), most may not. */
export const DEFAULT_GATE: GatePolicy = { minCompared: { share: 0.9 }, failOnInconclusive: false };

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
  code: (typeof GATE_EXIT)[keyof typeof GATE_EXIT];
  /** One line: the outcome, then the tally. */
  line: string;
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
  const tally = `${coverage}: ${k.regression} slower beyond ${c.thresholdPct}%, ${k.inconclusive} inconclusive, ${k.slower} slower within it, ${k.faster} faster, ${k.same} same${k.broke > 0 ? `, ${k.broke} broke` : ''}${others.length > 0 ? `; ${others.join(', ')}` : ''}.`;
  if (c.failed) {
    const worst = c.rows
      .filter((r) => r.verdict === 'regression' || r.verdict === 'broke')
      .map(
        (r) =>
          `${r.browser} ${r.suite}/${r.case} ${r.adapter} ${r.size}${r.change ? ` ${signedPct(r.change.pct)}` : ' broke'}`,
      );
    return {
      code: GATE_EXIT.regression,
      line: `FAILED: ${worst.length} row${worst.length === 1 ? '' : 's'} slower beyond ${c.thresholdPct}% or broken (${worst.slice(0, 5).join('; ')}${worst.length > 5 ? '; …' : ''}); ${tally} ${BETWEEN_RUNS_CONFIRM}`,
    };
  }
  if (compared === 0 || compared < need) {
    const wanted =
      'share' in policy.minCompared
        ? `${Math.round(policy.minCompared.share * 100)}% (${need})`
        : String(need);
    return {
      code: GATE_EXIT.undecided,
      line: `UNDECIDED: too few rows compared, ${compared} where --min-compared asks for ${compared === 0 && need === 0 ? 'at least 1' : wanted}; ${tally}`,
    };
  }
  const shifted = shifts(c, ['regression']);
  if (shifted)
    return {
      code: GATE_EXIT.undecided,
      line: `UNDECIDED: every row moved together, ${shifted}, slower beyond ${c.thresholdPct}%: a slower machine or a change every store shares, which one run per side cannot tell apart (rows are judged net of it); ${tally}`,
    };
  const unsure = policy.failOnInconclusive && shifts(c, ['inconclusive']);
  if (unsure)
    return {
      code: GATE_EXIT.undecided,
      line: `UNDECIDED: the shift every row shares, ${unsure}, cannot rule out a slowdown beyond ${c.thresholdPct}% (--fail-on-inconclusive); ${tally}`,
    };
  if (policy.failOnInconclusive && k.inconclusive > 0) {
    return {
      code: GATE_EXIT.undecided,
      line: `UNDECIDED: ${k.inconclusive} row${k.inconclusive === 1 ? '' : 's'} cannot rule out a slowdown beyond ${c.thresholdPct}% (--fail-on-inconclusive); ${tally}`,
    };
  }
  return {
    code: GATE_EXIT.ok,
    line: `OK: no row slower beyond ${c.thresholdPct}%; ${tally}${k.inconclusive > 0 ? ` ${BETWEEN_RUNS_NOTE}` : ''}`,
  };
}

/** The browsers whose shift (RunToRun.shift) has one of `verdicts`, as "chromium +16.2% [+14.0%, +18.5%]", or '' for none. */
function shifts(c: Comparison, verdicts: readonly Verdict[]): string {
  return c.runToRun
    .filter((r) => r.shift && verdicts.includes(r.shift.verdict))
    .map(shiftText)
    .join(', ');
}
