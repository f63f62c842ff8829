/**
 * A study's page, built once for all its parts with the variants they name (pouchdb-idb@2.0.2,
 * core/plan/variant.ts). A variant that cannot be installed or built is left out rather than stopping
 * the study: its rows are missing, and the report names why from `variant-failures.json` beside
 * the parts, in the words of npm or the bundler.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PlanVocabulary } from '../../../core/plan/plan.ts';
import { buildPage, buildProblem, REPO_ROOT } from '../../build/build-page.ts';
import { writeAtomically } from '../../files/output.ts';
import {
  describeSource,
  packageVariants,
  variantSource,
  VariantSourceError,
  writeBuiltVariants,
  type VariantSource,
} from '../../build/variant-sources.ts';
import { variantsPlugin } from '../../build/variants-plugin.ts';

const FAILURES = 'variant-failures.json';

/** Why each variant could not be built, by id: one line each. */
export type VariantFailures = Record<string, string>;

/** Build the page into `page` with the variants among `adapterIds`; the ones left out, each with why. */
export async function buildStudyPage(
  page: string,
  adapterIds: readonly string[],
  vocab: PlanVocabulary,
  note: (line: string) => void,
): Promise<VariantFailures> {
  const failures: VariantFailures = {};
  let sources: VariantSource[] = [];
  for (const v of packageVariants(adapterIds, vocab)) {
    try {
      sources.push(await variantSource(v, vocab, (line) => note(`${v.id}: ${line}`)));
      note(`${v.id}: ${describeSource(sources.at(-1) as VariantSource)}`);
    } catch (e) {
      if (!(e instanceof VariantSourceError)) throw e;
      failures[v.id] = `could not be installed: ${e.message}`;
    }
  }
  try {
    await buildPage(REPO_ROOT, page, () => [variantsPlugin(sources)]);
  } catch (e) {
    // A legacy build (CommonJS for browserify) is the one a bundler may refuse: build without them.
    const legacy = sources.filter((s) => s.legacy);
    if (legacy.length === 0) throw e;
    for (const s of legacy) failures[s.id] = `could not be built: ${buildProblem(e)}`;
    sources = sources.filter((s) => !s.legacy);
    await buildPage(REPO_ROOT, page, () => [variantsPlugin(sources)]);
  }
  writeBuiltVariants(page, sources);
  for (const [id, why] of Object.entries(failures)) note(`${id}: left out: ${why}`);
  return failures;
}

/** Keep the failures beside the parts, so a later --report-only names them too; none removes the file. */
export function writeVariantFailures(dir: string, failures: VariantFailures): void {
  const path = join(dir, FAILURES);
  if (Object.keys(failures).length === 0) rmSync(path, { force: true });
  else writeAtomically(path, `${JSON.stringify(failures, null, 2)}\n`);
}

export function readVariantFailures(dir: string): VariantFailures {
  const path = join(dir, FAILURES);
  if (!existsSync(path)) return {};
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (typeof data !== 'object' || data === null) return {};
    return Object.fromEntries(
      Object.entries(data).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  } catch {
    return {};
  }
}
