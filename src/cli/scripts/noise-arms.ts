/**
 * What noise-ab reads from one arm's results files: the run's noise floor and each finding's
 * ratio with the half-width of its interval. Pure: documents in, figures out.
 */
import { checkDefaultFindings } from '../../core/verdicts/default-findings.ts';
import { runNoise } from '../../core/verdicts/precision.ts';
import type { ResultsFile } from '../../core/results/results.ts';

export interface ArmFinding {
  /** The finding, browser and store: the same finding in the other arm has the same key. */
  key: string;
  ratio: number | null;
  /** The larger side of its 95% interval over the ratio (0.1: ±10%); null without an interval. */
  width: number | null;
}

export function runNoiseOf(docs: readonly ResultsFile[]): {
  noise: number | null;
  findings: ArmFinding[];
} {
  const findings = checkDefaultFindings(docs).flatMap(({ finding, cells }) =>
    cells.map((c) => ({
      key: `${finding.id}|${c.browser}|${c.adapter}`,
      ratio: c.ratio?.ratio ?? null,
      width: c.ratio ? Math.max(c.ratio.hi / c.ratio.ratio, c.ratio.ratio / c.ratio.lo) - 1 : null,
    })),
  );
  return { noise: runNoise(docs.flatMap((d) => d.cases))?.logSd ?? null, findings };
}
