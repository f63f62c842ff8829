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

/** The covariates, each a per-sample figure from the row's machine record. */
const COVARIATES: readonly { label: string; of: (row: Row, i: number, scale: number) => number }[] =
  [
    {
      label: "CPU time of the browser's processes (log)",
      of: (r, i) => Math.log(r.metrics?.cpuMs?.[i] ?? NaN),
    },
    {
      label: 'its threads waiting for a CPU (÷ median time)',
      of: (r, i, scale) => (r.metrics?.waitMs?.[i] ?? NaN) / scale,
    },
    {
      label: 'CPU pressure on the machine (÷ median time)',
      of: (r, i, scale) => (r.metrics?.psiMs?.[i] ?? NaN) / scale,
    },
    { label: 'garbage collections (count)', of: (r, i) => r.metrics?.gcs?.[i] ?? NaN },
  ];

/** A row's observations, or null when it has no machine record or a reading is unusable. */
function observe(row: Row, covariates: readonly number[]): RowObservations | null {
  const perPass = row.samplesPerPass ?? [row.samples.length];
  if (row.status !== 'ok' || !row.metrics?.cpuMs || row.samples.length < 3) return null;
  const scale = median(row.samples);
  const x = covariates.map((c) =>
    row.samples.map((_, i) => (COVARIATES[c] as (typeof COVARIATES)[number]).of(row, i, scale)),
  );
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
  const lines = [
    `${head}: ${rows.length} rows with a machine record, ${samples} samples (${withGc} with a garbage collection counted)`,
    `  within-pass log-sd at the median row: wall time ${sd((r) => r.samples)}, CPU time ${sd((r) => r.metrics?.cpuMs)}`,
    '  share of the within-pass variance of log wall time each explains (adjusted R², pooled over rows):',
    ...COVARIATES.map((c, i) => `    ${c.label.padEnd(48)} ${share(rows, [i])}`),
    `    ${'all four together'.padEnd(48)} ${share(
      rows,
      COVARIATES.map((_, i) => i),
    )}`,
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
