/**
 * A sweep's summary as Markdown (`--summary FILE.md`), for a pull-request comment and
 * $GITHUB_STEP_SUMMARY: its verdict, its plan, for `--ab` the verdict table, what the run found,
 * and the medians with their 95% intervals. It stays within a comment's 65,536 characters: the
 * medians table, the longest part, loses rows first, and says how many are in the results files.
 * Pure: documents and the verdict in, text out; every name from a file is escaped for Markdown.
 */
import type { AbDecision, AbRow } from '../core/verdicts/ab.ts';
import { detectableCell, powerText } from '../core/verdicts/change.ts';
import { runPassesText } from '../core/verdicts/ab-size.ts';
import { checkDefaultFindings } from '../core/verdicts/default-findings.ts';
import { groupedFindings, type ListGroup } from '../core/verdicts/findings-grouped.ts';
import { formatCellRatio } from '../core/verdicts/findings.ts';
import type { CaseResult, ResultsFile } from '../core/results/results.ts';
import { Budget } from '../core/plan/budget.ts';
import {
  formatNoise,
  formatPrecisionSummary,
  precisionSummary,
} from '../core/verdicts/precision.ts';

/** GitHub's limit on a comment is 65,536 characters; the rest is room for what a workflow adds. */
const SUMMARY_MAX_CHARS = 60_000;

export interface SummaryInput {
  docs: readonly ResultsFile[];
  /** The sweep's last line: OK or FAILED and why, or the A/B decision. */
  verdict: string;
  /** With --ab: its rows over every browser, the decision and the threshold. */
  ab?: { decision: AbDecision; thresholdPct: number };
  maxChars?: number;
}

/** Text in a table cell or a line: Markdown's own characters escaped, no line break. */
export function md(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[\\`*_{}[\]()#+!|<>~]/g, (c) => `\\${c}`)
    .replace(/^-/, '\\-');
}

/**
 * Text as a Markdown code span: fenced with one backtick more than its longest run of them, so a
 * backtick in an `@git:` ref cannot close the span early, and on one line.
 */
export function codeSpan(text: string): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(flat) ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

const times = (x: number) => `×${x.toFixed(3)}`;

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function table(header: readonly string[], rows: readonly string[][], right: number[]): string[] {
  const rule = header.map((_, i) => (right.includes(i) ? '---:' : '---'));
  return [row(header), row(rule), ...rows.map(row)];
}

function planLine(docs: readonly ResultsFile[]): string {
  const doc = docs[0];
  if (!doc) return 'No browser completed: no results.';
  const p = doc.run.plan;
  const browsers = docs.map(
    (d) =>
      `${md(d.run.browser)} (${md(d.environment.browser.name)} ${md(d.environment.browser.version)})`,
  );
  const browserMs = new Budget(p).browserMs;
  const sampling = browserMs
    ? `budget ${Math.round(browserMs / 1000)} s`
    : `${p.iterations} samples a row`;
  return `Plan: suites ${p.suites.map(md).join(', ')} · stores ${p.adapters.map(md).join(', ')} · sizes ${p.sizes.join(', ')} · ${sampling} · ${browsers.join(', ')}`;
}

function abSection(ab: NonNullable<SummaryInput['ab']>, docs: readonly ResultsFile[]): string[] {
  const { decision, thresholdPct } = ab;
  const passes = runPassesText(decision.rows, docs);
  const rows = decision.rows;
  if (rows.length === 0) return ['No case ran on both stores.'];
  const lines = rows.map((r) => [
    md(r.browser),
    md(`${r.suite}/${r.case}`),
    String(r.size),
    r.ratio ? times(r.ratio.ratio) : '-',
    r.ratio ? `[${times(r.ratio.lo)}, ${times(r.ratio.hi)}]` : md(r.why ?? ''),
    r.ratio ? String(r.ratio.passes) : '-',
    r.neither
      ? 'not compared'
      : r.verdict === 'slower'
        ? `**${r.verdict}: fails the run**`
        : r.verdict,
    detectableCell(r, '-'),
  ]);
  const { a, b, sides } = rows[0] as AbRow;
  return [
    `#### B = ${codeSpan(sides?.b ?? b)} against A = ${codeSpan(sides?.a ?? a)}`,
    '',
    ...table(
      ['browser', 'case', 'size', 'B/A', '95% interval', 'passes', 'verdict', 'would catch'],
      lines,
      [2, 3, 5, 7],
    ),
    '',
    `**${md(powerText(decision.power))}.**`,
    '',
    ...(passes === null ? [] : [`Passes: ${md(passes)}.`, '']),
    `<sub>B/A: B's median over A's in each pass (a browser launch of its own), a geometric mean over passes; its 95% interval is Student's t over the passes. slower: B/A beyond +${thresholdPct}% and B shown slower with the chance of any false alarm over all rows held at 5% (Holm): it fails the run; faster: the mirror image; same: the whole interval within ±${thresholdPct}%; undecided: none of these. would catch: the smallest B/A the run would have flagged in the row with 80% probability.</sub>`,
  ];
}

