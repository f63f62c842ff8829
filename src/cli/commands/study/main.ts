/**
 * `npm run study -- NAME [--quick]`: rerun a published study (src/studies/) in every browser
 * found. Each part of the study is one `npm run sweep` of its own plan, tagged `--study
 * NAME/PART`, into `<out>/<NAME>/<PART>/`; the page is built once for all of them. Then the
 * report: `<out>/<NAME>/report.html` (self-contained, opens from disk) and `report.md`, with
 * the published figures, today's and a verdict per finding. `--report-only` rebuilds the
 * report from the files already there.
 *
 * Exit codes: 0 every part's sweep exited 0; 1 a sweep failed or was stopped (the report is
 * still written from the rows that exist); 2 bad flags, an unknown study, or an --out that cannot
 * be written.
 */
import { readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ResultsError, type ResultsFile } from '../../../core/results/results.ts';
import { STUDIES, STUDY_IDS, studyById } from '../../../studies/index.ts';
import { studyReport } from '../../../studies/report.ts';
import { reportHtml } from '../../../studies/report-html.ts';
import { reportMarkdown } from '../../../studies/report-markdown.ts';
import type { Study } from '../../../studies/study.ts';
import { KNOWN_BROWSER_IDS } from '../../drivers/discovery.ts';
import { isEntry, PROCESS_IO, runEntry, type CommandIo } from '../../args/command-io.ts';
import { ArgsError, flagText, outputsOf, scanFlags, type FlagSpec } from '../../args/flags.ts';
import {
  checkOutputs,
  displayPath,
  OutputDir,
  OutputError,
  outputFailure,
  writeAtomically,
} from '../../files/output.ts';
import { readResultsFiles } from '../../files/read-results.ts';
import { buildStudyPage, readVariantFailures, writeVariantFailures } from './build-page.ts';
import { runSweepChild } from '../../browser-runs/child-sweep.ts';
import { makeTempFolder } from '../../files/temp.ts';
import { loadVocabulary } from '../../build/vocabulary.ts';
import { ConfigError } from '../../args/config-file.ts';

export const DEFAULT_STUDY_OUT = join('out', 'studies');

export const STUDY_FLAGS: Readonly<Record<string, FlagSpec>> = {
  list: { kind: 'switch' },
  quick: { kind: 'switch' },
  browsers: { kind: 'value', example: 'chromium,firefox' },
  out: { kind: 'value', example: 'out/studies', output: 'folder' },
  parts: { kind: 'value', example: 'views' },
  'report-only': { kind: 'switch' },
};

export const STUDY_USAGE = `Usage: npm run study -- NAME [--quick] [--browsers a,b] [--out DIR] [--parts a,b] [--report-only]
       npm run study -- --list

Reruns a published study in every browser found: each part is a sweep of the study's own plan
into DIR/NAME/PART/, then DIR/NAME/report.html (self-contained) and report.md put the published
figures beside today's, with a verdict per finding from the 95% intervals.

  --list         the studies, with their parts and findings
  --quick        a reduced plan of the same cases (smaller sizes, fewer samples), for CI
  --browsers a,b only these browsers (as npm run sweep --browsers)
  --out DIR      where the study's folder goes (default: ${DEFAULT_STUDY_OUT})
  --parts a,b    run only these parts (the report still reads every part's files in DIR/NAME)
  --report-only  write the report from the results already in DIR/NAME, running nothing

Studies: ${STUDY_IDS.join(', ')}.
Exit codes: 0 every part ran; 1 a part's sweep failed or was stopped (the report is still
written); 2 bad flags, an unknown study, or an --out that cannot be written.`;

export interface StudyArgs {
  help: boolean;
  list: boolean;
  study: Study | null;
  quick: boolean;
  browsers: string | null;
  out: string;
  reportOnly: boolean;
  /** Part ids to run; null: every part. */
  parts: string[] | null;
}

