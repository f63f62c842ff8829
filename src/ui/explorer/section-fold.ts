/**
 * A part of the explorer folded under one line while it has nothing to add: the list of files in
 * results/ once files are open, the browser comparison while it would only repeat the results
 * table above. The line names the part and says what is inside; opened, the part is as it was.
 * It folds and opens only when the reason changes, so a reader who opened it keeps it open while
 * the view redraws.
 */
import { h } from '../dom.ts';

export class SectionFold {
  readonly element: HTMLDetailsElement;
  private readonly note: HTMLElement;
  private folded: boolean | null = null;

  /** `title` leads the line (a heading when `heading` is set); `body` is what folds. */
  constructor(testId: string, title: string, body: HTMLElement, heading = false) {
    this.note = h('span', { className: 'muted section-fold-note' });
    this.element = h(
      'details',
      {
        className: heading ? 'section-fold section-fold-heading' : 'section-fold',
        attrs: { 'data-testid': testId },
      },
      h(
        'summary',
        {},
        heading
          ? h('h3', { className: 'explorer-heading' }, title)
          : h('span', { className: 'section-fold-title' }, title),
        this.note,
      ),
      body,
    );
  }

  /**
   * Folded or open, and the line's words after the title (": 38 files…"); it folds or opens only
   * when `folded` changes.
   */
  set(folded: boolean, note: string): void {
    if (folded !== this.folded) this.element.open = !folded;
    this.folded = folded;
    this.note.textContent = note;
  }
}
