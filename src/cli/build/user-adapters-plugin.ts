/**
 * The Vite plugin that builds a store author's adapters (user-adapters.ts) into the page:
 * src/adapters/user/user-adapters.ts, empty as written, becomes the list of them, each imported by
 * absolute path from its module and given its build's facts (src/adapters/user/user-adapter.ts), in
 * the page and its Workers alike. A build from a git ref imports the module from its worktree,
 * whose bare imports (it has no node_modules) resolve as they would from the repository itself.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Plugin } from 'vite';
import { REPO_ROOT } from './build-page.ts';
import type { GitBuild, UserAdapter } from './user-adapters.ts';

/** The module the registry reads the config's adapters from. */
const USER_MODULE = realpathSync(join(REPO_ROOT, 'src', 'adapters', 'user', 'user-adapters.ts'));
const BUILD_HELPER = realpathSync(join(REPO_ROOT, 'src', 'adapters', 'user', 'user-adapter.ts'));

export function userAdaptersPlugin(
  user: readonly UserAdapter[],
  git: readonly GitBuild[] = [],
): Plugin {
  const worktrees = git.map((b) => ({
    root: withSep(realpathSync(b.worktree)),
    repo: b.base.repo,
  }));
  return {
    name: 'storebench-user-adapters',
    enforce: 'pre',
    resolveId(source, importer, options) {
      if (importer === undefined || !isBare(source)) return null;
      const tree = worktrees.find((w) => importer.startsWith(w.root));
      if (!tree || tree.repo === null || resolvable(source, dirname(importer))) return null;
      // As the same file of the repository would import it: from the repository's node_modules.
      const twin = join(tree.repo, relative(tree.root, importer));
      return this.resolve(source, twin, { ...options, skipSelf: true });
    },
    load(id) {
      return id === USER_MODULE ? userModule(user, git) : null;
    },
  };
}

const withSep = (dir: string) => (dir.endsWith(sep) ? dir : dir + sep);
const isBare = (s: string) => !/^(\.{0,2}\/|\0|[a-zA-Z]:|[a-z]+:)/.test(s);

/** Whether a package of that name is in a node_modules at or above `from`. */
function resolvable(source: string, from: string): boolean {
  const parts = source.split('/');
  const name = (source.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** src/adapters/user/user-adapters.ts as this build's adapters: plain JavaScript, which TypeScript accepts. */
function userModule(user: readonly UserAdapter[], git: readonly GitBuild[]): string {
  const imports: string[] = [`import { withBuild } from ${JSON.stringify(BUILD_HELPER)};`];
  const entries: string[] = [];
  const take = (module: string, exportName: string): string => {
    const local = `a${imports.length - 1}`;
    imports.push(
      exportName === 'default'
        ? `import ${local} from ${JSON.stringify(module)};`
        : `import { ${/^[A-Za-z_$][\w$]*$/.test(exportName) ? exportName : JSON.stringify(exportName)} as ${local} } from ${JSON.stringify(module)};`,
    );
    return local;
  };
  for (const u of user)
    entries.push(
      `withBuild(${take(u.module, u.exportName)}, ${JSON.stringify({ facts: u.facts })})`,
    );
  for (const b of git) {
    const local = take(b.module, b.base.exportName);
    const build = { id: b.id, facts: b.facts };
    entries.push(
      `withBuild(${local}, { ...${JSON.stringify(build)}, label: ${local}.label + ${JSON.stringify(` (git ${b.ref}, ${b.commit.slice(0, 12)})`)} })`,
    );
  }
  return `${imports.join('\n')}\nexport const USER_ADAPTERS = [\n  ${entries.join(',\n  ')}\n];\n`;
}
