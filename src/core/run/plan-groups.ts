/**
 * The case groups a plan runs: each chosen suite's cases (only `plan.cases` when given) at each
 * size. A group is one case at one size, on every store that can run it.
 */
import { PlanError, type Plan } from '../plan/plan.ts';
import { clipped, quoted } from '../base/shown.ts';
import { resolveSuiteParams, type BenchCase, type Suite } from '../store/suite.ts';

export interface PlannedGroup {
  suite: Suite;
  c: BenchCase;
  size: number;
}

/**
 * Throws PlanError when `plan.cases` names a case none of the chosen suites has, or `plan.params`
 * a parameter none of them takes or a value it does not allow, so a typo fails before anything
 * runs instead of silently running the defaults. The sweep calls it before it starts a browser
 * (src/cli/build/vocabulary.ts), the page before it runs.
 */
export function planGroups(plan: Plan, suites: readonly Suite[]): PlannedGroup[] {
  checkParams(plan, suites);
  const all = suites.map((suite) => {
    try {
      return { suite, cases: suite.cases(resolveSuiteParams(suite, plan.params)) };
    } catch (e) {
      throw e instanceof RangeError ? new PlanError(`params: ${e.message}`) : e;
    }
  });
  const wanted = plan.cases;
  if (wanted) {
    const known = new Set(all.flatMap((s) => s.cases.map((c) => c.id)));
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new PlanError(
        `cases: unknown ${clipped(unknown.map((id) => quoted(id)).join(', '), 600)} in suites ${suites.map((s) => s.id).join(', ')}; allowed: ${[...known].join(', ')}`,
      );
    }
  }
  return all.flatMap(({ suite, cases }) =>
    cases
      .filter((c) => !wanted || wanted.includes(c.id))
      .flatMap((c) => plan.sizes.map((size) => ({ suite, c, size }))),
  );
}

function checkParams(plan: Plan, suites: readonly Suite[]): void {
  const declared = new Set(suites.flatMap((s) => Object.keys(s.params ?? {})));
  const unknownParams = Object.keys(plan.params).filter((name) => !declared.has(name));
  if (unknownParams.length === 0) return;
  const allowed = suites
    .filter((s) => s.params)
    .map((s) => `${s.id}: ${Object.keys(s.params ?? {}).join(', ')}`);
  throw new PlanError(
    `params: unknown ${clipped(unknownParams.map((n) => quoted(n)).join(', '), 600)} for suites ${suites.map((s) => s.id).join(', ')}; allowed: ${allowed.length > 0 ? allowed.join('; ') : 'none (these suites take no parameters)'}`,
  );
}
