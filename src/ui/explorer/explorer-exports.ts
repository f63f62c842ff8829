/**
 * The explorer's exports, of what the filters leave: CSV (one row per case), raw-samples CSV,
 * the findings CSV, TSV to the clipboard, an XLSX workbook and JSON. The same exporters as `npm run export`
 * (src/export/), so a file from the page and one from the command line are identical.
 */
import { errorMessage } from '../../core/base/errors.ts';
import type { ResultsFile } from '../../core/results/results.ts';
import { toCsv, toFindingsCsv, toSamplesCsv } from '../../export/csv.ts';
import { toJson } from '../../export/json.ts';
import { toTsv } from '../../export/tsv.ts';
import { toXlsx } from '../../export/xlsx.ts';
import { h } from '../dom.ts';
import { saveBlob } from '../results/downloads.ts';

/** One export: its button's id, text and tooltip, and what it does with the documents shown; it returns the line to show. */
interface ExportSpec {
  id: string;
  text: string;
  title: string;
  run: (docs: ResultsFile[]) => Promise<string> | string;
}

/** Save text as a file named after the documents. */
function saveText(docs: readonly ResultsFile[], text: string, type: string, suffix: string): void {
  saveBlob(new Blob([text], { type }), `${stem(docs)}${suffix}`);
}

const CSV = 'text/csv;charset=utf-8';

const EXPORTS: readonly ExportSpec[] = [
  {
    id: 'explorer-csv',
    text: 'CSV',
    title: 'One row per case: every statistic and the environment (RFC 4180)',
    run: (docs) => {
      saveText(docs, toCsv(docs), CSV, '.csv');
      return 'CSV saved.';
    },
  },
  {
    id: 'explorer-samples-csv',
    text: 'Samples CSV',
    title: 'One row per raw sample, warm-up and timed',
    run: (docs) => {
      saveText(docs, toSamplesCsv(docs), CSV, '-samples.csv');
      return 'Samples CSV saved.';
    },
  },
  {
    id: 'explorer-findings-csv',
    text: 'Findings CSV',
    title:
      'What the runs found: one row per finding in a browser and store (claim, store, browser, ratio, lo, hi, verdict)',
    run: (docs) => {
      saveText(docs, toFindingsCsv(docs), CSV, '-findings.csv');
      return 'Findings CSV saved.';
    },
  },
  {
    id: 'explorer-tsv',
    text: 'Copy TSV',
    title: 'Copy the table as tab-separated text, to paste into Google Sheets or Excel',
    run: async (docs) => {
      const text = toTsv(docs);
      // The clipboard API exists only in secure contexts (https, or http on localhost).
      if (!navigator.clipboard)
        throw new Error(
          'this page cannot reach the clipboard here (it needs https or localhost); use CSV instead',
        );
      await navigator.clipboard.writeText(text);
      return `Copied ${docs.reduce((n, d) => n + d.cases.length, 0)} rows as TSV; paste them into a spreadsheet.`;
    },
  },
  {
    id: 'explorer-xlsx',
    text: 'XLSX',
    title: 'A workbook: one sheet per suite, an environment sheet and a findings sheet',
    run: async (docs) => {
      saveBlob(await toXlsx(docs), `${stem(docs)}.xlsx`);
      return 'Workbook saved.';
    },
  },
  {
    id: 'explorer-json',
    text: 'JSON',
    title: 'The results documents (an array when there are several)',
    run: (docs) => {
      const json = toJson(docs.length === 1 ? (docs[0] as ResultsFile) : docs);
      saveText(docs, json, 'application/json', '.json');
      return 'JSON saved.';
    },
  },
];

export class ExportsView {
  readonly element: HTMLElement;
  private readonly buttons: HTMLButtonElement[] = [];
  private readonly status: HTMLElement;

  constructor(private readonly docs: () => ResultsFile[]) {
    this.status = h('span', {
      className: 'export-status',
      attrs: { role: 'status', 'data-testid': 'export-status' },
    });
    this.element = h(
      'div',
      { className: 'explorer-exports' },
      h('span', { className: 'muted' }, 'Export what is shown:'),
      ...EXPORTS.map((spec) => this.button(spec)),
      this.status,
    );
    this.setEnabled(false);
  }

  setEnabled(on: boolean): void {
    for (const b of this.buttons) b.disabled = !on;
  }

  /** A button that runs its export on the documents shown, and says how it went. */
  private button({ id, text, title, run }: ExportSpec): HTMLButtonElement {
    const b = h(
      'button',
      { className: 'button button-small', title, attrs: { type: 'button', id } },
      text,
    );
    b.addEventListener('click', () => {
      const docs = this.docs();
      if (docs.length === 0) return;
      Promise.resolve()
        .then(() => run(docs))
        .then(
          (message) => this.say(message, false),
          (e: unknown) => this.say(`${text} failed: ${errorMessage(e)}`, true),
        );
    });
    this.buttons.push(b);
    return b;
  }

  private say(message: string, bad: boolean): void {
    this.status.textContent = message;
    this.status.classList.toggle('export-status-bad', bad);
  }
}

/** One run keeps the sweep's own name; several become `storebench-<n>-runs`. */
function stem(docs: readonly ResultsFile[]): string {
  const only = docs.length === 1 ? docs[0] : undefined;
  return only
    ? `${only.run.id}-${only.run.browser}`.replace(/[^A-Za-z0-9._-]+/g, '-')
    : `storebench-${docs.length}-runs`;
}
