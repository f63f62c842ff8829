/**
 * What the page says as it loads, before any run: the URL's bad plan fields and keys, that it
 * reports to the sweep's collector, and the environment it runs in, with what a static site
 * without cross-origin isolation loses.
 */
import { errorMessage } from '../../core/base/errors.ts';
import { collectEnvironment } from '../../core/run/environment.ts';
import type { Page } from '../page.ts';
import { renderEnvironment } from '../results/env-panel.ts';
import { IS_SITE, isolationLoss } from '../site.ts';

/** The URL's problems and the collector mode, as banners. */
export function showQueryBanners({ query, collector, views }: Page): void {
  if (query.planErrors.length > 0) {
    views.banners.show(
      'error',
      'Some plan parameters in the URL are not valid; their defaults are used instead.',
      query.planErrors,
      'url-plan',
    );
  }
  if (query.queryErrors.length > 0)
    views.banners.show(
      'warning',
      'Some URL parameters are not valid.',
      query.queryErrors,
      'url-query',
    );
  if (collector)
    views.banners.show(
      'info',
      'Collector mode',
      [`Results are sent to ${collector.url} as browser "${query.browser}".`],
      'collector',
    );
}

/** The environment in its panel, its timer step in the table, and a banner where isolation is lost. */
export async function showEnvironment({ views }: Page): Promise<void> {
  try {
    const env = await collectEnvironment('main');
    renderEnvironment(views.env, env, !IS_SITE);
    views.table.setTimerStep(env.timerStepMs);
    const lost = IS_SITE
      ? isolationLoss(env.crossOriginIsolated, env.timerStepMs, window.isSecureContext)
      : [];
    if (lost.length > 0)
      views.banners.show(
        'warning',
        'This page is not cross-origin isolated here.',
        lost,
        'isolation',
      );
  } catch (e) {
    views.env.textContent = `Could not read the environment: ${errorMessage(e)}`;
  }
}
