/**
 * How much of the samples' scatter within each pass a per-sample covariate explains: least
 * squares on values centred within each pass (so the passes' own levels, which are not noise
 * within a pass, take no part), one fit per row, pooled over rows as sums of squares. The noise
 * report (cli/scripts/noise-report.ts) asks it of the machine record (core/run/machine.ts).
 */

/** One row's observations: y and each covariate per sample, with the samples each pass took. */
export interface RowObservations {
  y: readonly number[];
  x: readonly (readonly number[])[];
  perPass: readonly number[];
}

/** Sums of squares pooled over rows, and the degrees of freedom that go with them. */
export interface PooledFit {
  /** Within-pass sum of squares of y. */
  total: number;
  /** The part the covariates' fits take. */
  explained: number;
  /** Samples less passes: the within-pass degrees of freedom of y. */
  df: number;
  /** Slopes fitted, one per covariate per row that varied. */
  slopes: number[];
}

/** Values less their pass's mean. */
function centred(values: readonly number[], perPass: readonly number[]): number[] {
  const out: number[] = [];
  let at = 0;
  for (const k of perPass) {
    const part = values.slice(at, at + k);
    const m = part.reduce((a, v) => a + v, 0) / Math.max(1, k);
    for (const v of part) out.push(v - m);
    at += k;
  }
  return out;
}

const dot = (a: readonly number[], b: readonly number[]) =>
  a.reduce((s, v, i) => s + v * (b[i] ?? 0), 0);

/** β solving (XᵀX) β = Xᵀy by Gaussian elimination with partial pivoting; null when singular. */
function solve(xtx: number[][], xty: number[]): number[] | null {
  const n = xty.length;
  const a = xtx.map((row, i) => [...row, xty[i] as number]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r]?.[c] ?? 0) > Math.abs(a[p]?.[c] ?? 0)) p = r;
    if (Math.abs(a[p]?.[c] ?? 0) < 1e-12) return null;
    [a[c], a[p]] = [a[p] as number[], a[c] as number[]];
    const pivot = a[c] as number[];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const row = a[r] as number[];
      const f = (row[c] as number) / (pivot[c] as number);
      for (let k = c; k <= n; k++) row[k] = (row[k] as number) - f * (pivot[k] as number);
    }
  }
  return a.map((row, i) => (row[n] as number) / (row[i] as number));
}

/**
 * One row's fit: y on the covariates that vary within its passes. A covariate that never varies
 * (no collection in any sample) explains nothing and is left out of the fit.
 */
function fitRow(row: RowObservations): PooledFit {
  const y = centred(row.y, row.perPass);
  const total = dot(y, y);
  const df = row.y.length - row.perPass.filter((k) => k > 0).length;
  const xs = row.x.map((x) => centred(x, row.perPass)).filter((x) => dot(x, x) > 1e-12);
  if (xs.length === 0 || df <= xs.length) return { total, explained: 0, df, slopes: [] };
  const beta = solve(
    xs.map((a) => xs.map((b) => dot(a, b))),
    xs.map((x) => dot(x, y)),
  );
  if (!beta) return { total, explained: 0, df, slopes: [] };
  const explained = beta.reduce((s, b, i) => s + b * dot(xs[i] as number[], y), 0);
  return { total, explained, df, slopes: beta };
}

/** The rows' fits pooled: their sums of squares and degrees of freedom added. */
export function pooledFit(rows: readonly RowObservations[]): PooledFit {
  const fits = rows.map(fitRow);
  return {
    total: fits.reduce((s, f) => s + f.total, 0),
    explained: fits.reduce((s, f) => s + f.explained, 0),
    df: fits.reduce((s, f) => s + f.df, 0),
    slopes: fits.flatMap((f) => f.slopes),
  };
}

/**
 * The share of the within-pass variance the covariates explain, adjusted for the slopes fitted
 * (adjusted R²): with one slope per row, a raw R² would credit chance alone with about
 * slopes ÷ df of the variance. Null without the degrees of freedom to say.
 */
export function explainedShare(fit: PooledFit): number | null {
  const left = fit.df - fit.slopes.length;
  if (fit.total <= 0 || left <= 0) return null;
  const residual = (fit.total - fit.explained) / left;
  return Math.max(0, 1 - residual / (fit.total / fit.df));
}
