/**
 * `npm run calibrate -- --runs N [--browsers a,b] [--out DIR] -- SWEEP FLAGS`: the gate's
 * specification, measured. Runs the same `--ab` sweep N times in each browser, one browser a
 * sweep and the browsers taken in turn (so a slow minute of the machine falls on all of them),
 * then reads every results file and says, per browser, how often the run exited 0, 1 and 3, the
 * median B/A over rows, the share of rows slower, faster, same or undecided, and the median slowdown
 * the runs could have caught (core/verdicts/change.ts). An A/A
 * (`--ab idb,idb@8.0.4`, or `--ab idb,idb`) measures false alarms; a known slowdown
 * (`--ab idb,idb@+10%`) measures power. docs/figures.md records what it printed.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { abRows, type AbRow } from '../../core/verdicts/ab.ts';
import { median } from '../../core/stats/stats.ts';
import { isEntry, PROCESS_IO, runEntry, type CommandIo } from '../args/command-io.ts';
import {
  ArgsError,
  flagInteger,
  flagText,
  outputsOf,
  scanFlags,
  type FlagSpec,
} from '../args/flags.ts';
import { checkOutputs, OutputError } from '../files/output.ts';
import { readResultsFiles } from '../files/read-results.ts';
import { formatClock } from '../../core/base/format.ts';
import { runSweepChild } from '../browser-runs/child-sweep.ts';

const USAGE = `Usage: npm run calibrate -- --runs N [--browsers a,b] [--out DIR] -- --ab A,B [sweep flags]

Runs the same --ab sweep N times in each browser, one browser a sweep and the browsers in turn,
and says per browser how often it exited 0 (no row slower), 1 (a row slower) and 3 (undecided),
with the median B/A over rows, the share of rows slower, faster, same and undecided, and the
median slowdown the runs could have caught (its detectable slowdown). An A/A
(--ab idb,idb or idb,idb@8.0.4) measures false alarms; --ab idb,idb@+10% measures power.

  --runs N        sweeps per browser (1 to 100; default 3)
  --browsers a,b  browsers, each in sweeps of its own (default: chromium)
  --out DIR       where the sweeps write, a folder per sweep (default: out/calibrate)
  --help          this text`;

interface CalibrateArgs {
  runs: number;
  browsers: string[];
  out: string;
  sweep: string[];
  help: boolean;
}

export const CALIBRATE_FLAGS: Readonly<Record<string, FlagSpec>> = {
  runs: { kind: 'value', example: '5' },
  browsers: { kind: 'value', example: 'chromium,firefox' },
  out: { kind: 'value', example: 'out/calibrate', output: 'folder' },
};

export function parseCalibrateArgs(argv: readonly string[]): CalibrateArgs {
  const split = argv.indexOf('--');
  const own = split < 0 ? argv : argv.slice(0, split);
  const sweep = split < 0 ? [] : argv.slice(split + 1);
  const flags = scanFlags(own, CALIBRATE_FLAGS);
  if (flags.help) return { runs: 0, browsers: [], out: '', sweep: [], help: true };
  const runs = flagInteger(flags, 'runs', 1, 100, 3);
  if (!sweep.some((a) => a === '--ab' || a.startsWith('--ab=')))
    throw new ArgsError('give the sweep an --ab A,B after --, e.g. -- --ab idb,idb@8.0.4');
  if (sweep.some((a) => /^--(browsers|out)(=|$)/.test(a)))
    throw new ArgsError('give --browsers and --out before --: each sweep gets its own');
  const browsers = (flagText(flags, 'browsers') ?? 'chromium')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  return { runs, browsers, out: flagText(flags, 'out') ?? 'out/calibrate', sweep, help: false };
}

/** One sweep's outcome: its exit code, how long it took, and its rows. */
interface Outcome {
  browser: string;
  run: number;
  code: number;
  ms: number;
  rows: AbRow[];
}

