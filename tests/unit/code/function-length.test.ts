// No function in src/, suites/ or fixtures/ needs a scroll: at most 80 lines, read off the code's own syntax tree.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { shippedSources } from './shipped-code.ts';

const MAX_LINES = 80;

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
    expect(shippedSources().flatMap(longFunctions)).toEqual([]);
  });
});
