/**
 * Facet filters of the explorer: suites, adapters, browsers and sizes, each a row of checkboxes
 * built from the values the loaded files hold. Every value is text from a file, so it goes in
 * as text.
 */
import type { Facets, Filters } from '../model/explorer-model.ts';
import { h } from '../dom.ts';

type FacetName = keyof Facets;

const LABELS: Record<FacetName, string> = {
  suites: 'Suites',
  adapters: 'Adapters',
  browsers: 'Browsers',
  sizes: 'Sizes',
};

export class FiltersView {
  readonly element: HTMLElement;
  private filters: Filters;

  constructor(
    initial: Filters,
    private readonly onChange: (filters: Filters) => void,
  ) {
    this.filters = initial;
    this.element = h('div', {
      className: 'explorer-filters',
      attrs: { 'data-testid': 'explorer-filters' },
    });
  }

  get value(): Filters {
    return this.filters;
  }

  render(facets: Facets): void {
    this.element.replaceChildren(
      ...(Object.keys(LABELS) as FacetName[]).map((name) =>
        this.facet(name, facets[name].map(String)),
      ),
    );
    this.element.hidden = facets.browsers.length === 0;
  }

  private facet(name: FacetName, values: string[]): HTMLElement {
    const current = this.filters[name]?.map(String) ?? null;
    const boxes = values.map((v) => {
      const box = h('input', { attrs: { type: 'checkbox', name: `filter-${name}`, value: v } });
      box.checked = current === null || current.includes(v);
      return box;
    });
    const changed = () => {
      const kept = boxes.filter((b) => b.checked).map((b) => b.value);
      // Everything ticked is "no filter", so files loaded later show up too.
      const next = kept.length === values.length ? null : kept;
      this.filters = {
        ...this.filters,
        [name]: next === null ? null : name === 'sizes' ? next.map(Number) : next,
      };
      this.onChange(this.filters);
    };
    for (const b of boxes) b.addEventListener('change', changed);
    const all = (checked: boolean) => {
      const b = h(
        'button',
        { className: 'link-button', attrs: { type: 'button' } },
        checked ? 'all' : 'none',
      );
      b.addEventListener('click', () => {
        for (const box of boxes) box.checked = checked;
        changed();
      });
      return b;
    };
    return h(
      'fieldset',
      { className: 'facet', attrs: { 'data-facet': name } },
      h(
        'legend',
        {},
        LABELS[name],
        ' ',
        h('span', { className: 'all-none' }, all(true), ' · ', all(false)),
      ),
      h(
        'div',
        { className: 'facet-values' },
        ...values.map((v, i) =>
          h(
            'label',
            { className: 'facet-value' },
            boxes[i] as HTMLInputElement,
            name === 'sizes' ? Number(v).toLocaleString() : v,
          ),
        ),
      ),
    );
  }
}
