/** Messages above the page: bad URL parameters, a failed run, collector trouble. */
import { h } from '../dom.ts';

export type BannerKind = 'error' | 'warning' | 'info';

export class Banners {
  constructor(private readonly root: HTMLElement) {}

  show(kind: BannerKind, title: string, lines: readonly string[], key?: string): void {
    if (key) this.remove(key);
    const banner = h(
      'div',
      {
        className: `banner banner-${kind}`,
        attrs: { role: kind === 'error' ? 'alert' : 'status', ...(key ? { 'data-key': key } : {}) },
      },
      h('strong', {}, title),
      lines.length === 1 ? h('p', {}, lines[0]) : h('ul', {}, ...lines.map((l) => h('li', {}, l))),
    );
    const close = h(
      'button',
      {
        className: 'banner-close',
        title: 'Dismiss',
        attrs: { type: 'button', 'aria-label': 'Dismiss' },
      },
      '×',
    );
    close.addEventListener('click', () => banner.remove());
    banner.prepend(close);
    this.root.append(banner);
  }

  remove(key: string): void {
    for (const el of this.root.querySelectorAll(`[data-key="${CSS.escape(key)}"]`)) el.remove();
  }
}
