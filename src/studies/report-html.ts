/**
 * A study report as one self-contained HTML page: styles inline, every chart an inline SVG, no
 * script and nothing fetched, so it opens from disk and a results file's text can only ever be
 * shown (every string passes through `esc`).
 */
import type { FindingVerdict } from '../core/verdicts/findings.ts';
import {
  claimText,
  fmt,
  formatPublished,
  formatRatio,
  storePair,
  type FindingCell,
  type FindingReport,
  type StudyReport,
} from './report.ts';

const VERDICT_COLOUR: Record<FindingVerdict, string> = {
  holds: '#1a7f37',
  reversed: '#cf222e',
  differs: '#bc4c00',
  slower: '#cf222e',
  faster: '#1a7f37',
  same: '#0969da',
  undecided: '#6e7781',
  missing: '#9a6700',
  'not measurable': '#8250df',
};

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;max-width:1000px;margin:2rem auto;padding:0 1rem;color:#1f2328}
h1{font-size:1.6rem}h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #d0d7de}h3{font-size:1.05rem;margin-bottom:.25rem}
table{border-collapse:collapse;margin:.5rem 0;font-size:.9rem}th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}.verdict{font-weight:600}.muted{color:#59636e}
.tally span{display:inline-block;margin-right:1rem}svg{max-width:100%;height:auto}
@media (max-width:600px){body{font-size:14px}h1{font-size:1.3rem}table{display:block;overflow-x:auto}}`;

export function reportHtml(
  report: StudyReport,
  title = `${report.study.title}: storebench report`,
): string {
  const { study } = report;
  const s = study.source;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head><body>
<h1>${esc(title)}</h1>
<p>${esc(study.summary)}</p>
<p class="muted">Source: ${esc(s.author)}, “${s.url ? `<a href="${esc(s.url)}">${esc(s.title)}</a>` : esc(s.title)}”, ${esc(s.date)}. Measured on: ${esc(s.setup)}.${s.note ? ` ${esc(s.note)}.` : ''}</p>
<p class="tally">${Object.entries(report.tally)
    .map(
      ([v, n]) =>
        `<span style="color:${VERDICT_COLOUR[v as FindingVerdict]}"><b>${n}</b> ${esc(v)}</span>`,
    )
    .join('')}</p>
<p class="muted">Today: ${report.environments.map((e) => `${esc(e.browser)} (${esc(e.name)} ${esc(e.version)}, ${esc(e.os)})`).join('; ') || 'no results of this study'}. ${report.documents} results files read (the latest of each part and browser counts).
Each verdict comes from the 95% interval of slower ÷ faster per operation, paired by pass where the two rows share passes, else the ratio of the two medians: holds when the whole interval is on the study's side, reversed when it is wholly on the other, same when it is wholly within ±5%, undecided when it reaches across or there is none; missing when a row is absent or not ok.</p>
${report.findings.map(findingSection).join('\n')}
${referencesSection(report)}
${distributionSection(report)}
${growthSection(report)}
${versionsSection(report)}
</body></html>
`;
}

function findingSection(f: FindingReport): string {
  const { finding } = f;
  const published =
    finding.published.length > 0
      ? `<p>Published: ${finding.published.map((p) => esc(formatPublished(p))).join('; ')}.</p>`
      : '<p class="muted">No published number; the claim is the study’s text.</p>';
  if (finding.notMeasurable) {
    return `<h3>${esc(finding.says)}</h3>${published}<p class="verdict" style="color:${VERDICT_COLOUR['not measurable']}">not measurable here: ${esc(finding.notMeasurable)}</p>`;
  }
  const rows = f.cells
    .map(
      (c) =>
        `<tr><td>${esc(c.browser)}</td><td>${esc(c.adapter)}</td><td class="num">${esc(formatRatio(c.ratio))}</td><td class="verdict" style="color:${VERDICT_COLOUR[c.verdict]}">${esc(c.verdict)}</td><td class="muted">${esc(c.why ?? '')}</td></tr>`,
    )
    .join('');
  return `<h3>${esc(finding.says)}</h3>${published}<p class="muted">Checked: ${esc(claimText(finding))}, part “${esc(finding.part)}”.</p>
${ratioChart(f)}
<table><thead><tr><th>browser</th><th>store</th><th>ratio [95% interval]</th><th>verdict</th><th></th></tr></thead><tbody>${rows || '<tr><td colspan="5">no rows of this part in the files</td></tr>'}</tbody></table>`;
}