function groupLines(g: ListGroup): string[] {
  const measured = g.measured.map((m) => {
    const names = m.finding.names;
    const what =
      g.label !== null && m.finding.topic === 'fastest' && names
        ? `${md(names.faster)} ${formatCellRatio(m.cell)} faster than ${md(names.slower)}`
        : `${md(m.cell.adapter)} ${formatCellRatio(m.cell)}`;
    return `${g.label !== null ? `${md(g.label)}: ` : ''}${what}: **${m.cell.verdict}**`;
  });
  const missing = g.missing.map(
    (f) =>
      `missing on ${f.every ? `every store (${f.stores.length})` : f.stores.map(md).join(', ')}: ${md(f.why)}`,
  );
  return [...measured, ...missing].map((l) => `  - ${md(g.browser)} · ${l}`);
}

function findingsSection(docs: readonly ResultsFile[]): string[] {
  const topics = groupedFindings(checkDefaultFindings(docs));
  if (topics.length === 0) return [];
  return [
    '#### What this run found',
    '',
    '<sub>Each finding is the ratio of two medians per operation, slower ÷ faster, with its 95% interval, and its verdict.</sub>',
    '',
    ...topics.flatMap((t) => [`- **${md(t.title)}**`, ...t.groups.flatMap(groupLines)]),
  ];
}

function medianCell(c: CaseResult | undefined): string {
  if (!c) return '';
  if (c.status !== 'ok' || !c.stats) return c.status;
  const ci = c.stats.medianCi;
  const p = (x: number) => x.toPrecision(3);
  return ci ? `${p(c.stats.median)} [${p(ci.lo)}, ${p(ci.hi)}]` : `${p(c.stats.median)} (n<6)`;
}

/** One row per case, size and store; a column per browser. */
function medianRows(docs: readonly ResultsFile[]): string[][] {
  const keyOf = (c: CaseResult) => JSON.stringify([c.suite, c.case, c.size, c.adapter, c.params]);
  const byDoc = docs.map((d) => new Map(d.cases.map((c) => [keyOf(c), c])));
  const keys = new Map<string, CaseResult>();
  for (const d of docs) for (const c of d.cases) if (!keys.has(keyOf(c))) keys.set(keyOf(c), c);
  return [...keys].map(([key, c]) => [
    md(`${c.suite}/${c.case}`),
    String(c.size),
    md(c.adapter),
    ...byDoc.map((cases) => medianCell(cases.get(key))),
  ]);
}

/** Each browser's precision line and noise floor, as the sweep prints them. */
function precisionLines(docs: readonly ResultsFile[]): string[] {
  return docs.map((d) => {
    const s = precisionSummary(d.cases, d.run.plan.auto?.targetRelCi);
    const noise = s.noise ? `; noise: ${formatNoise(s.noise)}` : '';
    return `- ${md(d.run.browser)}: ${md(formatPrecisionSummary(s) + noise)}`;
  });
}

