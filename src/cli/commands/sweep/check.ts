/**
 * Between building the page and timing anything: the adapter contract (../check/) on the config's
 * adapters in the plan, and their builds from git refs, in each browser the sweep drives. A store
 * that breaks it is refused, exit 2, before a single sample: its timings would measure something
 * other than the store the plan names. `--no-check` times it anyway. storebench's own stores are
 * not checked here: the contract test checks each of them in CI.
 */
import { variantBase } from '../../../core/plan/variant.ts';
import { checkedBrowser } from '../../terminal/contract-lines.ts';
import { checkInBrowser } from '../../browser-runs/contract-run.ts';
import type { SweepRun } from '../../browser-runs/sweep-run.ts';

/** The plan's stores the check covers: the config's adapters, their git builds, and the store under an instrument of one. */
function storesToCheck(run: Pick<SweepRun, 'plan' | 'user' | 'git'>): string[] {
  const own = run.user.map((u) => u.id);
  const ids = new Set<string>();
  for (const id of run.plan.adapters) {
    if (own.includes(id) || run.git.some((b) => b.id === id)) ids.add(id);
    else {
      const base = variantBase(id, own);
      if (base !== undefined && !run.git.some((b) => id.startsWith(`${b.id}@`))) ids.add(base);
    }
  }
  return [...ids];
}

/** null to go on to the timing; else the exit code, the reason printed. */
export async function checkBeforeTiming(run: SweepRun): Promise<number | null> {
  const ids = storesToCheck(run);
  if (ids.length === 0) return null;
  if (!run.args.check) {
    run.out(`  --no-check: ${ids.join(', ')} timed without the adapter contract`);
    return null;
  }
  if (run.args.manual) {
    run.out(
      `  note: the adapter contract needs a browser the sweep drives; with --manual it is not run on ${ids.join(', ')} (storebench check runs it)`,
    );
    return null;
  }
  run.out(`  the adapter contract on ${ids.join(', ')}, before any timing:`);
  const failed = new Set<string>();
  let unfinished = false;
  for (const target of run.targets) {
    if (run.stop.requested) return 1;
    const end = await checkInBrowser({
      origin: run.origin,
      token: run.token,
      target,
      ids,
      signal: run.stop.closing.signal,
      onSession: (s) => (run.checkSession = s),
    });
    const seen = checkedBrowser(target.id, end);
    for (const line of seen.lines) run.out(`  ${line}`);
    seen.failed.forEach((id) => failed.add(id));
    unfinished ||= seen.unfinished;
  }
  if (failed.size > 0) {
    run.fail(
      `${[...failed].join(', ')} broke the adapter contract (above): not timed. Fix the adapter, or give --no-check to time it anyway`,
    );
    return 2;
  }
  if (unfinished) {
    run.fail('a browser could not run the adapter contract (above); nothing was timed');
    return 1;
  }
  run.out();
  return null;
}
