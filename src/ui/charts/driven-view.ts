/** What a driven suite's chart is to the explorer (driven-charts.ts lists them). */
import type { Comparison } from '../model/explorer-model.ts';

/** What the explorer's choices say to a driven suite's chart. */
export interface DrivenChartView {
  /** The `suite/case` the reader chose, if any: a chart of several cases may show that one's group. */
  case: string | null;
  /** The column (browser) to draw. */
  browser: string | null;
  /** Bars on a log scale. */
  log: boolean;
}

export interface DrivenChart {
  readonly figure: { readonly element: HTMLElement };
  render(comparison: Comparison, view: DrivenChartView): void;
}
