/**
 * Each driven suite's chart in the explorer, by its id (suites/driven.ts). A suite whose rows the
 * generic charts (bars, box plots) already draw says null here: quota's finding is what fit and
 * the error the store gave, which is text (the results table's notes, the sweep's findings).
 */
import type { DrivenSuiteId } from '../../../suites/driven.ts';
import { ColdChart } from './chart-cold.ts';
import { CrashChart } from './chart-crash.ts';
import { TabsChart } from './chart-tabs.ts';
import type { DrivenChart } from './driven-view.ts';

export const DRIVEN_CHARTS: { readonly [Id in DrivenSuiteId]: (() => DrivenChart) | null } = {
  crash: () => new CrashChart(),
  cold: () => new ColdChart(),
  tabs: () => new TabsChart(),
  quota: null,
};
