/**
 * `npm run noise-ab -- --runs N [--browsers a,b] [--cures gc,engine] [--out DIR] -- SWEEP FLAGS`:
 * the harness's own A/B of its noise cures (core/plan/cures.ts). Runs the same sweep with every
 * cure off and with the cures named on, back to back in each browser, the order turned each run
 * (off-on, then on-off) so a slow minute of the machine falls on both arms; then says per browser
 * the noise floor of each arm (the median row's within-pass log-sd, core/verdicts/precision.ts), the
 * median finding's interval, and whether the findings' ratios moved beyond their intervals. A cure
 * stays on by default only where this shows the noise fell and the ratios held (docs/figures.md).
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CURES, formatCures, parseCures, type Cure } from '../../core/plan/cures.ts';
import { median } from '../../core/stats/stats.ts';
import { runNoiseOf, type ArmFinding } from './noise-arms.ts';
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

const USAGE = `Usage: npm run noise-ab -- --runs N [--browsers a,b] [--cures a,b] [--out DIR] -- SWEEP FLAGS

Runs the same sweep with every noise cure off and with the cures named on, back to back in each
browser, the order turned each run, and says per browser the noise (the median row's within-pass
log-sd) of each arm, the median finding's interval, and how far the findings' ratios moved.

  --runs N        pairs of sweeps per browser (1 to 50; default 2)
  --browsers a,b  browsers, each in sweeps of its own (default: chromium)
  --cures a,b     the cures of the "on" arm, e.g. ${CURES.join(',')}
  --out DIR       where the sweeps write, a folder per sweep (default: out/noise-ab)
  --help          this text`;

interface NoiseAbArgs {
  runs: number;
  browsers: string[];
  cures: Cure[];
  out: string;
  sweep: string[];
  help: boolean;
}

export const NOISE_AB_FLAGS: Readonly<Record<string, FlagSpec>> = {
  runs: { kind: 'value', example: '2' },
  browsers: { kind: 'value', example: 'chromium,firefox' },
  cures: { kind: 'value', example: 'gc' },
  out: { kind: 'value', example: 'out/noise-ab', output: 'folder' },
};

export function parseNoiseAbArgs(argv: readonly string[]): NoiseAbArgs {
  const split = argv.indexOf('--');
  const own = split < 0 ? argv : argv.slice(0, split);
  const sweep = split < 0 ? [] : argv.slice(split + 1);
  const flags = scanFlags(own, NOISE_AB_FLAGS);
  if (flags.help) return { runs: 0, browsers: [], cures: [], out: '', sweep: [], help: true };
  if (sweep.some((a) => /^--(browsers|out|cures)(=|$)/.test(a)))
    throw new ArgsError('give --browsers, --cures and --out before --: each arm sets its own');
  const named = flagText(flags, 'cures');
  if (named === undefined)
    throw new ArgsError(`name the cures of the "on" arm, e.g. --cures ${CURES.join(',')}`);
  const cures = parseCures(named);
  if (typeof cures === 'string') throw new ArgsError(`--cures: ${cures}`);
  if (cures.length === 0) throw new ArgsError('--cures: name at least one cure for the "on" arm');
  return {
    runs: flagInteger(flags, 'runs', 1, 50, 2),
    browsers: (flagText(flags, 'browsers') ?? 'chromium').split(',').filter(Boolean),
    cures,
    out: flagText(flags, 'out') ?? 'out/noise-ab',
    sweep,
    help: false,
  };
}

/** One sweep of one arm in one browser. */
interface ArmRun {
  browser: string;
  arm: 'off' | 'on';
  run: number;
  code: number;
  ms: number;
  noise: number | null;
  findings: ArmFinding[];
}

