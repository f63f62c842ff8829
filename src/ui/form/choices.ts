/**
 * The plan form's two lists: a box per suite, with its title and description, and a box per store,
 * with its id, backend and whether it can run here, which the page learns after the form is drawn.
 */
import type { StoreAdapter } from '../../core/store/adapter.ts';
import type { Suite } from '../../core/store/suite.ts';
import { h } from '../dom.ts';
import { allNone, checkbox } from './inputs.ts';

/** The Suites card: a box per suite, its description on hover. */
export function suiteCard(
  suites: readonly Suite[],
  boxes: Map<string, HTMLInputElement>,
  changed: () => void,
): HTMLElement {
  const list = h('div', { className: 'choices' });
  for (const suite of suites) {
    const box = checkbox('suite', suite.id);
    boxes.set(suite.id, box);
    list.append(
      h(
        'label',
        { className: 'choice', title: suite.description },
        box,
        h(
          'span',
          { className: 'choice-body' },
          h('span', { className: 'choice-name' }, suite.title),
          ' ',
          h('code', {}, suite.id),
        ),
      ),
    );
  }
  return h(
    'fieldset',
    { className: 'card' },
    h('legend', {}, 'Suites'),
    allNone(boxes, changed),
    list,
  );
}

/** The Adapters card: a box per store, and a note that says whether it can run here. */
export class StoreCard {
  readonly element: HTMLFieldSetElement;
  readonly boxes = new Map<string, HTMLInputElement>();
  private readonly notes = new Map<string, HTMLElement>();

  constructor(adapters: readonly StoreAdapter[], changed: () => void) {
    const list = h('div', { className: 'choices' });
    for (const adapter of adapters) list.append(this.choice(adapter));
    this.element = h(
      'fieldset',
      { className: 'card' },
      h('legend', {}, 'Adapters'),
      allNone(this.boxes, changed),
      list,
    );
  }

  private choice(adapter: StoreAdapter): HTMLElement {
    const box = checkbox('adapter', adapter.id);
    box.dataset.backend = adapter.backend;
    this.boxes.set(adapter.id, box);
    const note = h('span', { className: 'support-note' }, 'checking…');
    this.notes.set(adapter.id, note);
    return h(
      'label',
      { className: 'choice' },
      box,
      h(
        'span',
        { className: 'choice-body' },
        h('span', { className: 'choice-name' }, adapter.label),
        h('span', { className: 'choice-meta' }, h('code', {}, adapter.id), ' · ', adapter.backend),
        note,
      ),
    );
  }

  /**
   * An adapter's answer to supported(): unsupported ones stay selectable, since that is a finding;
   * so do ones that failed to load (supported() threw), whose rows a run records as errors.
   */
  setSupport(id: string, support: true | string | { failed: string }): void {
    const note = this.notes.get(id);
    if (!note) return;
    note.textContent =
      support === true
        ? ''
        : typeof support === 'string'
          ? `not supported here: ${support}`
          : `failed to load: ${support.failed}`;
    note.classList.toggle('unsupported', support !== true);
    note.closest('label')?.classList.toggle('choice-unsupported', support !== true);
  }
}