/** Dot and whisker per browser and store on a log axis, with 1 (and an `about` claim's band) marked. */
function ratioChart(f: FindingReport): string {
  const cells = f.cells.filter(
    (c): c is FindingCell & { ratio: NonNullable<FindingCell['ratio']> } => c.ratio !== null,
  );
  if (cells.length === 0) return '';
  const claim = f.finding.claim;
  const band =
    claim.kind === 'about' ? [claim.value / claim.tolerance, claim.value * claim.tolerance] : null;
  const values = cells.flatMap((c) => [c.ratio.lo, c.ratio.hi]).concat(band ?? [], [1]);
  const lo = Math.log10(Math.min(...values) / 1.3);
  const hi = Math.log10(Math.max(...values) * 1.3);
  const [left, width, row] = [250, 420, 20];
  const x = (v: number) => left + ((Math.log10(v) - lo) / (hi - lo)) * width;
  const height = cells.length * row + 34;
  const ticks = [0.01, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 1000].filter(
    (t) => Math.log10(t) >= lo && Math.log10(t) <= hi,
  );
  const parts = [
    band
      ? `<rect x="${x(band[0]!)}" y="0" width="${x(band[1]!) - x(band[0]!)}" height="${cells.length * row}" fill="#ddf4ff"/>`
      : '',
    `<line x1="${x(1)}" x2="${x(1)}" y1="0" y2="${cells.length * row}" stroke="#59636e" stroke-dasharray="3 3"/>`,
    ...ticks.map(
      (t) =>
        `<text x="${x(t)}" y="${cells.length * row + 14}" font-size="11" text-anchor="middle" fill="#59636e">${fmt(t)}×</text>`,
    ),
    `<text x="${left + width / 2}" y="${cells.length * row + 30}" font-size="11" text-anchor="middle" fill="#59636e">median(${esc(f.finding.slower.case)}) ÷ median(${esc(f.finding.faster.case)}), log scale</text>`,
    ...cells.map((c, i) => {
      const y = i * row + row / 2;
      const colour = VERDICT_COLOUR[c.verdict];
      return `<text x="${left - 8}" y="${y + 4}" font-size="12" text-anchor="end">${esc(`${c.browser} · ${c.adapter}`)}</text><line x1="${x(c.ratio.lo)}" x2="${x(c.ratio.hi)}" y1="${y}" y2="${y}" stroke="${colour}" stroke-width="2"/><circle cx="${x(c.ratio.ratio)}" cy="${y}" r="4" fill="${colour}"/>`;
    }),
  ];
  return `<svg viewBox="0 0 ${left + width + 20} ${height}" width="${left + width + 20}" height="${height}" role="img" aria-label="${esc(f.finding.says)}">${parts.join('')}</svg>`;
}