export function parseStudyArgs(argv: readonly string[]): StudyArgs {
  const flags = scanFlags(argv, STUDY_FLAGS, { positionals: 'a study name' });
  const partsText = flagText(flags, 'parts');
  const base = {
    quick: flags.values.has('quick'),
    browsers: flagText(flags, 'browsers') ?? null,
    out: flagText(flags, 'out') ?? DEFAULT_STUDY_OUT,
    reportOnly: flags.values.has('report-only'),
    parts:
      partsText === undefined
        ? null
        : [
            ...new Set(
              partsText
                .split(',')
                .map((p) => p.trim())
                .filter(Boolean),
            ),
          ],
  };
  if (flags.help) return { help: true, list: false, study: null, ...base };
  if (flags.values.has('list')) {
    if (flags.positionals.length > 0) throw new ArgsError('--list takes no study name');
    return { help: false, list: true, study: null, ...base };
  }
  if (flags.positionals.length !== 1)
    throw new ArgsError(`give one study name; allowed: ${STUDY_IDS.join(', ')} (or --list)`);
  const name = flags.positionals[0] as string;
  const study = studyById(name);
  if (!study) throw new ArgsError(`unknown study "${name}"; allowed: ${STUDY_IDS.join(', ')}`);
  const unknownBrowsers = (base.browsers ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b && !KNOWN_BROWSER_IDS.includes(b));
  if (unknownBrowsers.length > 0)
    throw new ArgsError(
      `--browsers: unknown ${unknownBrowsers.map((b) => `"${b}"`).join(', ')}; allowed: ${KNOWN_BROWSER_IDS.join(', ')}`,
    );
  if (base.reportOnly && (base.quick || base.browsers !== null || base.parts !== null))
    throw new ArgsError(
      '--report-only runs nothing, so --quick, --browsers and --parts do not apply',
    );
  const unknown = (base.parts ?? []).filter((p) => !study.parts.some((x) => x.id === p));
  if (base.parts !== null && (base.parts.length === 0 || unknown.length > 0)) {
    throw new ArgsError(
      `--parts: ${unknown.length > 0 ? `unknown ${unknown.map((p) => `"${p}"`).join(', ')}` : 'none given'}; ${study.id} has ${study.parts.map((p) => p.id).join(', ')}`,
    );
  }
  return { help: false, list: false, study, ...base };
}

export function studyList(): string {
  return STUDIES.map((s) =>
    [
      `${s.id}: ${s.title} (${s.source.author}, ${s.source.date})`,
      ...s.parts.map((p) => `    part ${p.id}: ${p.title}`),
      `    ${s.findings.length} findings, ${s.findings.filter((f) => f.notMeasurable).length} not measurable here`,
    ].join('\n'),
  ).join('\n');
}

/** The sweep's arguments for one part, without the variants in `leaveOut` (they could not be built). */
export function partArgv(
  study: Study,
  partId: string,
  args: StudyArgs,
  outDir: string,
  page: string,
  leaveOut: ReadonlySet<string> = new Set(),
): string[] {
  const part = study.parts.find((p) => p.id === partId);
  if (!part) throw new RangeError(`study ${study.id} has no part ${partId}`);
  const flags = (args.quick ? part.quick : part.full).map((f, i, all) =>
    all[i - 1] === '--adapters'
      ? f
          .split(',')
          .filter((a) => !leaveOut.has(a))
          .join(',')
      : f,
  );
  return [
    ...flags,
    '--study',
    `${study.id}/${part.id}`,
    '--out',
    join(outDir, part.id),
    '--page',
    page,
    ...(args.browsers ? ['--browsers', args.browsers] : []),
  ];
}

/** The adapters a part's plan names. */
function adaptersOf(flags: readonly string[]): string[] {
  const i = flags.indexOf('--adapters');
  return i < 0 ? [] : (flags[i + 1] ?? '').split(',');
}

/**
 * Every complete results file below `dir` (partial files and the CSVs are not results). Links to
 * folders are followed, each real folder read once (a link back up is not walked again); a path
 * that cannot be read (a link loop, a broken link, no permission) is a ResultsError naming it.
 */
function resultsFilesBelow(dir: string, seen = new Set<string>()): string[] {
  const real = readable(dir, (d) => realpathSync(d));
  if (seen.has(real)) return [];
  seen.add(real);
  const out: string[] = [];
  for (const name of readable(dir, (d) => readdirSync(d))) {
    const path = join(dir, name);
    if (readable(path, (p) => statSync(p)).isDirectory())
      out.push(...resultsFilesBelow(path, seen));
    else if (name.endsWith('.json') && !name.endsWith('.partial.json')) out.push(path);
  }
  return out.sort();
}

const UNREADABLE: Record<string, string> = {
  ELOOP: 'a loop of symbolic links',
  ENOENT: 'a broken symbolic link (or removed while being read)',
  EACCES: 'permission denied',
  ENOTDIR: 'a part of the path is not a folder',
  ENAMETOOLONG: 'the path is too long',
};

