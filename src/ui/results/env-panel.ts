/**
 * The environment the numbers come from. Cross-origin isolation first: without it Firefox and
 * WebKit step performance.now() by 1 ms (docs/browsers.md, "Browsers on this kind of machine"), which swamps fast cases.
 */
import type { Environment } from '../../core/results/results.ts';
import { h } from '../dom.ts';
import { formatBytes, formatStep } from '../../core/base/format.ts';

/** `hint`: say how to serve the page isolated (the published site's banner says it there instead). */
export function renderEnvironment(root: HTMLElement, env: Environment, hint = true): void {
  const isolated = env.crossOriginIsolated;
  const indicator = h(
    'p',
    {
      className: `isolation ${isolated ? 'isolation-ok' : 'isolation-bad'}`,
      attrs: { 'data-testid': 'isolation' },
    },
    isolated ? 'cross-origin isolated ✓' : 'not cross-origin isolated ✗',
    h('span', { className: 'timer-step' }, ` · timer step ${formatStep(env.timerStepMs)}`),
  );
  const details = [
    `${env.browser.name} ${env.browser.version} (${env.browser.engine})`,
    env.os,
    env.cores !== null ? `${env.cores} cores` : null,
    env.deviceMemoryGb !== null ? `${env.deviceMemoryGb} GiB memory` : null,
    env.storageEstimate?.quota != null
      ? `storage quota ${formatBytes(env.storageEstimate.quota)}`
      : null,
    `harness ${env.harness.version} @ ${env.harness.commit}`,
  ].filter((x): x is string => x !== null);
  root.replaceChildren(
    indicator,
    h('p', { className: 'env-details', title: env.userAgent }, details.join(' · ')),
  );
  if (!isolated && hint) {
    root.append(
      h(
        'p',
        { className: 'env-hint' },
        `Timings are quantised to ${formatStep(env.timerStepMs)}. Serve the page with Cross-Origin-Opener-Policy: same-origin and ` +
          'Cross-Origin-Embedder-Policy: require-corp (npm start and npm run dev do) for a finer timer.',
      ),
    );
  }
}
