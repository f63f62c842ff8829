/**
 * Where the explorer's results come from: a file picker, files dropped on the panel, the files
 * served from results/ (listed at start from results/index.json), and the run just finished.
 * It reads and validates; the explorer decides what to show.
 */
import { errorMessage } from '../../core/base/errors.ts';
import {
  validateResultsIndex,
  validateResultsInputInSteps,
  type ResultsIndexEntry,
} from '../../core/results/input.ts';
import {
  MAX_RESULTS_BYTES,
  parseResultsJson,
  type ResultsFile,
} from '../../core/results/results.ts';
import { h } from '../dom.ts';
import type { LoadedFile } from '../model/explorer-model.ts';
import { formatBytes } from '../../core/base/format.ts';
import { SectionFold } from './section-fold.ts';

export interface SourcesEvents {
  /** Documents read from a local file: one file may hold several (an array, from npm run merge). */
  onLocal: (files: LoadedFile[]) => void;
  /** A served file ticked or unticked in the list. */
  onServedToggle: (name: string, on: boolean) => void;
  onRemove: (id: string) => void;
}

const RESULTS_BASE = 'results/';

/**
 * Rows of one file the explorer opens: its table, charts and filters are redrawn whole on every
 * change, and 20,000 rows already take seconds; the CLI (npm run compare, npm run export) reads
 * files up to the caps of every reader (src/core/schema/bounds.ts).
 */
const EXPLORER_MAX_ROWS = 20_000;

/** The next task: the browser draws and answers input before validation goes on. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Parse and validate a file's text for the explorer, a few rows' statistics at a time; a file it cannot draw is refused first. */
async function readResults(text: string, name: string): Promise<ResultsFile[]> {
  const data = parseResultsJson(text, name);
  let rows = 0;
  for (const doc of Array.isArray(data) ? data : [data]) {
    const cases = (doc as { cases?: unknown } | null)?.cases;
    if (Array.isArray(cases)) rows += cases.length;
  }
  if (rows > EXPLORER_MAX_ROWS) {
    throw new Error(
      `${name}: ${rows.toLocaleString('en-US')} rows is more than the ${EXPLORER_MAX_ROWS.toLocaleString('en-US')} the explorer draws; read it with npm run compare or npm run export`,
    );
  }
  return validateResultsInputInSteps(data, name, nextTask);
}

/** Read and validate a served file; the message names the file and, when invalid, the field. */
export async function fetchServed(name: string, base: string): Promise<LoadedFile[]> {
  const url = new URL(`${RESULTS_BASE}${encodeURIComponent(name)}`, base);
  let text: string;
  try {
    const res = await fetch(url, { cache: 'no-store' });
    if (!res.ok) throw new Error(`HTTP ${res.status} for ${url.pathname}`);
    // A server that answers every path with its page (an SPA fallback) would otherwise read as "not JSON".
    const type = res.headers.get('content-type') ?? '';
    if (/html/i.test(type))
      throw new Error(
        `${url.pathname} is a page (${type}), not a results file; is the name right?`,
      );
    text = await res.text();
  } catch (e) {
    throw new Error(`${name}: could not load it: ${errorMessage(e)}`, { cause: e });
  }
  return asLoaded(await readResults(text, name), `served:${name}`, name, 'served');
}

export async function readLocal(file: File): Promise<LoadedFile[]> {
  if (file.size > MAX_RESULTS_BYTES)
    throw new Error(
      `${file.name}: ${file.size} bytes is larger than the ${MAX_RESULTS_BYTES}-byte limit for a results file; it was not read`,
    );
  return asLoaded(
    await readResults(await file.text(), file.name),
    `local:${file.name}`,
    file.name,
    'local',
  );
}

function asLoaded(
  docs: ResultsFile[],
  id: string,
  label: string,
  origin: LoadedFile['origin'],
): LoadedFile[] {
  if (docs.length === 1) return [{ id, label, origin, results: docs[0] as ResultsFile }];
  return docs.map((results, i) => ({
    id: `${id}#${i}`,
    label: `${label} [${i}]`,
    origin,
    results,
  }));
}

