/** A study report as a Markdown summary: the verdicts and figures of report-html.ts, without charts. */
import { claimText, fmt, formatPublished, formatRatio, type StudyReport } from './report.ts';

/** Table cells are text from results files: no pipes, no line breaks, no control characters. */
function cell(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\|/g, '\\|');
}

/** The title, the study and its source, the tally of verdicts and what they were read from. */
function header(report: StudyReport): string[] {
  const { study } = report;
  const s = study.source;
  return [
    `# ${study.title}: storebench report`,
    '',
    study.summary,
    '',
    `Source: ${s.author}, "${s.title}", ${s.date}${s.url ? `, <${s.url}>` : ''}. Measured on: ${s.setup}.${s.note ? ` ${s.note}.` : ''}`,
    '',
    `Verdicts: ${Object.entries(report.tally)
      .map(([v, n]) => `${n} ${v}`)
      .join(', ')}.`,
    `Today: ${report.environments.map((e) => cell(`${e.browser} (${e.name} ${e.version}, ${e.os})`)).join('; ') || 'no results of this study'}; ${report.documents} results files read (the latest of each part and browser counts).`,
    'Each verdict comes from the 95% interval of median(slower) ÷ median(faster), per operation.',
  ];
}

/** One section per finding: what was published, what was checked, and a row per browser and store. */
function findingSections(report: StudyReport): string[] {
  const lines: string[] = [];
  for (const { finding, cells } of report.findings) {
    lines.push('', `## ${finding.says}`, '');
    if (finding.published.length > 0)
      lines.push(`Published: ${finding.published.map(formatPublished).join('; ')}.`, '');
    if (finding.notMeasurable) {
      lines.push(`**Not measurable here**: ${finding.notMeasurable}.`);
      continue;
    }
    lines.push(
      `Checked: ${claimText(finding)}, part "${finding.part}".`,
      '',
      '| browser | store | ratio [95% interval] | verdict | |',
      '|---|---|---|---|---|',
    );
    for (const c of cells)
      lines.push(
        `| ${cell(c.browser)} | ${cell(c.adapter)} | ${formatRatio(c.ratio)} | ${c.verdict} | ${cell(c.why ?? '')} |`,
      );
    if (cells.length === 0) lines.push('| no rows of this part in the files | | | | |');
  }
  return lines;
}

/** A section of a heading and a table, or nothing when it has no rows. */
function tableSection(title: string, head: string, rule: string, rows: string[]): string[] {
  return rows.length > 0 ? ['', `## ${title}`, '', head, rule, ...rows] : [];
}

function referencesSection(report: StudyReport): string[] {
  const rows = report.references.map((r) => {
    const today =
      r.cells
        .map((c) =>
          cell(
            `${c.browser} · ${c.adapter}: ${fmt(c.medianMs)} ms${c.ci ? ` [${fmt(c.ci.lo)}, ${fmt(c.ci.hi)}]` : ''}`,
          ),
        )
        .join('; ') || 'not run at this size';
    return `| ${r.reference.says} | ${r.reference.published.map(formatPublished).join('; ')} | ${today} |`;
  });
  return tableSection(
    "Published times beside today's",
    '| what | published | today (median [95% interval]) |',
    '|---|---|---|',
    rows,
  );
}

function distributionSection(report: StudyReport): string[] {
  const { distribution } = report.study;
  if (!distribution) return [];
  return tableSection(
    distribution.says,
    '| browser | store | docs | runs | min | 25% | median | 75% | 95% | max (ms) |',
    '|---|---|---|---|---|---|---|---|---|---|',
    report.distribution.map(
      (d) =>
        `| ${cell(d.browser)} | ${cell(d.adapter)} | ${d.size} | ${d.n} | ${[d.min, d.p25, d.median, d.p75, d.p95, d.max].map(fmt).join(' | ')} |`,
    ),
  );
}

function growthSection(report: StudyReport): string[] {
  const { growth } = report.study;
  if (!growth) return [];
  return tableSection(
    growth.says,
    '| browser | store | batches | documents reached | first, median ms | last, median ms | last ÷ first |',
    '|---|---|---|---|---|---|---|',
    report.growth.map(
      (g) =>
        `| ${cell(g.browser)} | ${cell(g.adapter)} | ${g.batches} | ${g.reached} | ${fmt(g.first.median)} | ${fmt(g.last.median)} | ${formatRatio(g.ratio)} |`,
    ),
  );
}

function versionsSection(report: StudyReport): string[] {
  return tableSection(
    'Versions: change in speed (median(older) ÷ median(newer), above 1: the newer is faster)',
    '| case | size | browser | store | change in speed |',
    '|---|---|---|---|---|',
    report.versions.map(
      (v) =>
        `| ${v.suite}/${v.case} | ${v.size} | ${cell(v.browser)} | ${cell(`${v.store} ${v.older} → ${v.newer}`)} | ${formatRatio(v.ratio)} |`,
    ),
  );
}

export function reportMarkdown(report: StudyReport): string {
  const lines = [
    ...header(report),
    ...findingSections(report),
    ...referencesSection(report),
    ...distributionSection(report),
    ...growthSection(report),
    ...versionsSection(report),
  ];
  return `${lines.join('\n')}\n`;
}
