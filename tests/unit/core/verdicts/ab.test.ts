// B against A in one run (src/core/verdicts/ab.ts): the sides by their release, a pair at a look,
// the run's one verdict and what it says would decide it. The rule over whole simulated runs is
// ab-simulated.slow.test.ts's.
import { describe, expect, it } from 'vitest';
import { abDecision, pairAtLook, sideLabel, type AbRow } from '../../../../src/core/verdicts/ab.ts';
import { pairedRatioAtEnd } from '../../../../src/core/stats/paired.ts';

describe('sideLabel', () => {
  it('the installed package, an npm release, a git build, and a store that records no version', () => {
    const installed = { package: 'idb-keyval', version: '6.3.0', source: 'installed' };
    expect(sideLabel('keyval@installed', installed)).toBe('idb-keyval 6.3.0 (installed)');
    const npm = {
      package: 'idb-keyval',
      version: '6.2.1',
      source: 'npm https://registry.npmjs.org/',
    };
    expect(sideLabel('keyval@6.2.1', npm)).toBe('idb-keyval 6.2.1 (npm)');
    const plain = { package: 'idb-keyval', version: '6.3.0', module: 'bench/keyval.ts' };
    expect(sideLabel('keyval', plain)).toBe('keyval (idb-keyval 6.3.0)');
    expect(sideLabel('memory', undefined)).toBe('memory');
    expect(sideLabel('mystore@git:HEAD', { ref: 'HEAD', commit: 'abc' })).toBe('mystore@git:HEAD');
  });
});

describe('pairAtLook', () => {
  const looks = [3, 6, 9, 12];
  it('settles a pair its repeated interval shows the same', () => {
    expect(pairAtLook([0.001, -0.001, 0.0005], looks, 5).settled).toBe(true);
  });

  it('settles a pair its repeated interval shows faster', () => {
    expect(pairAtLook([-0.3, -0.31, -0.29], looks, 5).settled).toBe(true);
  });

  it('never settles a pair that may fail the run, however sure its slowdown', () => {
    expect(pairAtLook([0.3, 0.31, 0.29], looks, 5).settled).toBe(false);
  });
});

/** A row of B against A in chromium from its per-pass log ratios, read at the end. */
function row(kase: string, logs: number[]): AbRow {
  return {
    browser: 'chromium',
    suite: 'insert',
    case: kase,
    size: 100,
    params: {},
    a: 'idb',
    b: 'idb@8.0.4',
    ratio: pairedRatioAtEnd(logs),
    verdict: 'undecided',
    pSlower: 1,
    detectable: null,
  };
}

describe('abDecision', () => {
  const quiet = [0.01, -0.01, 0.005, -0.005, 0.0, 0.002];
  it('passes identical code and says what it could have caught', () => {
    const d = abDecision(
      [row('bulk', quiet), row('serial', [0.06, -0.08, 0.03, 0.09, -0.05, 0.0])],
      5,
    );
    expect(d.outcome).toBe('pass');
    expect(d.code).toBe(0);
    expect(d.line).toMatch(
      /^PASS: no row of idb@8\.0\.4 is slower than idb beyond 5% \(Holm, 5% over all rows\); this run would have caught a slowdown of ×1\.\d\d or more at its median row \(rows: ×1\.\d\d to ×1\.\d\d\)\. 2 rows compared: 0 slower, 0 faster, 1 same, 1 undecided/,
    );
  });

  it('fails on a row slower beyond the threshold, naming it', () => {
    const d = abDecision(
      [
        row(
          'bulk',
          quiet.map((x) => x + 0.2),
        ),
        row('serial', quiet),
      ],
      5,
    );
    expect(d.outcome).toBe('fail');
    expect(d.slower.map((r) => r.case)).toEqual(['bulk']);
    expect(d.line).toMatch(
      /^FAIL: 1 row of idb@8\.0\.4 slower than idb beyond 5%.*chromium insert\/bulk 100 ×1\.22/,
    );
  });

  it('with --detect, is undecided when too many rows could not have caught it, and says how many passes would', () => {
    const wide = [0.08, -0.06, 0.1, -0.09, 0.02, -0.03];
    const d = abDecision(
      [
        row('bulk', wide),
        row(
          'serial',
          wide.map((x) => -x),
        ),
      ],
      5,
      10,
    );
    expect(d.outcome).toBe('undecided');
    expect(d.code).toBe(3);
    expect(d.line).toMatch(
      /^UNDECIDED: 2 of 2 rows could not have caught ×1\.10 and were not shown same \(--detect 10%\).*at the spread these rows showed over passes, \d+ passes \(--auto=passes:\d+, with --budget \S+ or more/,
    );
  });

  it('says a --detect at or under the threshold cannot be reached by more passes', () => {
    const d = abDecision([row('bulk', quiet)], 5, 5);
    expect(d.line).toMatch(/--detect 5% is not above the threshold \(5%\)/);
  });
});
