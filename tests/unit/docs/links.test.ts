import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shippedSources } from '../code/shipped-code.ts';

/**
 * The README is the manual and docs/ holds the rest, so a link between them that points nowhere
 * loses a reader the text was moved for. Every relative link in README.md, docs/*.md and
 * results/README.md must reach a file, and its #fragment a heading of that file. Every path those
 * pages name in backticks, and every path in the opening comment of a file under src/, must exist:
 * a path that moved otherwise stays in the text that explains it.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const MAX_README_LINES = 350;

const DOCS = [
  'README.md',
  'results/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The file's text with fenced code blocks and inline code spans blanked, so line numbers still hold. */
function prose(text: string): string {
  let fenced = false;
  return text
    .split('\n')
    .map((line) => {
      const fence = /^\s*(```|~~~)/.test(line);
      if (fence) fenced = !fenced;
      return fence || fenced ? '' : line;
    })
    .join('\n')
    .replace(/`[^`]*`/g, (code) => code.replace(/[^\n]/g, ' '));
}

/** GitHub's anchor for a heading: lowercase, punctuation but '-' and '_' dropped, spaces to '-'. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Anchors of a Markdown file's headings; a repeated heading gets -1, -2, ... as on GitHub. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** Inline links and images, [text](target) and ![alt](target), outside code; the text may wrap. */
function links(file: string): Link[] {
  const text = prose(read(file));
  return [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => ({
    file,
    line: text.slice(0, m.index).split('\n').length,
    target: m[1] ?? '',
  }));
}

/** Why a relative link does not resolve, or null when it does (or is not relative). */
function broken(link: Link): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return null; // http:, https:, mailto:
  const [path, fragment] = link.target.split('#', 2) as [string, string | undefined];
  const file =
    path === ''
      ? link.file
      : relative(ROOT, join(ROOT, dirname(link.file), decodeURIComponent(path)));
  const full = join(ROOT, file);
  if (file.startsWith('..') || !existsSync(full)) return `${file} does not exist`;
  if (fragment === undefined) return null;
  if (!statSync(full).isFile() || !file.endsWith('.md'))
    return `#${fragment} points into ${file}, which is not a Markdown file`;
  return anchors(read(file)).has(fragment) ? null : `${file} has no heading #${fragment}`;
}

describe('docs - links', () => {
  it("makes GitHub's anchors from headings", () => {
    expect(slug('Driven suites: crashes, cold starts, several tabs, storage limits')).toBe(
      'driven-suites-crashes-cold-starts-several-tabs-storage-limits',
    );
    expect(slug("A sample's length is part of what it measures")).toBe(
      'a-samples-length-is-part-of-what-it-measures',
    );
    expect(slug('Why the default plan does not reach ±2% here')).toBe(
      'why-the-default-plan-does-not-reach-2-here',
    );
    expect(slug('`npm run bench:overhead`')).toBe('npm-run-benchoverhead');
    expect(slug("The driven suites' runs")).toBe('the-driven-suites-runs');
  });

  it('finds the links of every page', () => {
    expect(DOCS).toContain('docs/figures.md');
    for (const file of DOCS) expect(links(file).length, file).toBeGreaterThan(0);
  });

  it.each(DOCS)('every relative link in %s reaches a file and a heading', (file) => {
    const bad = links(file).flatMap((link) => {
      const why = broken(link);
      return why ? [`${link.file}:${link.line}: (${link.target}) ${why}`] : [];
    });
    expect(bad).toEqual([]);
  });
});

/**
 * The repository's own folders: a backticked span that starts with one of them names a path in
 * this repository (`out/`, a user's folder, is not one of them).
 */
const REPO_FOLDERS = ['src', 'tests', 'docs', 'suites', 'fixtures', 'results', 'public', 'bin'];

/**
 * A span is a pattern, not a path, when it holds what no path here holds: a glob (`*`, `?`,
 * `{a,b}`, `[…]`), a placeholder (`<run-id>`) or an ellipsis (`…`, `...`). Only its literal part
 * before the first such mark is checked: that folder must exist.
 */
const PATTERN = /[*?{}[\]<>]|…|\.\.\./;

/** The part of a path span that must exist: the whole path, or a pattern's folder before its first mark. */
function mustExist(span: string): string {
  const at = span.search(PATTERN);
  if (at < 0) return span.replace(/[.,:;]+$/, '');
  return span.slice(0, span.lastIndexOf('/', at) + 1);
}

interface PathMention {
  where: string;
  path: string;
  /** Folders the path may be relative to, tried in order; the repository root always last. */
  bases: readonly string[];
}

/** Backticked spans in Markdown that start with a repository folder, their first word each. */
function docPaths(file: string): PathMention[] {
  const text = read(file);
  const starts = new RegExp(`^(${REPO_FOLDERS.join('|')})/`);
  return [...text.matchAll(/`([^`\n]+)`/g)].flatMap((m) => {
    const span = (m[1] ?? '').trim().split(/\s/)[0] ?? '';
    if (!starts.test(span)) return [];
    const line = text.slice(0, m.index).split('\n').length;
    return [{ where: `${file}:${line}`, path: span, bases: ['.'] }];
  });
}

/** A source file's opening comment: its leading block comment or run of // lines. */
function openingComment(text: string): string {
  const block = /^\s*\/\*[\s\S]*?\*\//.exec(text);
  if (block) return block[0];
  return (/^(\s*\/\/.*\n)+/.exec(text) ?? [''])[0];
}

/**
 * Paths in a source file's opening comment: any word with a slash and a file's extension, or a
 * backticked span that starts with a repository folder. A header says `browser-runs/variants.ts`
 * from src/cli/commands/sweep/, so a path may be relative to the file's folder or any folder above
 * it.
 */
function headerPaths(file: string): PathMention[] {
  const text = openingComment(readFileSync(join(ROOT, file), 'utf8'));
  const bases: string[] = [];
  for (let dir = dirname(file); dir !== '.'; dir = dirname(dir)) bases.push(dir);
  bases.push('.');
  const words = new Set<string>();
  for (const m of text.matchAll(
    /(?<![\w./@-])((?:\.{1,2}\/)*[\w.-]+\/[\w./-]*\.(?:ts|js|cjs|mjs|json|md|html|css))\b/g,
  ))
    words.add(m[1] ?? '');
  const starts = new RegExp(`^(${REPO_FOLDERS.join('|')})/`);
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    const span = (m[1] ?? '').trim().split(/\s/)[0] ?? '';
    if (starts.test(span)) words.add(span);
  }
  return [...words].map((path) => ({ where: file, path, bases }));
}

/** Paths a header names that are not files of this repository, each with where it is. */
const ELSEWHERE: Record<string, string> = {
  'bench/storebench-adapter.ts': "what npx storebench init writes in a store's repository",
  'results/index.json': "the page server's listing of results/, made when the page asks for it",
};

/** Why a mentioned path does not exist, or null when it does from one of its bases. */
function missing(m: PathMention): string | null {
  const path = mustExist(m.path);
  if (path === '' || m.path in ELSEWHERE) return null;
  return m.bases.some((base) => existsSync(join(ROOT, base, path)))
    ? null
    : `${m.where}: \`${m.path}\` does not exist`;
}

const SOURCES = shippedSources(join(ROOT, 'src')).map((f) => relative(ROOT, f));

describe('docs - paths', () => {
  it('tells a pattern from a path, and checks only the folder a pattern starts in', () => {
    expect(mustExist('src/adapters/*.ts')).toBe('src/adapters/');
    expect(mustExist('out/<run-id>-<browser>.json')).toBe('out/');
    expect(mustExist('src/…')).toBe('src/');
    expect(mustExist('tests/e2e/page.spec.ts.')).toBe('tests/e2e/page.spec.ts');
    expect(missing({ where: 'x', path: 'src/no-such/*.ts', bases: ['.'] })).toMatch(
      /does not exist/,
    );
  });

  it("reads the paths of a source file's opening comment, relative to any folder above it", () => {
    const found = headerPaths('src/cli/commands/sweep/main.ts').map((m) => m.path);
    expect(found).toContain('browser-runs/variants.ts');
    expect(found.map((p) => missing({ where: 'x', path: p, bases: ['src/cli', '.'] }))).toContain(
      null,
    );
  });

  it.each(DOCS)('every backticked repository path in %s exists', (file) => {
    expect(docPaths(file).flatMap((m) => missing(m) ?? [])).toEqual([]);
  });

  it('every path in the opening comment of a file under src/ exists', () => {
    expect(SOURCES.length).toBeGreaterThan(100);
    expect(SOURCES.flatMap(headerPaths).flatMap((m) => missing(m) ?? [])).toEqual([]);
  });
});

describe('docs - README', () => {
  it(`is a manual of at most ${MAX_README_LINES} lines`, () => {
    expect(read('README.md').replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(
      MAX_README_LINES,
    );
  });

  it("holds the exact test command CI runs (.ci/run's npm test)", () => {
    const commands = (text: string) =>
      text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#'))
        .flatMap((line) => line.split('&&').map((part) => part.trim()));
    const ci = commands(read('.ci/run')).filter((c) => c.startsWith('npm test'));
    expect(ci).toEqual(['npm test']);
    const readmeBlocks = [...read('README.md').matchAll(/```sh\n([\s\S]*?)```/g)].map(
      (m) => m[1] ?? '',
    );
    expect(readmeBlocks.flatMap(commands)).toContain(ci[0]);
  });
});

describe('docs - install lines and the package', () => {
  it('installs storebench only from its tarball: it is on no registry, so `npm i -D storebench` fails with E404', () => {
    for (const path of DOCS) {
      const lines = read(path)
        .split('\n')
        .filter((l) => /\bnpm (i|install)\b[^`|]*\bstorebench\b/.test(l));
      for (const line of lines) expect(line, `${path}: ${line}`).toMatch(/storebench-[\w.]+\.tgz/);
    }
  });

  it('ships the docs its messages and its init point to', () => {
    const files = (JSON.parse(read('package.json')) as { files: string[] }).files;
    expect(files).toContain('docs/');
    expect(existsSync(join(ROOT, 'docs', 'your-store.md'))).toBe(true);
  });
});
