/**
 * The Vite plugin that builds a sweep's variants (core/plan/variant.ts) into the page beside the
 * installed packages: src/adapters/variants/variant-builds.ts, empty as written, becomes the list of the
 * variants, each loading its packages by absolute path from the cache or the local folder
 * (variant-sources.ts), which Vite bundles like any dependency, outside the project root or not.
 * A local build's bare imports that its own folders cannot resolve fall back to this project's
 * node_modules; a legacy build (CommonJS for browserify) gets Node's shims as browserify gave them.
 */
import { existsSync, realpathSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, sep } from 'node:path';
import type { Plugin } from 'vite';
import type { BuiltVariant } from '../../core/plan/variant.ts';
import { REPO_ROOT } from './build-page.ts';
import type { VariantSource } from './variant-sources.ts';

/** The module the page's registry reads its variants from. */
const BUILDS_MODULE = realpathSync(
  join(REPO_ROOT, 'src', 'adapters', 'variants', 'variant-builds.ts'),
);

/** Stands in for a Node builtin a legacy build requires but never calls in a browser (its leveldb adapter's fs, path, stream). */
const EMPTY = '\0storebench-variant-empty';

export function variantsPlugin(variants: readonly VariantSource[]): Plugin {
  const under = (dirs: readonly string[]) => {
    const roots = dirs.map((d) => withSep(realpathSync(d)));
    return (id: string | undefined) => id !== undefined && roots.some((r) => id.startsWith(r));
  };
  const localRoots = variants.flatMap((v) => v.local).map((d) => withSep(realpathSync(d)));
  const inLocal = under(variants.flatMap((v) => v.local));
  // The whole install of a legacy build: its packages and every dependency under its node_modules.
  const inLegacy = under(
    variants.filter((v) => v.legacy).map((v) => join(v.dirs[0] as string, '..')),
  );
  const legacy = variants.some((v) => v.legacy);
  return {
    name: 'storebench-variants',
    // Before Vite's own resolver, which would take a builtin the variant's folders lack for Node's.
    enforce: 'pre',
    // PouchDB 2.x evaluates views with eval(), as it always did: Rolldown's note about it asks nothing of a user.
    config: () =>
      legacy
        ? {
            build: { rolldownOptions: { checks: { eval: false } } },
            worker: { rolldownOptions: { checks: { eval: false } } },
          }
        : {},
    async resolveId(source, importer, options) {
      if (importer === undefined) return null;
      if (!isBare(source)) {
        // A local build's own files stay inside its folder: nothing else of this machine is bundled (package-entry.ts checks its entry first).
        const root = localRoots.find((r) => importer.startsWith(r));
        if (root === undefined || source.startsWith('\0')) return null;
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
        const file = resolved?.id.split('?')[0];
        if (file !== undefined && !file.startsWith('\0') && !realInside(file, root))
          this.error(
            `${importer.slice(root.length)} in ${root} imports ${JSON.stringify(source)}, which lies outside that folder: a local build bundles only its own files and the packages it imports`,
          );
        return resolved;
      }
      const installed = packageDir(source, dirname(importer)) !== undefined;
      // A builtin the tree has no package for (fs, path, stream) is never called in a browser.
      if (inLegacy(importer) && isNodeBuiltin(source)) return installed ? null : EMPTY;
      if (!inLocal(importer) || installed) return null;
      return this.resolve(source, join(REPO_ROOT, 'index.html'), { ...options, skipSelf: true });
    },
    load(id) {
      if (id === EMPTY) return 'module.exports = {};';
      if (id === BUILDS_MODULE) return buildsModule(variants);
      return null;
    },
    transform(code, id) {
      if (!inLegacy(id) || !/\.c?js$/.test(id)) return null;
      const ast = this.parse(code);
      // An ES module of the tree gets nothing: it never ran under browserify's sloppy wrapper.
      if (JSON.stringify(ast.body.map((n) => n.type)).match(/Import|Export/)) return null;
      const head = nodeGlobals(code, declaredNames(ast));
      return head === '' ? null : { code: `${head}\n${code}`, map: null };
    },
  };
}

const withSep = (dir: string) => (dir.endsWith(sep) ? dir : dir + sep);

/** Whether a file, after symlinks, is inside the folder `root` (which ends in a separator). */
function realInside(file: string, root: string): boolean {
  try {
    return realpathSync(file).startsWith(root);
  } catch {
    return file.startsWith(root);
  }
}