export async function calibrateCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let args: CalibrateArgs;
  try {
    args = parseCalibrateArgs(argv);
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    io.stderr(`calibrate: ${e.message} (see --help)\n`);
    return 2;
  }
  if (args.help) return (io.stdout(`${USAGE}\n`), 0);
  try {
    checkOutputs(outputsOf(CALIBRATE_FLAGS, { out: args.out }));
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    return (io.stderr(`calibrate: ${e.message}\n`), 2);
  }
  const outcomes: Outcome[] = [];
  for (let run = 1; run <= args.runs; run++) {
    for (const browser of args.browsers) {
      const dir = resolve(args.out, `${browser}-${run}`);
      const started = Date.now();
      const code = await runSweepChild([...args.sweep, '--browsers', browser, '--out', dir]);
      if (code === 2) return (io.stderr('calibrate: the sweep refused its flags\n'), 2);
      const rows = readRows(dir);
      outcomes.push({ browser, run, code, ms: Date.now() - started, rows });
      io.stdout(`${lineOf(outcomes.at(-1) as Outcome)}\n`);
    }
  }
  io.stdout(`\n${summary(outcomes, args.browsers).join('\n')}\n`);
  return 0;
}

/** The --ab rows of the results files a sweep wrote into `dir`. */
function readRows(dir: string): AbRow[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && !n.endsWith('.partial.json'));
  } catch {
    return [];
  }
  return readResultsFiles(names.map((n) => join(dir, n))).flatMap((docs) => docs.flatMap(abRows));
}

const tally = (rows: readonly AbRow[]) => {
  const compared = rows.filter((r) => !r.neither);
  const count = (v: AbRow['verdict']) => compared.filter((r) => r.verdict === v).length;
  return {
    n: compared.length,
    slower: count('slower'),
    faster: count('faster'),
    same: count('same'),
    undecided: count('undecided'),
  };
};

const medianRatio = (rows: readonly AbRow[]) => {
  const ratios = rows.flatMap((r) => (r.ratio ? [r.ratio.ratio] : []));
  return ratios.length > 0 ? median(ratios).toFixed(3) : 'none';
};

/** The median detectable slowdown over rows (a row without one counts as uncatchable). */
const medianDetectable = (rows: readonly AbRow[]) => {
  const ds = rows.filter((r) => !r.neither).map((r) => r.detectable ?? Infinity);
  const m = ds.length > 0 ? median(ds) : Infinity;
  return Number.isFinite(m) ? `×${m.toFixed(2)}` : 'none';
};

function lineOf(o: Outcome): string {
  const t = tally(o.rows);
  return `${o.browser} run ${o.run}: exit ${o.code} in ${formatClock(o.ms)}; median B/A ${medianRatio(o.rows)} over ${t.n} rows: ${t.slower} slower, ${t.faster} faster, ${t.same} same, ${t.undecided} undecided; would catch ${medianDetectable(o.rows)} at the median row`;
}

/** Per browser: the exit codes, the median B/A over every row of its runs, and the verdicts' shares. */
function summary(outcomes: readonly Outcome[], browsers: readonly string[]): string[] {
  return browsers.map((browser) => {
    const mine = outcomes.filter((o) => o.browser === browser);
    const codes = [0, 1, 3].map((c) => `exit ${c}: ${mine.filter((o) => o.code === c).length}`);
    const other = mine.filter((o) => ![0, 1, 3].includes(o.code)).length;
    const rows = mine.flatMap((o) => o.rows);
    const t = tally(rows);
    const pct = (k: number) => `${t.n > 0 ? Math.round((100 * k) / t.n) : 0}%`;
    return `${browser}: ${mine.length} runs, ${codes.join(', ')}${other > 0 ? `, other: ${other}` : ''}; median B/A ${medianRatio(rows)}; rows slower ${pct(t.slower)}, faster ${pct(t.faster)}, same ${pct(t.same)}, undecided ${pct(t.undecided)} (of ${t.n}); would catch ${medianDetectable(rows)} at the median row; median time ${formatClock(median(mine.map((o) => o.ms)))}`;
  });
}

if (isEntry(import.meta.url)) runEntry('calibrate', (argv) => calibrateCommand(argv, PROCESS_IO));
