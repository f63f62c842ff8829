/**
 * Download JSON, Download CSV, and CSV for Excel (the same CSV after a byte-order mark, without
 * which Excel reads it in a legacy code page and garbles "×"). File names match the sweep's (`<run-id>-<browser>.json`), so
 * files from the page and from a sweep sit together in one results folder.
 */
import type { ResultsFile } from '../../core/results/results.ts';
import { toCsv, withBom } from '../../export/csv.ts';
import { toJson } from '../../export/json.ts';
import { h } from '../dom.ts';

export class Downloads {
  readonly element: HTMLElement;
  private readonly json: HTMLButtonElement;
  private readonly csv: HTMLButtonElement;
  private readonly excel: HTMLButtonElement;
  private results: ResultsFile | null = null;

  constructor() {
    this.json = h(
      'button',
      { className: 'button', attrs: { type: 'button', id: 'download-json', disabled: '' } },
      'Download JSON',
    );
    this.csv = h(
      'button',
      { className: 'button', attrs: { type: 'button', id: 'download-csv', disabled: '' } },
      'Download CSV',
    );
    this.excel = h(
      'button',
      {
        className: 'button',
        attrs: {
          type: 'button',
          id: 'download-csv-excel',
          disabled: '',
          title: 'The CSV with a byte-order mark, so Excel reads it as UTF-8',
        },
      },
      'CSV for Excel',
    );
    this.json.addEventListener('click', () => this.save('json'));
    this.csv.addEventListener('click', () => this.save('csv'));
    this.excel.addEventListener('click', () => this.save('csv', true));
    this.element = h('div', { className: 'downloads' }, this.json, this.csv, this.excel);
  }

  setResults(results: ResultsFile | null): void {
    this.results = results;
    this.json.disabled = results === null;
    this.csv.disabled = results === null;
    this.excel.disabled = results === null;
  }

  private save(format: 'json' | 'csv', bom = false): void {
    const results = this.results;
    if (!results) return;
    const text =
      format === 'json' ? toJson(results) : bom ? withBom(toCsv(results)) : toCsv(results);
    const type = format === 'json' ? 'application/json' : 'text/csv;charset=utf-8';
    saveBlob(new Blob([text], { type }), `${results.run.id}-${results.run.browser}.${format}`);
  }
}

/** Hand a blob to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = h('a', { attrs: { href: url, download: name } });
  document.body.append(a);
  a.click();
  a.remove();
  // Some browsers read the blob after click() returns; give them a moment before freeing it.
  setTimeout(() => URL.revokeObjectURL(url), 5_000);
}
