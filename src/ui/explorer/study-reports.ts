/**
 * The explorer's study reports: when the open files hold rows that `npm run study` tagged, the
 * same report the command writes (src/studies/report-html.ts), one per study, in a sandboxed
 * frame that runs nothing, with the report's own HTML to download.
 */
import type { ResultsFile } from '../../core/results/results.ts';
import { STUDIES } from '../../studies/index.ts';
import { studyReport } from '../../studies/report.ts';
import { reportHtml } from '../../studies/report-html.ts';
import { h } from '../dom.ts';
import { saveBlob } from '../results/downloads.ts';

export class StudyReportsView {
  readonly element = h('div', {
    className: 'study-reports',
    attrs: { 'data-testid': 'study-reports' },
  });

  render(docs: readonly ResultsFile[]): void {
    const studies = STUDIES.filter((s) =>
      docs.some((d) => d.run.plan.study?.startsWith(`${s.id}/`)),
    );
    this.element.replaceChildren();
    this.element.hidden = studies.length === 0;
    for (const study of studies) {
      const report = studyReport(study, docs);
      const html = reportHtml(report);
      const tally = Object.entries(report.tally)
        .filter(([, n]) => n > 0)
        .map(([v, n]) => `${n} ${v}`)
        .join(', ');
      // sandbox="" runs no script and gives the frame an opaque origin: a report of a hostile file can only be read.
      const frame = h('iframe', {
        className: 'study-report-frame',
        attrs: { sandbox: '', title: `${study.title}: storebench report` },
      });
      frame.srcdoc = html;
      const download = h(
        'button',
        { className: 'button button-small', attrs: { type: 'button' } },
        'Download report (HTML)',
      );
      download.addEventListener('click', () =>
        saveBlob(new Blob([html], { type: 'text/html' }), `${study.id}-report.html`),
      );
      this.element.append(
        h(
          'details',
          { className: 'study-report', attrs: { 'data-study': study.id } },
          h(
            'summary',
            {},
            `Study report: ${study.title} (${tally}; ${report.browsers.join(', ')})`,
          ),
          h('div', { className: 'study-report-tools' }, download),
          frame,
        ),
      );
    }
  }
}