/** `read(path)`, with a file-system error turned into a one-line ResultsError that names the path. */
function readable<T>(path: string, read: (path: string) => T): T {
  try {
    return read(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    throw new ResultsError(`cannot read ${path}: ${UNREADABLE[code] ?? (e as Error).message}`);
  }
}

export async function studyCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let args: StudyArgs;
  try {
    args = parseStudyArgs(argv);
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    io.stderr(`study: ${e.message} (see --help)\n`);
    return 2;
  }
  if (args.help) return (io.stdout(`${STUDY_USAGE}\n`), 0);
  if (args.list) return (io.stdout(`${studyList()}\n`), 0);
  const study = args.study as Study;
  const dir = resolve(args.out, study.id);
  try {
    // The study's own folder in --out, where its parts and its report go.
    checkOutputs(outputsOf(STUDY_FLAGS, { out: dir }));
    OutputDir.prepare(dir);
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    io.stderr(`study: ${e.message}\n`);
    return 2;
  }
  let failed = 0;
  if (!args.reportOnly) failed = await runParts(study, args, dir, io);
  // A sweep that refused its flags ran nothing: there is no report to write.
  if (failed === BAD_INPUT) return 2;
  return writeReport(study, dir, io) ?? (failed > 0 ? 1 : 0);
}

/** runParts' answer when a sweep refused its input (exit 2). */
const BAD_INPUT = -1;

/** Run the parts; the count of parts that failed, or BAD_INPUT. */
async function runParts(
  study: Study,
  args: StudyArgs,
  dir: string,
  io: CommandIo,
): Promise<number> {
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Named for this process, so a study killed with SIGKILL leaves a folder the next one removes (files/temp.ts).
  const page = makeTempFolder('study-page');
  const parts = study.parts.filter((p) => args.parts === null || args.parts.includes(p.id));
  let failed = 0;
  try {
    io.stdout(
      `storebench study ${study.id}${args.quick ? ' (quick)' : ''}: ${parts.length} part${parts.length === 1 ? '' : 's'} into ${displayPath(dir)}\n  building the page…\n`,
    );
    const ids = parts.flatMap((p) => adaptersOf(args.quick ? p.quick : p.full));
    const vocab = await loadVocabulary().catch((e: unknown) => e as Error);
    // A time limit the environment sets badly (args/time-limits.ts) is bad input, as in the sweep.
    if (vocab instanceof ConfigError) return (io.stderr(`study: ${vocab.message}\n`), BAD_INPUT);
    if (vocab instanceof Error) throw vocab;
    const failures = await buildStudyPage(page, ids, vocab, (line) => io.stdout(`  ${line}\n`));
    writeVariantFailures(dir, failures);
    io.stdout('  built\n');
    for (const [i, part] of parts.entries()) {
      if (stopped) break;
      io.stdout(`\n== part ${i + 1} of ${parts.length}: ${part.id}: ${part.title}\n`);
      const code = await runSweepChild(
        partArgv(study, part.id, args, dir, page, new Set(Object.keys(failures))),
      );
      if (code !== 0) {
        failed++;
        io.stderr(`study: part ${part.id}: the sweep exited ${code}\n`);
        if (code === 2) return BAD_INPUT;
      }
    }
  } finally {
    rmSync(page, { recursive: true, force: true });
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  if (stopped) io.stderr('study: stopped; the report covers the parts that ran\n');
  return failed + (stopped ? 1 : 0);
}

/** Write report.html and report.md from the results below `dir`; a code to exit with on failure. */
function writeReport(study: Study, dir: string, io: CommandIo): number | null {
  let docs: ResultsFile[];
  try {
    docs = readResultsFiles(resultsFilesBelow(dir)).flat();
  } catch (e) {
    if (!(e instanceof ResultsError)) throw e;
    io.stderr(`study: ${e.message}\n`);
    return 2;
  }
  const report = studyReport(study, docs, readVariantFailures(dir));
  const written: string[] = [];
  for (const [name, text] of [
    ['report.html', reportHtml(report)],
    ['report.md', reportMarkdown(report)],
  ] as const) {
    const path = join(dir, name);
    try {
      writeAtomically(path, text);
      written.push(path);
    } catch (e) {
      io.stderr(`study: ${outputFailure(path, e)}\n`);
      return 2;
    }
  }
  io.stdout(
    `\n${study.title}: ${Object.entries(report.tally)
      .map(([v, n]) => `${n} ${v}`)
      .join(
        ', ',
      )} (${report.documents} results files, ${report.browsers.join(', ') || 'no browser'})\n`,
  );
  for (const path of written) io.stdout(`  ${displayPath(path)}\n`);
  return null;
}

if (isEntry(import.meta.url)) runEntry('study', (argv) => studyCommand(argv, PROCESS_IO));
