import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The README is the manual and docs/ holds the rest, so a link between them that points nowhere
 * loses a reader the text was moved for. Every relative link in README.md, docs/*.md and
 * results/README.md must reach a file, and its #fragment a heading of that file.
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