/** Names that may run long, listed up to a few: "a, b, c and 4 more". */
function fewOf(names: readonly string[], few = 5): string {
  const shown = names.slice(0, few);
  const rest = names.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

/** The folded list's line: how many files, their browsers and suites, and how many are open. */
export function servedLine(
  index: readonly ResultsIndexEntry[],
  loadedNames: ReadonlySet<string>,
): string {
  const docs = index.flatMap((f) => f.documents ?? []);
  const browsers = [...new Set(docs.map((d) => d.browser))];
  const suites = [...new Set(docs.flatMap((d) => d.suites))];
  const open = index.filter((f) => loadedNames.has(f.name)).length;
  const files = `${index.length} file${index.length === 1 ? '' : 's'}`;
  const what =
    docs.length === 0
      ? ''
      : ` of ${fewOf(browsers)} (${suites.length === 1 ? 'suite' : 'suites'} ${fewOf(suites)})`;
  return `${files}${what}, ${open === 0 ? 'none' : open} open: tick one to open it.`;
}

export class SourcesView {
  readonly element: HTMLElement;
  private readonly served: HTMLElement;
  private readonly servedList = h('ul', { className: 'served-files' });
  private readonly servedFold = new SectionFold('served-fold', 'In results/', this.servedList);
  private readonly loaded: HTMLElement;
  private readonly errors: HTMLElement;
  private readonly input: HTMLInputElement;
  private index: ResultsIndexEntry[] = [];

  constructor(
    private readonly events: SourcesEvents,
    dropTarget: HTMLElement,
  ) {
    this.input = h('input', {
      attrs: {
        type: 'file',
        accept: '.json,application/json',
        multiple: '',
        id: 'explorer-file',
        'data-testid': 'explorer-file',
      },
    });
    this.input.addEventListener('change', () => {
      void this.readFiles([...(this.input.files ?? [])]);
      this.input.value = '';
    });
    const pick = h(
      'label',
      { className: 'button', attrs: { for: 'explorer-file' } },
      'Open results files…',
    );
    this.served = h(
      'div',
      { className: 'served', attrs: { 'data-testid': 'served-list' } },
      h('p', { className: 'muted' }, 'Listing results/…'),
    );
    this.loaded = h('ul', { className: 'loaded', attrs: { 'data-testid': 'loaded-list' } });
    this.errors = h('ul', {
      className: 'load-errors',
      attrs: { role: 'alert', 'data-testid': 'load-errors' },
    });
    this.element = h(
      'div',
      { className: 'explorer-sources' },
      h(
        'div',
        { className: 'source-pick' },
        pick,
        this.input,
        h(
          'span',
          { className: 'muted' },
          ' or drop .json files anywhere on this panel. Each file holds one results document or an array of them.',
        ),
      ),
      this.served,
      this.loaded,
      this.errors,
    );
    this.errors.hidden = true;

    // Drag and drop: every dragover must be cancelled, or the browser opens the file instead.
    dropTarget.addEventListener('dragover', (e) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      dropTarget.classList.add('dropping');
    });
    dropTarget.addEventListener('dragleave', (e) => {
      if (e.target === dropTarget) dropTarget.classList.remove('dropping');
    });
    dropTarget.addEventListener('drop', (e) => {
      dropTarget.classList.remove('dropping');
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length === 0) return;
      e.preventDefault();
      void this.readFiles(files);
    });
  }

  /** Read the listing of results/; a failure is shown in place of the list, never thrown. */
  async loadIndex(base: string): Promise<ResultsIndexEntry[]> {
    try {
      const res = await fetch(new URL(`${RESULTS_BASE}index.json`, base), { cache: 'no-store' });
      if (res.status === 404) {
        this.served.replaceChildren(
          h('p', { className: 'muted' }, 'This server lists no results/ folder.'),
        );
        return [];
      }
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      this.index = validateResultsIndex(await res.json(), 'results/index.json').files;
    } catch (e) {
      this.served.replaceChildren(
        h('p', { className: 'load-error' }, `Could not list results/: ${errorMessage(e)}`),
      );
      return [];
    }
    return this.index;
  }

  /**
   * The files of results/, each a box to tick, folded under a line of what they hold once the
   * explorer has anything open (`anyLoaded`): before, the list is how to open something.
   */
  renderServed(loadedNames: ReadonlySet<string>, anyLoaded: boolean): void {
    if (this.index.length === 0) {
      if (!this.served.querySelector('.load-error'))
        this.served.replaceChildren(
          h('p', { className: 'muted' }, 'No results files in results/.'),
        );
      return;
    }
    this.servedList.replaceChildren(...this.index.map((f) => this.servedItem(f, loadedNames)));
    this.servedFold.set(anyLoaded, `: ${servedLine(this.index, loadedNames)}`);
    if (this.served.firstChild !== this.servedFold.element)
      this.served.replaceChildren(this.servedFold.element);
  }

  private servedItem(f: ResultsIndexEntry, loadedNames: ReadonlySet<string>): HTMLElement {
    const box = h('input', { attrs: { type: 'checkbox', value: f.name, name: 'served' } });
    box.checked = loadedNames.has(f.name);
    box.disabled = f.error !== undefined;
    box.addEventListener('change', () => this.events.onServedToggle(f.name, box.checked));
    const about =
      f.error !== undefined
        ? f.error
        : (f.documents ?? [])
            .map(
              (d) => `${d.browser} · ${d.browserVersion} · ${d.suites.join(', ')} · ${d.rows} rows`,
            )
            .join('; ');
    return h(
      'li',
      {},
      h(
        'label',
        { className: f.error ? 'served-file served-bad' : 'served-file' },
        box,
        ' ',
        h('code', {}, f.name),
        ' ',
        h('span', { className: 'muted' }, `${formatBytes(f.bytes)} · ${about}`),
      ),
    );
  }

  renderLoaded(files: readonly LoadedFile[]): void {
    this.loaded.replaceChildren(
      ...files.map((f) => {
        const remove = h(
          'button',
          {
            className: 'chip-remove',
            title: 'Remove from the explorer',
            attrs: { type: 'button', 'aria-label': `Remove ${f.label}` },
          },
          '×',
        );
        remove.addEventListener('click', () => this.events.onRemove(f.id));
        const origin =
          f.origin === 'served' ? 'results/' : f.origin === 'run' ? 'this page' : 'local file';
        return h(
          'li',
          { className: 'chip', attrs: { 'data-id': f.id } },
          h('strong', {}, f.results.run.browser),
          ' ',
          f.label,
          h('span', { className: 'muted' }, ` · ${origin} · ${f.results.cases.length} rows`),
          remove,
        );
      }),
    );
  }

  showErrors(messages: readonly string[]): void {
    for (const m of messages) {
      const close = h(
        'button',
        { className: 'chip-remove', attrs: { type: 'button', 'aria-label': 'Dismiss' } },
        '×',
      );
      const li = h('li', {}, m, ' ', close);
      close.addEventListener('click', () => {
        li.remove();
        this.errors.hidden = this.errors.childElementCount === 0;
      });
      this.errors.append(li);
    }
    this.errors.hidden = this.errors.childElementCount === 0;
  }

  private async readFiles(files: readonly File[]): Promise<void> {
    const loaded: LoadedFile[] = [];
    const errors: string[] = [];
    for (const file of files) {
      try {
        for (const doc of await readLocal(file)) loaded.push(doc);
      } catch (e) {
        errors.push(errorMessage(e));
      }
    }
    this.showErrors(errors);
    if (loaded.length > 0) this.events.onLocal(loaded);
  }
}
