/**
 * Phase 2 of a sweep: the variants the plan names (core/variant.ts). An npm version is installed
 * into the cache once (or found there), a local folder is checked, a git ref of a config
 * adapter's repository is checked out in a temporary worktree, and each says what identifies its
 * build; instruments (`@+N%`) need nothing. A missing version, an unreachable registry, a folder
 * that is not the package or a ref that names no commit stops the sweep here with exit 2, before
 * any build or browser.
 */
import { resolve } from 'node:path';
import { parseVariant } from '../../../core/variant.ts';
import {
  GitBuildError,
  prepareGitBuild,
  removeGitBuild,
  type GitBuild,
} from '../../build/user-adapters.ts';
import {
  builtVariants,
  describeSource,
  packageVariants,
  variantSource,
  VariantSourceError,
  type VariantSource,
} from '../../build/variant-sources.ts';
import type { InputsRefused } from './inputs.ts';
import type { SweepInputs } from './run.ts';

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
): Promise<Builds | InputsRefused> {
  const git = gitBuilds(inputs, io);
  if ('exit' in git) return git;
  const variants = await packageSources(inputs, io);
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
): Promise<VariantSource[] | InputsRefused> {
  const wanted = packageVariants(inputs.ids, inputs.vocab);
  if (wanted.length === 0) return [];
  if (inputs.page !== null) {
    const page = resolve(inputs.page);
    const missing = wanted.filter((v) => !builtVariants(page).includes(v.id));
    if (missing.length === 0) return [];
    return refuse(
      io,
      `--page: ${page} was built without ${missing.map((v) => v.id).join(', ')}; leave out --page so that the sweep builds the page with them`,
    );
  }
  const sources: VariantSource[] = [];
  for (const v of wanted) {
    try {
      sources.push(await variantSource(v, inputs.vocab, (line) => io.out(`  ${v.id}: ${line}`)));
    } catch (e) {
      if (!(e instanceof VariantSourceError)) throw e;
      return refuse(io, `${v.id}: ${e.message}`);
    }
    io.out(`  ${v.id}: ${describeSource(sources.at(-1) as VariantSource)}`);
  }
  return sources;
}

function refuse(io: Io, line: string): InputsRefused {
  io.fail(line);
  return { exit: 2 };
}
