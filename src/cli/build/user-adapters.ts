/**
 * A store author's adapters, from the modules their config names (config-file.ts): where each
 * module is, which of its exports is the adapter, and what identifies its code (the module's path
 * in its repository and that repository's commit). `ADAPTER@git:REF` builds one from another
 * commit: the repository at REF in a temporary worktree, the adapter's module taken from there.
 * The page is built with them by user-adapters-plugin.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { StorebenchConfig } from '../args/config-file.ts';
import { makeTempFolder } from '../files/temp.ts';

export interface UserAdapter {
  id: string;
  /** The export that holds it: `default` or a name. */
  exportName: string;
  /** The module, an absolute path. */
  module: string;
  /** The top folder of the git repository the module is in, or null when it is in none. */
  repo: string | null;
  /** describe() facts the build adds: the module and its commit. */
  facts: Record<string, string>;
}

/** One build of a config adapter from a git ref: a worktree of its repository at that commit. */
export interface GitBuild {
  /** The variant id, `ADAPTER@git:REF`. */
  id: string;
  base: UserAdapter;
  ref: string;
  commit: string;
  /** The temporary worktree, removed by removeGitBuild. */
  worktree: string;
  /** The adapter's module inside the worktree. */
  module: string;
  facts: Record<string, string>;
}

export class GitBuildError extends Error {
  override readonly name = 'GitBuildError';
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  }).trim();
}

/** The top folder of the repository `dir` is in, or null. */
function repoOf(dir: string): string | null {
  try {
    return git(dir, 'rev-parse', '--show-toplevel');
  } catch {
    return null;
  }
}

/**
 * The commit the module's code is at: HEAD, `-dirty` when a tracked file differs from it or the
 * module itself is not committed (its code then is in no commit). Files the repository does not
 * track (results in out/, say) do not make it dirty.
 */
function moduleCommit(repo: string, module: string): string {
  const head = git(repo, 'rev-parse', 'HEAD');
  const changed = git(repo, 'status', '--porcelain', '--untracked-files=no') !== '';
  const untracked = git(repo, 'status', '--porcelain', '--', module).startsWith('??');
  return changed || untracked ? `${head}-dirty` : head;
}

/** A config adapter as the build takes it. */
export function userAdapter(
  id: string,
  exportName: string,
  module: string,
  config: StorebenchConfig,
): UserAdapter {
  const dir = join(module, '..');
  const repo = repoOf(dir);
  const facts: Record<string, string> = {
    module: toPosix(relative(repo ?? config.dir, module)),
    config: config.shown,
  };
  if (repo === null) facts.commit = 'not in a git repository';
  else {
    try {
      facts.commit = moduleCommit(repo, module);
    } catch {
      facts.commit = 'no commit yet';
    }
  }
  if (exportName !== 'default') facts.export = exportName;
  return { id, exportName, module, repo, facts };
}

const toPosix = (p: string) => p.split(sep).join('/');

/**
 * The repository of `base` at `ref`, checked out in a temporary worktree. Throws GitBuildError
 * saying why not (no repository, an unknown ref, the module absent at that commit).
 */
export function prepareGitBuild(id: string, ref: string, base: UserAdapter): GitBuild {
  const repo = base.repo;
  if (repo === null)
    throw new GitBuildError(
      `${base.module} is in no git repository, so ${base.id} has no commits to build`,
    );
  let commit: string;
  try {
    commit = git(repo, 'rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`);
  } catch {
    throw new GitBuildError(
      `"${ref}" names no commit of ${repo} (a branch, a tag, a commit, origin/main; a shallow clone may lack it: fetch it first)`,
    );
  }
  const worktree = makeTempFolder('worktree');
  try {
    git(repo, 'worktree', 'add', '--detach', '--force', worktree, commit);
  } catch (e) {
    rmSync(worktree, { recursive: true, force: true });
    throw new GitBuildError(`git worktree add failed: ${firstLine(e)}`);
  }
  const build = {
    id,
    base,
    ref,
    commit,
    worktree,
    module: join(worktree, relative(repo, base.module)),
  };
  if (!existsSync(build.module)) {
    removeGitBuild(build);
    throw new GitBuildError(
      `${ref} (${commit.slice(0, 12)}) has no ${relative(repo, base.module)}`,
    );
  }
  return {
    ...build,
    facts: { ...base.facts, ref, commit, source: `git worktree of ${repo} at ${ref}` },
  };
}

/** Remove the worktree and its registration in the repository. */
export function removeGitBuild(build: Pick<GitBuild, 'base' | 'worktree'>): void {
  if (build.base.repo !== null) {
    try {
      git(build.base.repo, 'worktree', 'remove', '--force', build.worktree);
    } catch {
      // Gone already, or never registered: the folder goes below and prune forgets it.
    }
  }
  rmSync(build.worktree, { recursive: true, force: true });
  try {
    if (build.base.repo !== null) git(build.base.repo, 'worktree', 'prune');
  } catch {
    // Nothing to prune.
  }
}

function firstLine(e: unknown): string {
  const err = e as { stderr?: string; message?: string };
  return (err.stderr || err.message || String(e)).trim().split('\n')[0] ?? '';
}
