/**
 * `npm run noise -- FILE...`: where a run's noise comes from. For each results file of a sweep
 * run with --record-machine, how much of the samples' within-pass variance (of log time, the
 * scatter the noise figure measures) each part of the machine record explains: the browser's
 * CPU time, its threads' wait for a CPU, the machine's CPU pressure, the garbage collections,
 * and all of them together; and the within-pass scatter of CPU time beside that of wall time.
 */
import { median, withinPassLogSd } from '../../core/stats/stats.ts';
import {
  explainedShare,
  pooledFit,
  type RowObservations,
} from '../../core/stats/within-pass-fit.ts';
import { ResultsError, type ResultsFile } from '../../core/results/results.ts';
import type { MachineMetric } from '../../core/run/machine.ts';
import { isEntry, PROCESS_IO, runEntry, type CommandIo } from '../args/command-io.ts';
import { ArgsError, scanFlags } from '../args/flags.ts';
import { readResultsFiles } from '../files/read-results.ts';

const USAGE = `Usage: npm run noise -- FILE...

For each results file of a sweep run with --record-machine, the share of the samples' scatter
within each pass (the variance of log time) that each part of the machine record explains:
the CPU time of the browser's processes, their wait for a CPU, the machine's CPU pressure and
the garbage collections; each alone, then all together (adjusted R², one fit per row, pooled).

  --help  this text`;

type Row = ResultsFile['cases'][number];

/** The covariates, each a per-sample figure from one metric of the row's machine record. */
const COVARIATES: readonly {
  label: string;
  metric: MachineMetric;
  of: (value: number, scale: number) => number;
}[] = [
  { label: "CPU time of the browser's processes (log)", metric: 'cpuMs', of: Math.log },
  { label: 'its threads waiting for a CPU (÷ median time)', metric: 'waitMs', of: (v, s) => v / s },
  { label: 'CPU pressure on the machine (÷ median time)', metric: 'psiMs', of: (v, s) => v / s },
  { label: 'garbage collections (count)', metric: 'gcs', of: (v) => v },
];
const GCS = COVARIATES.findIndex((c) => c.metric === 'gcs');

/** A row's observations, or null when it lacks a metric or a reading is unusable. */
function observe(row: Row, covariates: readonly number[]): RowObservations | null {
  const perPass = row.samplesPerPass ?? [row.samples.length];
  if (row.status !== 'ok' || row.samples.length < 3) return null;
  const scale = median(row.samples);
  const x = covariates.map((c) => {
    const { metric, of } = COVARIATES[c] as (typeof COVARIATES)[number];
    const values = row.metrics?.[metric];
    return row.samples.map((_, i) => of(values?.[i] ?? NaN, scale));
  });
  const y = row.samples.map(Math.log);
  // A reading that lost a thread's time (it ended mid-sample) is negative: the row is left out.
  const usable = [...y, ...x.flat()].every(Number.isFinite);
  return usable ? { y, x, perPass } : null;
}

function share(rows: readonly Row[], covariates: readonly number[]): string {
  const observed = rows.flatMap((r) => observe(r, covariates) ?? []);
  const s = explainedShare(pooledFit(observed));
  return s === null ? 'too few samples' : `${(s * 100).toFixed(0)}%`;
}

/** The report of one results document. */
export function noiseReport(doc: ResultsFile): string {
  const rows = doc.cases.filter((r) => observe(r, [0]) !== null);
  const head = `${doc.run.browser} (run ${doc.run.id})`;
  if (rows.length === 0)
    return `${head}: no row has a machine record; run the sweep with --record-machine`;
  const sd = (pick: (r: Row) => readonly number[] | undefined) => {
    const xs = rows.flatMap((r) => withinPassLogSd(pick(r) ?? [], r.samplesPerPass) ?? []);
    return xs.length > 0 ? median(xs).toFixed(3) : '-';
  };
  const samples = rows.reduce((n, r) => n + r.samples.length, 0);
  const withGc = rows.reduce((n, r) => n + (r.metrics?.gcs?.filter((g) => g > 0).length ?? 0), 0);
  // An engine that cannot tell one of them (WebKitGTK's collections) has no such metric at all.
  const recorded = COVARIATES.flatMap((c, i) =>
    rows.some((r) => r.metrics?.[c.metric] !== undefined) ? [i] : [],
  );
  const lines = [
    `${head}: ${rows.length} rows with a machine record, ${samples} samples (${recorded.includes(GCS) ? `${withGc} with a garbage collection counted` : 'no garbage collection count'})`,
    `  within-pass log-sd at the median row: wall time ${sd((r) => r.samples)}, CPU time ${sd((r) => r.metrics?.cpuMs)}`,
    '  share of the within-pass variance of log wall time each explains (adjusted R², pooled over rows):',
    ...COVARIATES.map(
      (c, i) =>
        `    ${c.label.padEnd(48)} ${recorded.includes(i) ? share(rows, [i]) : 'not recorded in this browser'}`,
    ),
    `    ${`all ${recorded.length} together`.padEnd(48)} ${share(rows, recorded)}`,
  ];
  return lines.join('\n');
}

export function noiseCommand(argv: readonly string[], io: CommandIo): number {
  try {
    const flags = scanFlags(argv, {}, { positionals: 'results files' });
    if (flags.help) return (io.stdout(`${USAGE}\n`), 0);
    if (flags.positionals.length === 0) throw new ArgsError('name one or more results files');
    const docs = readResultsFiles(flags.positionals).flat();
    io.stdout(`${docs.map(noiseReport).join('\n\n')}\n`);
    return 0;
  } catch (e) {
    if (!(e instanceof ArgsError) && !(e instanceof ResultsError)) throw e;
    io.stderr(`noise: ${e.message}${e instanceof ArgsError ? ' (see --help)' : ''}\n`);
    return 2;
  }
}

if (isEntry(import.meta.url)) runEntry('noise', (argv) => noiseCommand(argv, PROCESS_IO));