function referencesSection(report: StudyReport): string {
  if (report.references.length === 0) return '';
  const rows = report.references
    .map((r) => {
      const today =
        r.cells.length > 0
          ? r.cells
              .map(
                (c) =>
                  `${esc(c.browser)} · ${esc(c.adapter)}: ${fmt(c.medianMs)} ms${c.ci ? ` [${fmt(c.ci.lo)}, ${fmt(c.ci.hi)}]` : ''}`,
              )
              .join('<br>')
          : '<span class="muted">not run at this size</span>';
      return `<tr><td>${esc(r.reference.says)}</td><td>${r.reference.published.map((p) => esc(formatPublished(p))).join('<br>')}</td><td>${today}</td></tr>`;
    })
    .join('');
  return `<h2>Published times beside today's</h2><p class="muted">Absolute times on other hardware and software: shown, not judged. Today: median of one sample with its 95% interval.</p>
<table><thead><tr><th>what</th><th>published</th><th>today</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function distributionSection(report: StudyReport): string {
  if (!report.study.distribution || report.distribution.length === 0) return '';
  const rows = report.distribution
    .map(
      (d) =>
        `<tr><td>${esc(d.browser)}</td><td>${esc(d.adapter)}</td><td class="num">${d.size.toLocaleString('en-US')}</td><td class="num">${d.n}</td>${[d.min, d.p25, d.median, d.p75, d.p95, d.max].map((v) => `<td class="num">${fmt(v)}</td>`).join('')}</tr>`,
    )
    .join('');
  return `<h2>${esc(report.study.distribution.says)}</h2><p class="muted">ms per run (one sample), every timed sample of each row.</p>
<table><thead><tr><th>browser</th><th>store</th><th>docs</th><th>runs</th><th>min</th><th>25%</th><th>median</th><th>75%</th><th>95%</th><th>max</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function growthSection(report: StudyReport): string {
  if (!report.study.growth || report.growth.length === 0) return '';
  const rows = report.growth
    .map(
      (g) =>
        `<tr><td>${esc(g.browser)}</td><td>${esc(g.adapter)}</td><td class="num">${g.batches}</td><td class="num">${g.reached.toLocaleString('en-US')}</td><td class="num">${fmt(g.first.median)}</td><td class="num">${fmt(g.last.median)}</td><td class="num">${esc(formatRatio(g.ratio))}</td></tr>`,
    )
    .join('');
  return `<h2>${esc(report.study.growth.says)}</h2><p class="muted">Median ms per batch of the first and of the last batches (up to ${report.study.growth.batches} each), and last ÷ first with its 95% interval: above 1 when batches got slower as the store grew.</p>
<table><thead><tr><th>browser</th><th>store</th><th>batches</th><th>documents reached</th><th>first, median ms</th><th>last, median ms</th><th>last ÷ first</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function versionsSection(report: StudyReport): string {
  // The source's own version factors: findings that compare two versions, or that could not be measured here.
  const published = report.findings.filter(
    (f) =>
      (f.finding.notMeasurable || storePair(f.finding)) &&
      f.finding.published.length > 0 &&
      f.finding.published.every((p) => p.unit === '×'),
  );
  const columns = [
    ...new Set(published.flatMap((f) => f.finding.published.map((p) => p.measuredIn))),
  ];
  const publishedTable =
    published.length === 0
      ? ''
      : `<h2>Published change in speed</h2><p class="muted">As the source tabled it, one column per browser it measured.</p>
<table><thead><tr><th>test</th>${columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>${published
          .map(
            (f) =>
              `<tr><td>${esc(f.finding.says)}</td>${columns
                .map(
                  (c) =>
                    `<td class="num">${esc(
                      f.finding.published
                        .find((p) => p.measuredIn === c)
                        ?.value.toString()
                        .concat('×') ?? 'N/A',
                    )}</td>`,
                )
                .join('')}</tr>`,
          )
          .join('')}</tbody></table>`;
  if (report.versions.length === 0) return publishedTable;
  const browsers = [...new Set(report.versions.map((v) => v.browser))];
  const keyOf = (v: (typeof report.versions)[number]) =>
    `${v.suite}/${v.case} · ${v.size.toLocaleString('en-US')} docs · ${v.store} ${v.older} → ${v.newer}`;
  const rowKeys = [...new Set(report.versions.map(keyOf))];
  const rows = rowKeys
    .map(
      (k) =>
        `<tr><td>${esc(k)}</td>${browsers.map((b) => `<td class="num">${esc(formatRatio(report.versions.find((v) => keyOf(v) === k && v.browser === b)?.ratio ?? null))}</td>`).join('')}</tr>`,
    )
    .join('');
  return `${publishedTable}<h2>Versions today: change in speed</h2><p class="muted">In the source's layout: median(older) ÷ median(newer) per operation, above 1 when the newer version is faster, with its 95% interval; one column per browser.</p>
<table><thead><tr><th>test</th>${browsers.map((b) => `<th>${esc(b)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`;
}
