// Comments say why; what happened when goes in docs/ and commit bodies. So no comment in shipped
// code carries a date, read off the comments the TypeScript scanner finds (strings are data).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOTS = ['src', 'suites', 'fixtures'];
const MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';
/** 2026-11-27, 2026-11, "27 Nov 2026", "November 2026". */
const DATE = new RegExp(
  `\\b(19|20)\\d\\d-[01]\\d(-[0-3]\\d)?\\b|\\b(${MONTHS})[a-z]*\\.? (\\d{1,2}, )?(19|20)\\d\\d\\b`,
);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Each comment of the file that holds a date, as `file:line comment`. */
function datedComments(file: string, text = readFileSync(file, 'utf8')): string[] {
  const scanner = ts.createScanner(
    ts.ScriptTarget.Latest,
    false,
    ts.LanguageVariant.Standard,
    text,
  );
  const found: string[] = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (
      token !== ts.SyntaxKind.SingleLineCommentTrivia &&
      token !== ts.SyntaxKind.MultiLineCommentTrivia
    )
      continue;
    const comment = scanner.getTokenText();
    const date = DATE.exec(comment);
    if (!date) continue;
    const line = text.slice(0, scanner.getTokenPos() + date.index).split('\n').length;
    found.push(`${file}:${line} ${date[0]}`);
  }
  return found;
}

describe('code - comments', () => {
  it('the check finds a date in a comment, and none in a string', () => {
    const text = "const a = '2026-11-27'; // fixed on 2026-11-27\n/* since Nov 2026 */\n";
    expect(datedComments('x.ts', text)).toEqual(['x.ts:1 2026-11-27', 'x.ts:2 Nov 2026']);
  });

  it('no comment in src/, suites/ or fixtures/ carries a date', () => {
    expect(ROOTS.flatMap(sources).flatMap((f) => datedComments(f))).toEqual([]);
  });
});
