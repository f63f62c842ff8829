/**
 * What a plan's CPU throttling (`cpuThrottle`, the sweep's --cpu-throttle) leaves each store able
 * to run. The driver applies the rate through Chromium's DevTools protocol to the page and says so
 * in the page URL (`throttled=RATE`); a row the throttling does not reach is `unsupported` with
 * the reason, never a number taken at full speed that reads as a throttled one.
 */
import type { StoreAdapter } from './adapter.ts';
import type { Plan } from '../plan/plan.ts';

/** Why no row of this run can be throttled, or null when the page itself is. */
function throttleProblem(
  plan: Plan,
  throttledAt: number | null,
  context: 'main' | 'worker',
): string | null {
  if (!plan.cpuThrottle) return null;
  if (throttledAt !== plan.cpuThrottle) {
    return `CPU throttling (cpu-throttle ${plan.cpuThrottle}) needs Chromium's DevTools protocol (Emulation.setCPUThrottlingRate), and this browser was not driven through it`;
  }
  if (context === 'worker')
    return 'CPU throttling is applied to the page, and this plan runs in a Worker (--worker)';
  return null;
}

/** The stores as a throttled run may use them: unsupported where the throttling does not reach. */
export function throttledAdapters(
  plan: Plan,
  throttledAt: number | null,
  context: 'main' | 'worker',
  adapters: readonly StoreAdapter[],
): StoreAdapter[] {
  if (!plan.cpuThrottle) return [...adapters];
  const problem = throttleProblem(plan, throttledAt, context);
  const workers = 'CPU throttling is applied to the page, not to the Workers these cases start';
  return adapters.map((a): StoreAdapter => {
    if (problem) return { ...a, supported: () => problem };
    // sqlite-opfs, the one store on OPFS, runs its engine in a Worker of its own from the page.
    if (a.backend === 'opfs')
      return {
        ...a,
        supported: () =>
          'CPU throttling is applied to the page, and this store runs its engine in a Worker of its own',
      };
    return {
      ...a,
      capabilities: a.capabilities.filter((c) => c !== 'worker'),
      lacks: { ...a.lacks, worker: workers },
    };
  });
}
