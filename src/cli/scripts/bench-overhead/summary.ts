/**
 * What bench:overhead concludes from its rounds: for each case in each browser, the ratio of the
 * medians of every timed sample (harness / bare) with its 95% interval, and whether it meets the
 * target. Pure, so that the statistics are tested without a browser.
 */
import { median, quantile } from '../../../core/stats/stats.ts';
import { createRng } from '../../../../fixtures/random.ts';

/** One round of one case: the timed samples of each way, from runs next to each other in time. */
export interface Round {
  harness: readonly number[];
  bare: readonly number[];
}

export interface RatioSummary {
  ratio: number;
  lo: number;
  hi: number;
  rounds: number;
  harnessMedian: number;
  bareMedian: number;
}

/** The ratio is within this of 1 ... */
export const TARGET = 0.02;
/** ... or its interval holds 1 and lies within this of 1. */
export const INTERVAL_TARGET = 0.03;

const RESAMPLES = 2000;

const ratioOf = (rounds: readonly Round[]) =>
  median(rounds.flatMap((r) => r.harness)) / median(rounds.flatMap((r) => r.bare));

/**
 * The ratio of medians with a 95% percentile bootstrap over rounds: the round is the replicate
 * (its two runs are neighbours in time, so the load they shared stays paired when rounds are
 * drawn), and each draw recomputes the very statistic printed, the ratio of the pooled medians.
 * Seeded, so one set of rounds always gives one interval. Null with fewer than two rounds.
 */
export function summarizeRounds(rounds: readonly Round[], seed = 1): RatioSummary | null {
  if (rounds.length < 2 || rounds.some((r) => r.harness.length === 0 || r.bare.length === 0))
    return null;
  const rng = createRng(seed);
  const draws: number[] = [];
  for (let i = 0; i < RESAMPLES; i++)
    draws.push(
      ratioOf(Array.from({ length: rounds.length }, () => rounds[rng.int(rounds.length)] as Round)),
    );
  return {
    ratio: ratioOf(rounds),
    lo: quantile(draws, 0.025),
    hi: quantile(draws, 0.975),
    rounds: rounds.length,
    harnessMedian: median(rounds.flatMap((r) => r.harness)),
    bareMedian: median(rounds.flatMap((r) => r.bare)),
  };
}

export type Verdict = 'ok' | 'undecided' | 'outside';

/**
 * ok: the interval lies within ±3% of 1, and holds 1 or the ratio is within 2% of it; outside:
 * the interval lies wholly beyond 2% of 1 (the harness measurably adds or takes time); undecided:
 * neither, the interval is too wide to tell. A ratio within 2% with a ±30% interval says nothing,
 * so it is undecided, not ok.
 */
export function verdict(s: Pick<RatioSummary, 'ratio' | 'lo' | 'hi'>): Verdict {
  const narrow = s.lo >= 1 - INTERVAL_TARGET && s.hi <= 1 + INTERVAL_TARGET;
  if (narrow && (Math.abs(s.ratio - 1) <= TARGET || (s.lo <= 1 && s.hi >= 1))) return 'ok';
  if (s.lo > 1 + TARGET || s.hi < 1 - TARGET) return 'outside';
  return 'undecided';
}

export const meetsTarget = (s: Pick<RatioSummary, 'ratio' | 'lo' | 'hi'>): boolean =>
  verdict(s) === 'ok';

const RANK: Record<Verdict, number> = { ok: 0, undecided: 1000, outside: 2000 };

/** For ordering, the worst last: outside after undecided after ok, then by distance from 1 on the log scale (0.9 and 1.11 alike). */
export function badness(s: Pick<RatioSummary, 'ratio' | 'lo' | 'hi'>): number {
  return RANK[verdict(s)] + Math.abs(Math.log(s.ratio));
}
