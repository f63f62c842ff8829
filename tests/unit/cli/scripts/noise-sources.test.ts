// Where the noise comes from: the within-pass fit (core/stats/within-pass-fit.ts), the collector's
// reading of its child processes' CPU time (cli/server/machine-reading.ts) and the noise report
// (cli/scripts/noise-report.ts). The fit's figures are exact for data built to have them; the
// reading is checked against a child that spends a known amount of CPU time.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { explainedShare, pooledFit } from '../../../../src/core/stats/within-pass-fit.ts';
import { machineReader } from '../../../../src/cli/server/machine-reading.ts';
import { machineDelta } from '../../../../src/core/run/machine.ts';
import { noiseReport } from '../../../../src/cli/scripts/noise-report.ts';
import type { ResultsFile } from '../../../../src/core/results/results.ts';

/** A seeded generator (mulberry32), so every run of the test sees the same numbers. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('noise sources - the within-pass fit', () => {
  const random = rng(7);
  const x = Array.from({ length: 40 }, () => random());
  const perPass = [10, 10, 10, 10];
  // Each pass at its own level: levels between passes are not noise within them.
  const level = (i: number) => Math.floor(i / 10) * 5;

  it('explains all of a scatter that is a line in the covariate, whatever the passes’ levels', () => {
    const y = x.map((v, i) => 2 * v + level(i));
    expect(explainedShare(pooledFit([{ y, x: [x], perPass }]))).toBeCloseTo(1, 9);
  });

  it('explains next to nothing of a scatter independent of the covariate', () => {
    const other = Array.from({ length: 40 }, () => random());
    const y = other.map((v, i) => v + level(i));
    expect(explainedShare(pooledFit([{ y, x: [x], perPass }]))).toBeLessThan(0.1);
  });

  it('leaves out a covariate that only moves between passes', () => {
    const y = x.map((v, i) => v + level(i));
    const fit = pooledFit([{ y, x: [x.map((_, i) => level(i))], perPass }]);
    expect(fit.explained).toBe(0);
    expect(fit.slopes).toEqual([]);
  });

  it('pools rows by their sums of squares: half the variance explained in a row of equal weight', () => {
    const y1 = x.map((v, i) => v + level(i));
    const noise = Array.from({ length: 40 }, () => random());
    // A second row whose scatter has nothing to do with its covariate.
    const fit = pooledFit([
      { y: y1, x: [x], perPass },
      { y: noise, x: [x], perPass },
    ]);
    const alone = pooledFit([{ y: y1, x: [x], perPass }]);
    expect(fit.explained).toBeGreaterThanOrEqual(alone.explained);
    expect(fit.total).toBeGreaterThan(alone.total);
    expect(explainedShare(fit)).toBeLessThan(1);
  });

  it('fits no slope to a row with too few samples for one, and has no share of no scatter', () => {
    // Two samples in one pass: one degree of freedom, which a slope would fit exactly.
    const fit = pooledFit([{ y: [1, 2], x: [[1, 3]], perPass: [2] }]);
    expect(fit.slopes).toEqual([]);
    expect(explainedShare(fit)).toBe(0);
    expect(explainedShare(pooledFit([{ y: [3, 3, 3], x: [[1, 2, 4]], perPass: [3] }]))).toBeNull();
  });
});

describe('noise sources - the reading of child processes', () => {
  it('counts the CPU time a child process spends', async () => {
    const read = machineReader();
    expect(read, 'this test runs on Linux, where /proc has schedstat').not.toBeNull();
    if (!read) return;
    const before = read();
    // The child spins until it has used 300 ms of CPU, says so, and waits to be told to exit.
    const child = spawn(
      process.execPath,
      [
        '-e',
        "while (process.cpuUsage().user < 300000); process.stdout.write('spent'); process.stdin.resume();",
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    await once(child.stdout, 'data');
    // The process list is rescanned at most once a second: a reading after that sees the child.
    await new Promise((r) => setTimeout(r, 1_100));
    const after = read();
    child.stdin.end();
    await once(child, 'exit');
    expect(machineDelta(before, after).cpuMs).toBeGreaterThanOrEqual(300);
  });
});

describe('noise sources - the report', () => {
  const row = (samples: number[], cpuMs: number[], perPass: number[]) => ({
    status: 'ok',
    suite: 'insert',
    case: 'bulk',
    adapter: 'idb',
    size: 100,
    samples,
    samplesPerPass: perPass,
    metrics: {
      cpuMs,
      waitMs: cpuMs.map(() => 1),
      psiMs: cpuMs.map(() => 1),
      gcs: cpuMs.map(() => 0),
    },
  });
  const doc = (cases: unknown[]) =>
    ({ run: { browser: 'chromium', id: 'r1' }, cases }) as unknown as ResultsFile;

  it('says how much of the scatter CPU time explains, and nothing for covariates that never vary', () => {
    const cpu = [10, 12, 9, 15, 11, 10, 13, 9, 14, 12];
    const text = noiseReport(
      doc([
        row(
          cpu.map((c) => c * 1.5),
          cpu,
          [5, 5],
        ),
      ]),
    );
    expect(text).toMatch(
      /1 rows with a machine record, 10 samples \(0 with a garbage collection counted\)/,
    );
    expect(text).toMatch(/CPU time of the browser's processes \(log\)\s+100%/);
    expect(text).toMatch(/garbage collections \(count\)\s+0%/);
  });

  it('says which part an engine cannot record, and fits the others together', () => {
    const cpu = [10, 12, 9, 15, 11, 10, 13, 9, 14, 12];
    const r = row(
      cpu.map((c) => c * 1.5),
      cpu,
      [5, 5],
    );
    const { gcs: _none, ...noGc } = r.metrics;
    const text = noiseReport(doc([{ ...r, metrics: noGc }]));
    expect(text).toMatch(/\(no garbage collection count\)/);
    expect(text).toMatch(/garbage collections \(count\)\s+not recorded in this browser/);
    expect(text).toMatch(/all 3 together\s+100%/);
  });

  it('tells a file without a machine record how to get one', () => {
    expect(noiseReport(doc([{ ...row([1, 2, 3], [1, 2, 3], [3]), metrics: undefined }]))).toMatch(
      /no row has a machine record; run the sweep with --record-machine/,
    );
  });
});
