/** Runner warnings (a database that could not be deleted, ...), listed under the progress bar. */
import { h } from '../dom.ts';

export class WarningsView {
  readonly element: HTMLElement;
  private readonly list: HTMLUListElement;

  constructor() {
    this.list = h('ul');
    this.element = h(
      'div',
      { className: 'warnings', attrs: { role: 'status' } },
      h('strong', {}, 'Warnings'),
      this.list,
    );
    this.element.hidden = true;
  }

  add(message: string): void {
    this.list.append(h('li', {}, message));
    this.element.hidden = false;
  }

  clear(): void {
    this.list.replaceChildren();
    this.element.hidden = true;
  }
}
