/**
 * The plan form: the suites, the stores (or a pair, B against A: ab-card.ts) and the settings
 * (settings-card.ts). It reads and writes the same text fields as the URL query, and checks them
 * with the same parsePlan, so a form and a link can never disagree about what is allowed.
 */
import type { StoreAdapter } from '../../core/store/adapter.ts';
import { PlanError, type Plan } from '../../core/plan/plan.ts';
import { DEFAULT_CASES, DEFAULT_PLAN_PARAMS, DEFAULT_SUITES } from '../../core/plan/defaults.ts';
import { formatParams, parsePlan, planToFields, type PlanFields } from '../../core/plan/fields.ts';
import type { Suite } from '../../core/store/suite.ts';
import { h } from '../dom.ts';
import { PLAN_VOCABULARY } from '../host/page-query.ts';
import { AbCard } from './ab-card.ts';
import { StoreCard, suiteCard } from './choices.ts';
import { checkedIds } from './inputs.ts';
import { SettingsCard } from './settings-card.ts';

export type PlanReading = { ok: true; plan: Plan } | { ok: false; error: string };

export interface ControlsOptions {
  suites: readonly Suite[];
  adapters: readonly StoreAdapter[];
  fixtures: readonly string[];
  onChange: (reading: PlanReading) => void;
}

export class Controls {
  readonly element: HTMLElement;
  private readonly suiteBoxes = new Map<string, HTMLInputElement>();
  private readonly stores: StoreCard;
  private readonly settings: SettingsCard;
  private readonly ab: AbCard;
  /** Case ids from the URL or the default plan; the form has no control for them but keeps them in the plan it reads. */
  private cases: string | undefined;
  private readonly error = h('p', {
    className: 'form-error',
    attrs: { role: 'alert', 'aria-live': 'polite' },
  });

  constructor(options: ControlsOptions) {
    const changed = () => options.onChange(this.read());
    this.settings = new SettingsCard(options.fixtures);
    this.stores = new StoreCard(options.adapters, changed);
    this.ab = new AbCard(options.adapters.map((a) => ({ id: a.id, label: a.label })));
    this.ab.onToggle(() => this.syncAb());
    this.element = h(
      'form',
      { className: 'controls', attrs: { id: 'plan-form', novalidate: '' } },
      suiteCard(options.suites, this.suiteBoxes, changed),
      this.stores.element,
      // A against B under the settings: the adapters' long list then sets the form's height alone.
      h('div', { className: 'controls-column' }, this.settings.element, this.ab.element),
      this.error,
    );
    this.element.addEventListener('change', changed);
    this.element.addEventListener('input', (e) => {
      if (e.target instanceof HTMLInputElement && e.target.type !== 'checkbox') changed();
    });
    this.element.addEventListener('submit', (e) => e.preventDefault());
  }

  setPlan(plan: Plan): void {
    const fields = planToFields(plan);
    for (const [id, box] of this.suiteBoxes) box.checked = plan.suites.includes(id);
    for (const [id, box] of this.stores.boxes) box.checked = plan.adapters.includes(id);
    this.settings.set(plan, fields);
    this.cases = fields.cases;
    this.ab.set(plan);
    this.syncAb();
    this.showError(null);
  }

  /** The plan the form describes, checked by parsePlan; on a bad field, its message. */
  read(): PlanReading {
    const fields: PlanFields = {
      suites: checkedIds(this.suiteBoxes),
      adapters: checkedIds(this.stores.boxes),
    };
    this.settings.readInto(fields);
    const params = this.settings.inputs.params;
    // The field is cleared, not just ignored, so it shows the plan that runs.
    if (this.dropsDefaultParams(fields.suites ?? '')) params.value = '';
    if (params.value.trim() !== '') fields.params = params.value;
    this.ab.readInto(fields);
    if (this.cases !== undefined && !this.dropsDefaultCases(fields.suites ?? ''))
      fields.cases = this.cases;
    try {
      const plan = parsePlan(fields, PLAN_VOCABULARY);
      this.showError(null);
      return { ok: true, plan };
    } catch (e) {
      if (!(e instanceof PlanError)) throw e;
      this.showError(e.message);
      return { ok: false, error: e.message };
    }
  }

  /** An adapter's answer to supported() (choices.ts StoreCard). */
  setSupport(id: string, support: true | string | { failed: string }): void {
    this.stores.setSupport(id, support);
  }

  setDisabled(disabled: boolean): void {
    for (const fs of this.element.querySelectorAll('fieldset')) fs.disabled = disabled;
    if (!disabled) this.syncAb();
  }

  /** With the pair on, the adapter boxes are not what runs: they are greyed out, and the pair's fields are live. */
  private syncAb(): void {
    this.stores.element.disabled = this.ab.isOn;
    this.ab.sync();
  }

  /**
   * The default plan's cases belong to its suites: with other suites chosen they are left out, so
   * the plan takes every case of those suites, as `--suites insert` does on the command line.
   * Cases a link names are kept whatever the suites.
   */
  private dropsDefaultCases(suites: string): boolean {
    return sameIds(this.cases ?? '', DEFAULT_CASES) && !sameIds(suites, DEFAULT_SUITES);
  }

  /** The default plan's parameters go with its suites, as on the command line: insert alone takes none of them. */
  private dropsDefaultParams(suites: string): boolean {
    return (
      this.settings.inputs.params.value.trim() === formatParams(DEFAULT_PLAN_PARAMS) &&
      !sameIds(suites, DEFAULT_SUITES)
    );
  }

  private showError(message: string | null): void {
    this.error.textContent = message ?? '';
    this.error.hidden = message === null;
  }
}

function sameIds(list: string, ids: readonly string[]): boolean {
  const got = new Set(list.split(',').filter(Boolean));
  return got.size === ids.length && ids.every((id) => got.has(id));
}
