/**
 * Phase 2 of a sweep: the variants the plan names (core/plan/variant.ts). An npm version is installed
 * into the cache once (or found there), a local folder is checked, a git ref of a config
 * adapter's repository is checked out in a temporary worktree, and each says what identifies its
 * build; instruments (`@+N%`) need nothing. A missing version, an unreachable registry, a folder
 * that is not the package (or whose entry is missing or outside it) or a ref that names no commit
 * stops the sweep here with exit 2, before any build or browser. Ctrl-C (`signal`) stops an
 * install in progress with its npm, and removes its partial folder: exit 1, as a cancelled sweep.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseVariant } from '../../core/plan/variant.ts';
import {
  GitBuildError,
  prepareGitBuild,
  removeGitBuild,
  type GitBuild,
} from '../build/user-adapters.ts';
import {
  builtVariants,
  describeSource,
  packageVariants,
  variantSource,
  VariantSourceError,
  type VariantSource,
} from '../build/variant-sources.ts';
import { clipped, quoted } from '../../core/base/shown.ts';
import type { InputsRefused, SweepInputs } from './sweep-run.ts';

type Io = { out: (line?: string) => void; fail: (line: string) => void };

export interface Builds {
  variants: VariantSource[];
  git: GitBuild[];
}

/** What the variants are built from: the plan's adapter ids, what they may name, the config's adapters, a prebuilt page. */
export interface VariantInputs {
  ids: readonly string[];
  vocab: SweepInputs['vocab'];
  user: SweepInputs['user'];
  /** --page: the variants must be in it already. */
  page: string | null;
}

export async function prepareVariants(
  inputs: VariantInputs,
  io: Io,
  signal: AbortSignal,
): Promise<Builds | InputsRefused> {
  const git = gitBuilds(inputs, io);
  if ('exit' in git) return git;
  const variants = await packageSources(inputs, io, signal);
  if ('exit' in variants) {
    for (const b of git) removeGitBuild(b);
    return variants;
  }
  return { variants, git };
}

/**
 * The plan's `ADAPTER@git:REF`, each a worktree of its adapter's repository at that commit; on a
 * refusal the ones made are removed.
 */
function gitBuilds(inputs: VariantInputs, io: Io): GitBuild[] | InputsRefused {
  const made: GitBuild[] = [];
  for (const id of new Set(inputs.ids)) {
    if (inputs.vocab.adapters.includes(id) || !id.includes('@')) continue;
    const v = parseVariant(id, inputs.vocab.adapters, inputs.vocab.wraps ?? {});
    if (v.spec.kind !== 'git') continue;
    const base = inputs.user.find((u) => u.id === v.base);
    try {
      if (!base)
        throw new GitBuildError(
          `@git: builds an adapter of your config from a commit of its repository; ${v.base} is storebench's own (for a checkout of its package at that commit, use ${v.base}@file:DIR)`,
        );
      made.push(prepareGitBuild(id, v.spec.ref, base));
    } catch (e) {
      if (!(e instanceof GitBuildError)) throw e;
      for (const b of made) removeGitBuild(b);
      return refuse(io, `${id}: ${e.message}`);
    }
    const b = made.at(-1) as GitBuild;
    io.out(`  ${id}: ${b.facts.module} at ${b.ref}, commit ${b.commit}`);
  }
  return made;
}

async function packageSources(
  inputs: VariantInputs,
  io: Io,
  signal: AbortSignal,
): Promise<VariantSource[] | InputsRefused> {
  const wanted = packageVariants(inputs.ids, inputs.vocab);
  if (wanted.length === 0) return [];
  if (inputs.page !== null) {
    const page = resolve(inputs.page);
    const missing = wanted.filter((v) => !builtVariants(page).includes(v.id));
    if (missing.length === 0) return [];
    return refuse(
      io,
      `--page: ${page} was built without ${clipped(missing.map((v) => v.id).join(', '))}; leave out --page so that the sweep builds the page with them`,
    );
  }
  const sources: VariantSource[] = [];
  for (const v of wanted) {
    const shown = clipped(v.id);
    try {
      const note = (line: string) => io.out(`  ${shown}: ${line}`);
      sources.push(await variantSource(v, inputs.vocab, note, signal));
    } catch (e) {
      if (!(e instanceof VariantSourceError)) throw e;
      if (e.stopped) return refuse(io, `${shown}: ${e.message}`, 1);
      return refuse(io, `${shown}: ${e.message}`);
    }
    io.out(`  ${shown}: ${describeSource(sources.at(-1) as VariantSource)}`);
  }
  const twice = sameFolder(sources);
  if (twice !== null) return refuse(io, twice);
  return sources;
}

/**
 * Two local variants that are one folder written two ways (`file:./x` and `file:x`): the page
 * would bundle that folder once for both, so they would be one build under two names (and, with
 * --ab, the same store compared with itself). Null when every folder is another.
 */
function sameFolder(sources: readonly VariantSource[]): string | null {
  const seen = new Map<string, string>();
  for (const s of sources) {
    const dir = s.local[0];
    if (dir === undefined) continue;
    const real = realpathSync(dir);
    const first = seen.get(real);
    if (first !== undefined)
      return `${quoted(first)} and ${quoted(s.id)} are one build, the folder ${clipped(real)}: name it once`;
    seen.set(real, s.id);
  }
  return null;
}

function refuse(io: Io, line: string, exit = 2): InputsRefused {
  io.fail(line);
  return { exit };
}
