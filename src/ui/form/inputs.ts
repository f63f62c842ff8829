/**
 * The plan form's controls, one factory each: a labelled field, a checkbox, a text and a number
 * input named as the URL's keys are, and the "all · none" links over a list of boxes.
 */
import { h } from '../dom.ts';

/** A labelled control with an optional hint under it; `wide` spans the card. */
export function field(
  label: string,
  control: HTMLElement,
  hint?: string,
  wide = false,
): HTMLElement {
  return h(
    'label',
    { className: wide ? 'field field-wide' : 'field' },
    h('span', { className: 'field-label' }, label),
    control,
    hint ? h('span', { className: 'field-hint' }, hint) : null,
  );
}

/** A switch that spans its card: the box and its label, a hint under them, a title to hover. */
export function wideSwitch(
  box: HTMLInputElement,
  label: string,
  hint: string,
  title: string,
): HTMLElement {
  return h(
    'label',
    { className: 'field field-wide', title },
    h('span', { className: 'field-label' }, box, ` ${label}`),
    h('span', { className: 'field-hint' }, hint),
  );
}

export function checkbox(name: string, value: string): HTMLInputElement {
  return h('input', { attrs: { type: 'checkbox', name, value } });
}

/** A checkbox of its own (not one of a list), with the id the page's tests and labels use. */
export function toggle(name: string): HTMLInputElement {
  return h('input', { attrs: { type: 'checkbox', name, id: `plan-${name}` } });
}

export function textInput(name: string, placeholder: string): HTMLInputElement {
  return h('input', {
    attrs: {
      type: 'text',
      name,
      id: `plan-${name}`,
      placeholder,
      spellcheck: 'false',
      autocomplete: 'off',
    },
  });
}

export function numberInput(name: string, min: number): HTMLInputElement {
  return h('input', {
    attrs: {
      type: 'number',
      name,
      id: `plan-${name}`,
      min: String(min),
      step: '1',
      inputmode: 'numeric',
    },
  });
}

/** "all · none": check or clear every box of a list, then say the form changed. */
export function allNone(boxes: Map<string, HTMLInputElement>, changed: () => void): HTMLElement {
  const button = (text: string, value: boolean) => {
    const b = h('button', { className: 'link-button', attrs: { type: 'button' } }, text);
    b.addEventListener('click', () => {
      for (const box of boxes.values()) box.checked = value;
      changed();
    });
    return b;
  };
  return h('div', { className: 'all-none' }, button('all', true), ' · ', button('none', false));
}

/** The ids of the checked boxes, comma-separated, as a plan's text field holds them. */
export function checkedIds(boxes: ReadonlyMap<string, HTMLInputElement>): string {
  return [...boxes]
    .filter(([, b]) => b.checked)
    .map(([id]) => id)
    .join(',');
}