export function summaryMarkdown(input: SummaryInput): string {
  const { docs } = input;
  const max = input.maxChars ?? SUMMARY_MAX_CHARS;
  const head = [
    `### storebench ${md(docs[0]?.run.id ?? '')}`,
    '',
    `**${md(input.verdict)}**`,
    '',
    planLine(docs),
    '',
    ...(docs.length > 0 ? ['Precision:', '', ...precisionLines(docs), ''] : []),
    ...(input.ab ? [...abSection(input.ab, docs), ''] : []),
    ...findingsSection(docs),
    '',
    '#### Medians',
    '',
  ].join('\n');
  const header = [
    'case',
    'size',
    'store',
    ...docs.map((d) => `${md(d.run.browser)}: median ms [95% CI]`),
  ];
  const [first, rule, ...rows] = table(header, medianRows(docs), [1]);
  // The rows that fit, each with its line break, beside the note of how many did not.
  const room = max - head.length - `${first}\n${rule}\n`.length - 60;
  let used = 0;
  let kept = 0;
  while (kept < rows.length && used + (rows[kept] as string).length + 1 <= room)
    used += (rows[kept++] as string).length + 1;
  const note =
    kept < rows.length ? [`\n(${rows.length - kept} more rows in the results files)`] : [];
  return `${[head, first, rule, ...rows.slice(0, kept), ...note].join('\n')}\n`.slice(0, max);
}

/** A command that writes --summary on every outcome, and what each of its exit codes means for CI. */
export interface SummaryCommand {
  name: 'sweep' | 'check';
  meanings: Readonly<Record<number, string>>;
  /** What exit 0 still leaves untold, so a summary is written for it too (check); the sweep's report tells it. */
  writesOk: boolean;
}

export const SWEEP_SUMMARY: SummaryCommand = {
  name: 'sweep',
  meanings: {
    0: 'every browser completed, no row is error or timeout, and with --ab or --baseline no row is slower',
    1: 'a browser did not complete, a row is error or timeout, the run was stopped or crashed; with --ab or --baseline, a row is slower',
    2: 'refused before any timing: bad input, or a store broke the adapter contract',
    3: 'with --ab: no row compared, or (--detect) too many rows unable to catch that slowdown; with --baseline: too few rows compared',
  },
  writesOk: false,
};

export const CHECK_SUMMARY: SummaryCommand = {
  name: 'check',
  meanings: {
    0: 'every store keeps the adapter contract in every browser it runs in',
    1: 'a browser could not run the contract',
    2: 'a store broke the adapter contract, or bad flags, store names or config',
  },
  writesOk: true,
};

/**
 * The summary of a run that ended without results to tell: the sweep's refused input, a store
 * that broke the adapter contract (which checks, in which browser), a crash; or a check, whatever
 * its outcome. Its lines are what the command said, each escaped; the exit code with its meaning.
 */
export function endedSummaryMarkdown(
  code: number,
  lines: readonly string[],
  command: SummaryCommand = SWEEP_SUMMARY,
): string {
  const meaning = command.meanings[code] ?? `not a code ${command.name} gives`;
  const contract = lines.filter((l) => l.trimStart().startsWith('FAIL '));
  const others = lines.filter((l) => !contract.includes(l));
  const headline =
    code === 0
      ? `**OK: exit 0, ${md(meaning)}.**`
      : `**FAILED: exit ${code}, ${md(meaning)}.**${command.name === 'sweep' ? ' Nothing was timed, or no results were written.' : ''}`;
  return [
    `### storebench ${command.name === 'check' ? 'check' : ''}`.trimEnd(),
    '',
    headline,
    '',
    ...(contract.length > 0
      ? [
          '#### The adapter contract failed',
          '',
          ...contract.map((l) => `- ${md(l.trim().replace(/^FAIL /, ''))}`),
          '',
        ]
      : []),
    ...(others.length > 0
      ? [`#### What the ${command.name} said`, '', ...others.map((l) => `- ${md(l)}`), '']
      : []),
  ].join('\n');
}
