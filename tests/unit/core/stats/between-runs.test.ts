// How far identical code moves between runs here (src/core/stats/between-runs.ts), measured from the
// committed A/A pairs, and `compare` judged against them: unchanged code passes, a row made 30%
// slower still fails.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  aaPair,
  AA_PAIRS,
  BROWSERS,
  measureBetweenRuns,
} from '../../../../src/cli/files/committed-pairs.ts';
import { tableText, TABLE_PATH } from '../../../../src/cli/scripts/between-runs.ts';
import { REPO_ROOT } from '../../../../src/cli/build/build-page.ts';
import {
  estimateBetweenRuns,
  rowScatter,
  shiftScatter,
} from '../../../../src/core/stats/between-runs.ts';
import { compareResults } from '../../../../src/core/verdicts/compare.ts';
import { gate, GATE_EXIT } from '../../../../src/core/verdicts/gate.ts';

describe('estimateBetweenRuns', () => {
  // After a new pair, npm run between-runs writes the table again.
  it(`${TABLE_PATH} is what the committed A/A pairs give`, () => {
    expect(readFileSync(join(REPO_ROOT, TABLE_PATH), 'utf8')).toBe(tableText());
  });

  it("takes each store's 90th percentile over 1.645", () => {
    const rows = [
      ...Array.from({ length: 20 }, (_, i) => ({
        browser: 'x',
        store: 's',
        net: (i % 2 ? 1 : -1) * (i + 1) * 0.01,
      })),
      { browser: 'x', store: 'rare', net: 0.5 },
    ];
    const t = estimateBetweenRuns([['a', 'b']], rows, [
      { browser: 'x', shift: 0.03 },
      { browser: 'x', shift: -0.04 },
    ]);
    // |net| of s: 0.01 … 0.20; the 90th percentile is the 19th smallest, 0.19.
    expect(rowScatter('x', 's', t)).toBeCloseTo(0.19 / 1.6448536269514722, 5);
    expect(rowScatter('x', 'rare', t)).toBe(t.browsers.x?.pooled);
    expect(shiftScatter('x', t)).toBeCloseTo(Math.sqrt((0.03 ** 2 + 0.04 ** 2) / 2), 5);
    expect(rowScatter('safari', 's', t)).toBe(t.fallback.pooled);
  });
});

/**
 * The one committed pair whose whole run moved beyond the threshold: every WebKit row of the
 * second run 26% slower (docs/gate.md, "Pairs in 12 launches"). One run per side cannot tell that
 * from a change every store shares, so the gate says undecided there, and passes elsewhere.
 */
const MOVED_WHOLE = { pair: '2026-11-25T00-07-20Z-5a1f', browser: 'webkit' };

describe('estimateBetweenRuns - in compare', () => {
  for (const [base, next] of AA_PAIRS) {
    it(`passes identical code: ${base} against ${next}, in every browser`, () => {
      for (const browser of BROWSERS) {
        const docs = aaPair(base, next, browser);
        if (!docs) continue;
        const decision = gate(compareResults([docs[0]], [docs[1]]));
        if (base === MOVED_WHOLE.pair && browser === MOVED_WHOLE.browser) {
          expect(decision.code, decision.line).toBe(GATE_EXIT.undecided);
          expect(decision.line).toMatch(/^UNDECIDED: every row moved together, webkit \+26\.1%/);
          continue;
        }
        expect(decision.code, `${browser}: ${decision.line}`).toBe(GATE_EXIT.pass);
        expect(decision.line).toContain('npm run sweep -- --ab A,B');
      }
    });
  }

  it('passes each pair against a table of the others', () => {
    for (const pair of AA_PAIRS) {
      const others = measureBetweenRuns(AA_PAIRS.filter((p) => p !== pair));
      for (const browser of BROWSERS) {
        const docs = aaPair(pair[0], pair[1], browser);
        if (!docs) continue;
        const c = compareResults([docs[0]], [docs[1]], 5, others);
        expect(
          c.rows
            .filter((r) => r.verdict === 'slower')
            .map((r) => `${r.suite}/${r.case} ${r.adapter}`),
          `${pair[0]} ${browser}`,
        ).toEqual([]);
        expect([GATE_EXIT.pass, GATE_EXIT.undecided]).toContain(gate(c).code);
      }
    }
  });

  it('fails a row made 30% slower', () => {
    const [base, next] = AA_PAIRS.at(-1) as [string, string];
    for (const browser of BROWSERS) {
      const docs = aaPair(base, next, browser);
      if (!docs) continue;
      const slower = structuredClone(docs[1]);
      for (const row of slower.cases)
        if (row.suite === 'insert' && row.case === 'bulk' && row.adapter === 'idb')
          row.samples = row.samples.map((x) => x * 1.3);
      const decision = gate(compareResults([docs[1]], [slower]));
      expect(decision.code, `${browser}: ${decision.line}`).toBe(GATE_EXIT.fail);
      expect(decision.line).toContain(`${browser} insert/bulk idb`);
    }
  });
});