/** The folder of the package a bare import names, as Node would find it from `from`, or undefined. */
function packageDir(source: string, from: string): string | undefined {
  const parts = source.replace(/^node:/, '').split('/');
  const name = (source.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
const isBare = (s: string) => !/^(\.{0,2}\/|\0|[a-zA-Z]:|[a-z]+:)/.test(s) || s.startsWith('node:');
const isNodeBuiltin = (s: string) => builtinModules.includes(s.replace(/^node:/, ''));

/** src/adapters/variants/variant-builds.ts as this build's variants: plain JavaScript, which TypeScript accepts. */
function buildsModule(variants: readonly VariantSource[]): string {
  const entries = variants.map((v) => {
    const data: Omit<BuiltVariant, 'load'> = {
      base: v.base,
      version: v.version,
      what: v.what,
      legacy: v.legacy,
      facts: v.facts,
    };
    const fields = Object.entries(data).map(([k, value]) => `${k}: ${JSON.stringify(value)}`);
    const imports = v.dirs.map((d) => `import(${JSON.stringify(d)})`).join(', ');
    return `  ${JSON.stringify(v.id)}: { ${fields.join(', ')}, load: () => Promise.all([${imports}]) },`;
  });
  return `export const VARIANT_BUILDS = {\n${entries.join('\n')}\n};\n`;
}

/**
 * What browserify gave every module and an ES bundle does not: `process` and `Buffer` as free
 * variables, and sloppy mode, where assigning an undeclared name makes a global (md5-jkmyers
 * assigns `txt`); in a bundle's strict mode that throws, so such names are declared first.
 */
function nodeGlobals(
  code: string,
  declared: ReadonlySet<string> & { assigned: ReadonlySet<string> },
): string {
  const head: string[] = [];
  const implicit = [...declared.assigned].filter((n) => !declared.has(n) && !GLOBALS.has(n));
  if (implicit.length > 0) head.push(`var ${implicit.join(', ')};`);
  if (/\bBuffer\b/.test(code) && !declared.has('Buffer'))
    head.push("var Buffer = require('buffer').Buffer;");
  if (/\bprocess\b/.test(code) && !declared.has('process'))
    head.push("var process = require('process/browser.js');");
  return head.join(' ');
}

/** Names a CommonJS module may assign without declaring them: the module's own and the browser's. */
const GLOBALS = new Set([
  'module',
  'exports',
  'require',
  'window',
  'self',
  'global',
  'globalThis',
  'document',
  'navigator',
  'location',
  'indexedDB',
  'localStorage',
  'console',
]);

interface Node {
  type: string;
  [key: string]: unknown;
}

/**
 * Every name the module declares anywhere (as one flat scope: a name declared in any function
 * counts everywhere, so only names declared nowhere are treated as globals), and every plain
 * name it assigns.
 */
function declaredNames(ast: unknown): Set<string> & { assigned: Set<string> } {
  const declared = Object.assign(new Set<string>(), { assigned: new Set<string>() });
  const bind = (p: unknown): void => {
    const n = p as Node | null;
    if (!n) return;
    if (n.type === 'Identifier') declared.add(n.name as string);
    else if (n.type === 'AssignmentPattern') bind(n.left);
    else if (n.type === 'RestElement') bind(n.argument);
    else if (n.type === 'ArrayPattern') (n.elements as unknown[]).forEach(bind);
    else if (n.type === 'ObjectPattern')
      (n.properties as Node[]).forEach((q) => bind(q.value ?? q.argument));
  };
  walk(ast, (n) => {
    if (n.type === 'VariableDeclarator') bind(n.id);
    else if (/Function/.test(n.type)) {
      bind(n.id);
      (n.params as unknown[]).forEach(bind);
    } else if (n.type === 'CatchClause') bind(n.param);
    else if (n.type === 'ClassDeclaration') bind(n.id);
    else if (n.type === 'AssignmentExpression' && (n.left as Node).type === 'Identifier')
      declared.assigned.add((n.left as Node).name as string);
  });
  return declared;
}

function walk(node: unknown, visit: (n: Node) => void): void {
  if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return;
  visit(node as Node);
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const child of value) walk(child, visit);
    else if (value && typeof value === 'object') walk(value, visit);
  }
}
