/** A study report as a Markdown summary: the verdicts and figures of report-html.ts, without charts. */
import { claimText, fmt, formatPublished, formatRatio, type StudyReport } from './report.ts';

/** Table cells are text from results files: no pipes, no line breaks, no control characters. */
function cell(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\|/g, '\\|');
}

export function reportMarkdown(report: StudyReport): string {
  const { study } = report;
  const s = study.source;
  const lines = [
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
  if (report.references.length > 0) {
    lines.push(
      '',
      "## Published times beside today's",
      '',
      '| what | published | today (median [95% interval]) |',
      '|---|---|---|',
    );
    for (const r of report.references) {
      const today =
        r.cells
          .map((c) =>
            cell(
              `${c.browser} · ${c.adapter}: ${fmt(c.medianMs)} ms${c.ci ? ` [${fmt(c.ci.lo)}, ${fmt(c.ci.hi)}]` : ''}`,
            ),
          )
          .join('; ') || 'not run at this size';
      lines.push(
        `| ${r.reference.says} | ${r.reference.published.map(formatPublished).join('; ')} | ${today} |`,
      );
    }
  }
  if (report.study.distribution && report.distribution.length > 0) {
    lines.push(
      '',
      `## ${report.study.distribution.says}`,
      '',
      '| browser | store | docs | runs | min | 25% | median | 75% | 95% | max (ms) |',
      '|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const d of report.distribution)
      lines.push(
        `| ${cell(d.browser)} | ${cell(d.adapter)} | ${d.size} | ${d.n} | ${[d.min, d.p25, d.median, d.p75, d.p95, d.max].map(fmt).join(' | ')} |`,
      );
  }
  if (report.study.growth && report.growth.length > 0) {
    lines.push(
      '',
      `## ${report.study.growth.says}`,
      '',
      '| browser | store | batches | documents reached | first, median ms | last, median ms | last ÷ first |',
      '|---|---|---|---|---|---|---|',
    );
    for (const g of report.growth)
      lines.push(
        `| ${cell(g.browser)} | ${cell(g.adapter)} | ${g.batches} | ${g.reached} | ${fmt(g.first.median)} | ${fmt(g.last.median)} | ${formatRatio(g.ratio)} |`,
      );
  }
  if (report.versions.length > 0) {
    lines.push(
      '',
      '## Versions: change in speed (median(older) ÷ median(newer), above 1: the newer is faster)',
      '',
      '| case | size | browser | store | change in speed |',
      '|---|---|---|---|---|',
    );
    for (const v of report.versions)
      lines.push(
        `| ${v.suite}/${v.case} | ${v.size} | ${cell(v.browser)} | ${cell(`${v.store} ${v.older} → ${v.newer}`)} | ${formatRatio(v.ratio)} |`,
      );
  }
  return `${lines.join('\n')}\n`;
}
