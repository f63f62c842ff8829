/**
 * The plan form's A against B card: the switch, the two stores and the threshold. On, the pair
 * replaces the adapter boxes in the plan, and B's list offers the instruments over the store
 * chosen as A (model/ab-choices.ts).
 */
import { adapterById } from '../../adapters/registry.ts';
import { DEFAULT_AB_THRESHOLD_PCT } from '../../core/plan/defaults.ts';
import type { PlanFields } from '../../core/plan/fields.ts';
import type { Plan } from '../../core/plan/plan.ts';
import { h } from '../dom.ts';
import { abChoices, type AbChoice } from '../model/ab-choices.ts';
import { field, textInput, toggle, wideSwitch } from './inputs.ts';

export class AbCard {
  readonly element: HTMLFieldSetElement;
  private readonly on = toggle('ab');
  private readonly a = pick('ab-a');
  private readonly b = pick('ab-b');
  private readonly threshold = textInput('ab-threshold', `${DEFAULT_AB_THRESHOLD_PCT}%`);

  /** `stores`: every registered store, the choices for A and B. */
  constructor(private readonly stores: readonly { id: string; label: string }[]) {
    this.element = h(
      'fieldset',
      { className: 'card ab-card' },
      h('legend', {}, 'A against B'),
      wideSwitch(
        this.on,
        'Run B against A',
        'instead of the adapters above; needs adaptive sampling',
        'Sample B against A as adjacent pairs in every pass, in balanced order; each row gets B/A with its 95% interval over passes and a verdict against the threshold',
      ),
      field('A (baseline)', this.a),
      field('B (candidate)', this.b),
      field('Threshold', this.threshold, 'a difference within ± this is the same, e.g. 5%', true),
    );
    // B's list offers the instrument over the store chosen as A.
    this.a.addEventListener('change', () => this.fill(this.a.value, this.b.value));
  }

  /** Whether the switch is on: the pair is what runs. */
  get isOn(): boolean {
    return this.on.checked;
  }

  /** The switch's changes, to grey out the boxes the pair replaces. */
  onToggle(listener: () => void): void {
    this.on.addEventListener('change', listener);
  }

  /** The pair from a plan with `ab`; otherwise the plan's first two stores, ready for when the switch goes on. */
  set(plan: Plan): void {
    const a = plan.adapters[0] ?? this.stores[0]?.id ?? '';
    const b = plan.adapters.find((id) => id !== a) ?? this.stores.find((s) => s.id !== a)?.id ?? '';
    this.on.checked = plan.ab !== undefined;
    this.threshold.value = `${plan.ab?.thresholdPct ?? DEFAULT_AB_THRESHOLD_PCT}%`;
    this.fill(a, b);
    this.sync();
  }

  /** With the switch on, the pair as the plan's adapters and its threshold as `ab`. */
  readInto(fields: PlanFields): void {
    if (!this.on.checked) return;
    fields.adapters = `${this.a.value},${this.b.value}`;
    fields.ab = this.threshold.value.trim() || `${DEFAULT_AB_THRESHOLD_PCT}%`;
  }

  /** Only the pair's fields of a switch that is on can be edited. */
  sync(): void {
    const on = this.on.checked;
    this.a.disabled = !on;
    this.b.disabled = !on;
    this.threshold.disabled = !on;
  }

  /** The choices for A and B (model/ab-choices.ts), keeping the ones picked. */
  private fill(a: string, b: string): void {
    const accepts = (id: string) => {
      try {
        adapterById(id);
        return true;
      } catch {
        return false;
      }
    };
    fillSelect(this.a, abChoices(this.stores, null, accepts, [a].filter(Boolean)), a);
    fillSelect(this.b, abChoices(this.stores, a, accepts, [b].filter(Boolean)), b);
  }
}

const pick = (name: string) => h('select', { attrs: { name, id: `plan-${name}` } });

function fillSelect(select: HTMLSelectElement, choices: readonly AbChoice[], value: string): void {
  const group = (label: string, list: readonly AbChoice[]) =>
    list.length === 0
      ? null
      : h(
          'optgroup',
          { attrs: { label } },
          ...list.map((c) => h('option', { attrs: { value: c.value } }, c.text)),
        );
  select.replaceChildren(
    ...[
      group(
        'Stores',
        choices.filter((c) => c.group === 'stores'),
      ),
      group(
        'Calibration instrument',
        choices.filter((c) => c.group === 'instrument'),
      ),
    ].filter((g): g is HTMLOptGroupElement => g !== null),
  );
  select.value = value;
}
