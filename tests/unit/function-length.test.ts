// No function in src/, suites/ or fixtures/ needs a scroll: at most 80 lines, read off the code's own syntax tree.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 80;
/** Every folder of shipped code: the page, the CLI, the stores, the suites and the documents they write. */
const ROOTS = ['src', 'suites', 'fixtures'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every function, method and arrow in the file longer than MAX_LINES, as `file:line name (n lines)`. */
function longFunctions(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = src.getLineAndCharacterOfPosition(node.getStart(src)).line;
      const lines = src.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
      const name = 'name' in node && node.name ? node.name.getText(src) : '(anonymous)';
      if (lines > MAX_LINES) found.push(`${file}:${first + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return found;
}

describe('code - function length', () => {
  it(`no function in src/, suites/ or fixtures/ is longer than ${MAX_LINES} lines`, () => {
    expect(ROOTS.flatMap(sources).flatMap(longFunctions)).toEqual([]);
  });
});