export async function noiseAbCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let args: NoiseAbArgs;
  try {
    args = parseNoiseAbArgs(argv);
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    io.stderr(`noise-ab: ${e.message} (see --help)\n`);
    return 2;
  }
  if (args.help) return (io.stdout(`${USAGE}\n`), 0);
  try {
    checkOutputs(outputsOf(NOISE_AB_FLAGS, { out: args.out }));
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    return (io.stderr(`noise-ab: ${e.message}\n`), 2);
  }
  const runs: ArmRun[] = [];
  for (let run = 1; run <= args.runs; run++)
    for (const browser of args.browsers)
      for (const arm of run % 2 === 1 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const dir = resolve(args.out, `${browser}-${run}-${arm}`);
        // The off arm names none explicitly: the defaults may hold a cure one day.
        const cures = formatCures(arm === 'on' ? args.cures : []);
        const started = Date.now();
        const code = await runSweepChild([
          ...args.sweep,
          '--browsers',
          browser,
          '--cures',
          cures,
          '--out',
          dir,
        ]);
        if (code === 2) return (io.stderr('noise-ab: the sweep refused its flags\n'), 2);
        const docs = readDocs(dir);
        const one: ArmRun = {
          browser,
          arm,
          run,
          code,
          ms: Date.now() - started,
          ...runNoiseOf(docs),
        };
        runs.push(one);
        io.stdout(`${lineOf(one)}\n`);
      }
  io.stdout(
    `\n${args.browsers
      .map((b) =>
        summary(
          runs.filter((r) => r.browser === b),
          args.cures,
        ),
      )
      .join('\n')}\n`,
  );
  return 0;
}

function readDocs(dir: string) {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && !n.endsWith('.partial.json'));
  } catch {
    return [];
  }
  return readResultsFiles(names.map((n) => join(dir, n))).flat();
}

const sd = (x: number | null) => (x === null ? 'none' : x.toFixed(3));
const pct = (x: number | null) => (x === null ? 'none' : `±${(100 * x).toFixed(1)}%`);

function lineOf(r: ArmRun): string {
  const widths = r.findings.flatMap((f) => (f.width === null ? [] : [f.width]));
  return `${r.browser} run ${r.run} cures ${r.arm}: exit ${r.code} in ${formatClock(r.ms)}; noise ${sd(r.noise)}; median finding ${pct(widths.length > 0 ? median(widths) : null)} over ${widths.length}`;
}

/**
 * Per browser: each arm's median noise and finding interval over its runs, and the findings both
 * arms measured: the median |log| of on ÷ off, and how many of them moved beyond the two
 * intervals together (the on ratio outside the off interval widened by the on interval's width).
 */
function summary(runs: readonly ArmRun[], cures: readonly Cure[]): string {
  const arm = (a: 'off' | 'on') => runs.filter((r) => r.arm === a);
  const noise = (a: 'off' | 'on') => {
    const xs = arm(a).flatMap((r) => (r.noise === null ? [] : [r.noise]));
    return xs.length > 0 ? median(xs) : null;
  };
  const width = (a: 'off' | 'on') => {
    const xs = arm(a).flatMap((r) =>
      r.findings.flatMap((f) => (f.width === null ? [] : [f.width])),
    );
    return xs.length > 0 ? median(xs) : null;
  };
  const moved = movedFindings(arm('off'), arm('on'));
  return `${runs[0]?.browser ?? '?'}: noise off ${sd(noise('off'))}, on (${formatCures(cures)}) ${sd(noise('on'))}; median finding off ${pct(width('off'))}, on ${pct(width('on'))}; findings in both: ${moved.n}, median |on ÷ off| ${moved.n > 0 ? `${(100 * moved.shift).toFixed(1)}%` : 'none'}, beyond their intervals ${moved.beyond}`;
}

function movedFindings(off: readonly ArmRun[], on: readonly ArmRun[]) {
  const shifts: number[] = [];
  let beyond = 0;
  off.forEach((o, i) => {
    const n = on[i];
    if (!n) return;
    for (const f of o.findings) {
      const g = n.findings.find((x) => x.key === f.key);
      if (!g || f.ratio === null || g.ratio === null) continue;
      const shift = Math.abs(Math.log(g.ratio / f.ratio));
      shifts.push(Math.expm1(shift));
      // Two independent intervals: the difference of logs is beyond both when it passes their root sum of squares.
      const half = Math.hypot(Math.log1p(f.width ?? Infinity), Math.log1p(g.width ?? Infinity));
      if (shift > half) beyond++;
    }
  });
  return { n: shifts.length, shift: shifts.length > 0 ? median(shifts) : 0, beyond };
}

if (isEntry(import.meta.url)) runEntry('noise-ab', (argv) => noiseAbCommand(argv, PROCESS_IO));
