/**
 * The two ways of timing an overhead case in one browser, each in a page of its own browser
 * context kept open for the whole bench: the harness page, which runs the case's plan as a reader
 * clicking Run would, and the bare page. A run of either is warm-up and timed samples; it
 * returns the timed ones.
 */
import type { Browser, Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResultsFile } from '../../../core/results/results.ts';
import { REPO_ROOT } from '../../build/build-page.ts';
import type { BareScripts } from './bare-scripts.ts';
import { FIXTURE, SEED, type OverheadCase } from './cases.ts';

const RUN_TIMEOUT_MS = 600_000;

export interface RunShape {
  size: number;
  samples: number;
  warmup: number;
}

/** What one run gave: its timed samples, and how many runs of the body each spans. */
export interface RunSamples {
  samples: number[];
  repeats: number;
}

type PageState = { status: string; results?: ResultsFile; error?: string };

/**
 * The harness page, loaded once with the case's plan; each run is a click on Run. The page is not
 * polled while it runs (polling would put Playwright's own script work into the page's timed
 * samples): an init script watches the state main.ts publishes on window.__storebench, and one
 * evaluate clicks Run and waits for the run's end.
 */
export async function harnessPage(
  browser: Browser,
  origin: string,
  c: OverheadCase,
  shape: RunShape,
): Promise<{ page: Page; run: () => Promise<RunSamples> }> {
  const page = await (await browser.newContext()).newPage();
  await page.addInitScript(`(() => {
    let value;
    const waiting = [];
    Object.defineProperty(window, '__storebench', {
      configurable: true,
      get: () => value,
      set: (v) => {
        value = v;
        if (v && (v.status === 'done' || v.status === 'error')) for (const w of waiting.splice(0)) w(v);
      },
    });
    window.__benchRun = () => {
      const ended = new Promise((resolve) => waiting.push(resolve));
      document.getElementById('run').click();
      return ended;
    };
  })()`);
  const params = Object.entries(c.params ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(';');
  const query = new URLSearchParams({
    suites: c.suite,
    cases: c.case,
    adapters: c.adapter,
    sizes: String(shape.size),
    iterations: String(shape.samples),
    warmup: String(shape.warmup),
    seed: String(SEED),
    fixture: FIXTURE,
    ...(params && { params }),
  });
  await page.goto(`${origin}/?${query}`);
  await page.locator('#run:enabled').waitFor({ timeout: RUN_TIMEOUT_MS });
  const run = async (): Promise<RunSamples> => {
    const state = await page.evaluate<PageState>('window.__benchRun()');
    const row = state.results?.cases.find(
      (r) => r.suite === c.suite && r.case === c.case && r.adapter === c.adapter,
    );
    if (!row || row.status !== 'ok')
      throw new Error(
        `the harness run of ${c.id} failed: ${state.error ?? row?.reason ?? `no ${c.suite}/${c.case} row for ${c.adapter}`}`,
      );
    return { samples: row.samples, repeats: row.repeats ?? 1 };
  };
  return { page, run };
}

/**
 * The bare page's code in a page: the bare page itself, or (with `into`, for --split) the harness
 * page, which then gets the bare page's scripts added. Each run is one call, given the repeats
 * the harness's last run calibrated (a shared-database case times that many runs per sample).
 */
export async function bareWay(
  browser: Browser,
  origin: string,
  c: OverheadCase,
  shape: RunShape,
  scripts: BareScripts,
  into?: Page,
): Promise<(repeats: number) => Promise<RunSamples>> {
  let page = into;
  if (page) {
    const html = await readFile(join(REPO_ROOT, 'public/bare', c.bare), 'utf8');
    const script = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
    if (!script) throw new Error(`no inline <script> in public/bare/${c.bare}`);
    await page.addScriptTag({
      content: await readFile(join(REPO_ROOT, 'public/bare/bare-common.js'), 'utf8'),
    });
    await page.addScriptTag({ content: script });
  } else {
    page = await (await browser.newContext()).newPage();
    await page.goto(`${origin}/bare/${c.bare}`);
  }
  const at = page;
  for (const library of c.libraries) await at.addScriptTag({ content: await scripts.get(library) });
  return async (repeats) => {
    // JSON text, parsed by the page, which builds its documents itself: in Firefox over BiDi an
    // object or a function made by the driver's script could reach the store as another realm's.
    const options = JSON.stringify({
      fixture: FIXTURE,
      seed: SEED,
      size: shape.size,
      samples: shape.samples,
      warmup: shape.warmup,
      repeats,
      ...c.params,
    });
    const samples = await at.evaluate<number[]>(`window.bareRun(${JSON.stringify(options)})`);
    return { samples, repeats };
  };
}
