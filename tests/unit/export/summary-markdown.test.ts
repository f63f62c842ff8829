/**
 * `--summary FILE.md`: the run as Markdown for a pull request and $GITHUB_STEP_SUMMARY. Its
 * verdict first, the A/B table with a row per case, the findings and the medians; Markdown's own
 * characters in names escaped; never longer than a comment may be.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { abDecision, abRows } from '../../../src/core/verdicts/ab.ts';
import { sizingText } from '../../../src/core/verdicts/ab-size.ts';
import { parseResults } from '../../../src/core/results/recompute.ts';
import { md, summaryMarkdown } from '../../../src/export/summary-markdown.ts';
import { sampleResults } from '../../sample-results.ts';

const AB = fileURLToPath(new URL('../../e2e/fixtures/ab-chromium.json', import.meta.url));

describe('summary - markdown', () => {
  it('a default run: verdict, plan, medians with their intervals', () => {
    const doc = sampleResults();
    const text = summaryMarkdown({ docs: [doc], verdict: 'OK: 1 browser completed.' });
    expect(
      text.startsWith(`### storebench ${md(doc.run.id)}\n\n**OK: 1 browser completed.**`),
    ).toBe(true);
    expect(text).toContain('Plan: suites insert');
    expect(text).toContain('| case | size | store | chromium: median ms [95% CI] |');
    const ok = doc.cases.find((c) => c.status === 'ok');
    expect(text).toContain(`| insert/${ok?.case} | ${ok?.size} | ${ok?.adapter} |`);
    expect(text).toContain('| unsupported |');
  });

  it('an --ab run: the verdict table, a row per case, and what the run could have caught', () => {
    const doc = parseResults(readFileSync(AB, 'utf8'), AB);
    const rows = abRows(doc);
    const decision = abDecision(rows, 5);
    const text = summaryMarkdown({
      docs: [doc],
      verdict: decision.line,
      ab: { decision, thresholdPct: 5 },
    });
    expect(rows.length).toBeGreaterThan(0);
    expect(text).toContain(`#### B = \`${rows[0]?.b}\` against A = \`${rows[0]?.a}\``);
    expect(text).toContain(
      '| browser | case | size | B/A | 95% interval | passes | verdict | would catch |',
    );
    for (const r of rows) expect(text).toContain(`| chromium | ${r.suite}/${r.case} | ${r.size} |`);
    // What the run could have caught, in bold under the table: every row of this file is slower
    // (memory against idb), and a slower row caught its slowdown.
    expect(rows.every((r) => r.verdict === 'slower')).toBe(true);
    expect(text).toContain('**every row compared is slower: each caught its slowdown.**');
    expect(text).toContain(
      'Passes: every row compared is slower: no more passes were needed to catch it; this run had 12.',
    );
  });

  it('an --ab run sized by --budget auto says how, in the words the sweep ends on', () => {
    const doc = parseResults(readFileSync(AB, 'utf8'), AB);
    const sizing = {
      after: 3,
      goalPct: 10,
      rows: 2,
      reach: 2,
      needed: 40,
      passes: 36,
      least: 12,
      most: 36,
      maxMs: 720_000,
      budgetMs: 720_000,
    };
    const sized = { ...doc, run: { ...doc.run, sizing } };
    const decision = abDecision(abRows(sized), 5);
    const text = summaryMarkdown({
      docs: [sized],
      verdict: decision.line,
      ab: { decision, thresholdPct: 5 },
    });
    expect(text).toContain(`Passes: ${md(sizingText(sizing))}.`);
    expect(text).toContain('sized to 36 passes, the most --budget-max 12m gives');
  });

  it('escapes what Markdown would read as markup, and stays within a comment', () => {
    expect(md('a|b *c* <img> [x](y)\nz')).toBe('a\\|b \\*c\\* \\<img\\> \\[x\\]\\(y\\) z');
    const doc = sampleResults();
    const many = Array.from({ length: 4000 }, (_, i) => ({ ...doc.cases[0]!, case: `case-${i}` }));
    const text = summaryMarkdown({
      docs: [{ ...doc, cases: many }],
      verdict: 'OK',
      maxChars: 20_000,
    });
    expect(text.length).toBeLessThanOrEqual(20_000);
    expect(text).toMatch(/\(\d+ more rows in the results files\)\n$/);
  });
});
