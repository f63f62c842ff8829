// Comments say why; what happened when goes in docs/ and commit bodies. So no comment in shipped
// code carries a date, read off the comments of the parsed tree (strings are data).
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { shippedSources } from './shipped-code.ts';

const MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';
/** 2026-11-27, 2026-11, "27 Nov 2026", "November 2026". */
const DATE = new RegExp(
  `\\b(19|20)\\d\\d-[01]\\d(-[0-3]\\d)?\\b|\\b(${MONTHS})[a-z]*\\.? (\\d{1,2}, )?(19|20)\\d\\d\\b`,
);

/**
 * Every comment of the file, from the parsed tree: the comments before each token and after it on
 * its line. Parsed, not scanned alone, so a `//` inside a template or a regular expression is not
 * taken for one.
 */
function comments(src: ts.SourceFile): ts.CommentRange[] {
  const text = src.getFullText();
  const found = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node) => {
    for (const r of [
      ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? []),
    ])
      found.set(r.pos, r);
    node.getChildren(src).forEach(visit);
  };
  visit(src);
  return [...found.values()];
}

/** Each comment of the file that holds a date, as `file:line date`. */
function datedComments(file: string, text = readFileSync(file, 'utf8')): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  return comments(src).flatMap((r) => {
    const date = DATE.exec(text.slice(r.pos, r.end));
    if (!date) return [];
    const { line } = src.getLineAndCharacterOfPosition(r.pos + date.index);
    return [`${file}:${line + 1} ${date[0]}`];
  });
}

describe('code - comments', () => {
  it('the check finds a date in a comment, and none in a string', () => {
    const text =
      "const a = '2026-11-27'; // fixed on 2026-11-27\n/* since Nov 2026 */\n" +
      'const u = `${a}//2026-11-28`;\nif (a) {\n  // left on 2026-11-29\n}\n';
    expect(datedComments('x.ts', text)).toEqual([
      'x.ts:1 2026-11-27',
      'x.ts:2 Nov 2026',
      'x.ts:5 2026-11-29',
    ]);
  });

  it('no comment in src/, suites/ or fixtures/ carries a date', () => {
    expect(shippedSources().flatMap((f) => datedComments(f))).toEqual([]);
  });
});
