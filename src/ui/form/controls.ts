/**
 * The plan form: suites, adapters (or a pair, B against A, with its threshold), sizes, adaptive
 * sampling and its time budget (the default) or a fixed count of iterations, warm-up, seed, time
 * limit, fixture, suite parameters and whether to run in a Worker. It reads and writes the same text fields as the URL query, and checks them
 * with the same parsePlan, so a form and a link can never disagree about what is allowed.
 */
import type { StoreAdapter } from '../../core/store/adapter.ts';
import { adapterById } from '../../adapters/registry.ts';
import { PlanError, type Plan } from '../../core/plan/plan.ts';
import {
  DEFAULT_AB_THRESHOLD_PCT,
  DEFAULT_AUTO,
  DEFAULT_BUDGET_MS,
  DEFAULT_CASES,
  DEFAULT_PLAN_PARAMS,
  DEFAULT_SUITES,
} from '../../core/plan/defaults.ts';
import {
  formatAuto,
  formatParams,
  parsePlan,
  planToFields,
  type PlanFields,
} from '../../core/plan/fields.ts';
import { formatDuration } from '../../core/base/format.ts';
import type { Suite } from '../../core/store/suite.ts';
import { h } from '../dom.ts';
import { abChoices, type AbChoice } from '../model/ab-choices.ts';
import { PLAN_VOCABULARY } from '../host/page-query.ts';

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
  private readonly adapterBoxes = new Map<string, HTMLInputElement>();
  private readonly supportNotes = new Map<string, HTMLElement>();
  private readonly inputs: Record<
    'sizes' | 'iterations' | 'warmup' | 'seed' | 'timeoutMs' | 'params',
    HTMLInputElement
  >;
  private readonly fixture: HTMLSelectElement;
  private readonly auto: HTMLInputElement;
  private readonly autoSpec: HTMLInputElement;
  private readonly budget: HTMLInputElement;
  private readonly worker: HTMLInputElement;
  private readonly adapterCard: HTMLFieldSetElement;
  /** B against A: the switch, the two stores and the threshold; on, they replace the adapter boxes. */
  private readonly ab: {
    on: HTMLInputElement;
    a: HTMLSelectElement;
    b: HTMLSelectElement;
    threshold: HTMLInputElement;
    card: HTMLFieldSetElement;
  };
  private readonly stores: readonly { id: string; label: string }[];
  /** Case ids from the URL or the default plan; the form has no control for them but keeps them in the plan it reads. */
  private cases: string | undefined;
  private readonly error: HTMLElement;

  constructor(options: ControlsOptions) {
    const changed = () => options.onChange(this.read());
    this.inputs = {
      sizes: textInput('sizes', 'e.g. 100,1000,10000'),
      iterations: numberInput('iterations', 1),
      warmup: numberInput('warmup', 0),
      seed: numberInput('seed', 0),
      timeoutMs: numberInput('timeout-ms', 1),
      params: textInput('params', 'e.g. chunkSizes=1,10,100'),
    };
    this.fixture = h(
      'select',
      { attrs: { name: 'fixture', id: 'plan-fixture' } },
      ...options.fixtures.map((f) => h('option', { attrs: { value: f } }, f)),
    );
    this.auto = h('input', { attrs: { type: 'checkbox', name: 'auto', id: 'plan-auto' } });
    this.autoSpec = textInput('auto-spec', formatAuto(DEFAULT_AUTO));
    this.budget = textInput('budget', formatDuration(DEFAULT_BUDGET_MS));
    this.auto.addEventListener('change', () => this.syncSampling());
    this.worker = h('input', { attrs: { type: 'checkbox', name: 'worker', id: 'plan-worker' } });
    this.error = h('p', {
      className: 'form-error',
      attrs: { role: 'alert', 'aria-live': 'polite' },
    });
    this.stores = options.adapters.map((a) => ({ id: a.id, label: a.label }));
    this.adapterCard = h(
      'fieldset',
      { className: 'card' },
      h('legend', {}, 'Adapters'),
      allNone(this.adapterBoxes, changed),
      this.adapterList(options.adapters),
    );
    this.ab = this.abCard();
    this.element = h(
      'form',
      { className: 'controls', attrs: { id: 'plan-form', novalidate: '' } },
      h(
        'fieldset',
        { className: 'card' },
        h('legend', {}, 'Suites'),
        allNone(this.suiteBoxes, changed),
        this.suiteList(options.suites),
      ),
      this.adapterCard,
      // A against B under the settings: the adapters' long list then sets the form's height alone.
      h('div', { className: 'controls-column' }, this.settingsCard(), this.ab.card),
      this.error,
    );
    this.element.addEventListener('change', changed);
    this.element.addEventListener('input', (e) => {
      if (e.target instanceof HTMLInputElement && e.target.type !== 'checkbox') changed();
    });
    this.element.addEventListener('submit', (e) => e.preventDefault());
  }

  /** A box per suite, with its title and id; its description on hover. */
  private suiteList(suites: readonly Suite[]): HTMLElement {
    const list = h('div', { className: 'choices' });
    for (const suite of suites) {
      const box = checkbox('suite', suite.id);
      this.suiteBoxes.set(suite.id, box);
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
    return list;
  }

  /** A box per store, with its id, backend and a note that setSupport fills in. */
  private adapterList(adapters: readonly StoreAdapter[]): HTMLElement {
    const list = h('div', { className: 'choices' });
    for (const adapter of adapters) {
      const box = checkbox('adapter', adapter.id);
      box.dataset.backend = adapter.backend;
      this.adapterBoxes.set(adapter.id, box);
      const note = h('span', { className: 'support-note' }, 'checking…');
      this.supportNotes.set(adapter.id, note);
      list.append(
        h(
          'label',
          { className: 'choice' },
          box,
          h(
            'span',
            { className: 'choice-body' },
            h('span', { className: 'choice-name' }, adapter.label),
            h(
              'span',
              { className: 'choice-meta' },
              h('code', {}, adapter.id),
              ' · ',
              adapter.backend,
            ),
            note,
          ),
        ),
      );
    }
    return list;
  }

  /** The A/B card: its switch, the two stores and the threshold. */
  private abCard(): Controls['ab'] {
    const on = h('input', { attrs: { type: 'checkbox', name: 'ab', id: 'plan-ab' } });
    const pick = (name: string) => h('select', { attrs: { name, id: `plan-${name}` } });
    const a = pick('ab-a');
    const b = pick('ab-b');
    const threshold = textInput('ab-threshold', `${DEFAULT_AB_THRESHOLD_PCT}%`);
    const card = h(
      'fieldset',
      { className: 'card ab-card' },
      h('legend', {}, 'A against B'),
      h(
        'label',
        {
          className: 'field field-wide',
          title:
            'Sample B against A as adjacent pairs in every pass, in balanced order; each row gets B/A with its 95% interval over passes and a verdict against the threshold',
        },
        h('span', { className: 'field-label' }, on, ' Run B against A'),
        h(
          'span',
          { className: 'field-hint' },
          'instead of the adapters above; needs adaptive sampling',
        ),
      ),
      field('A (baseline)', a),
      field('B (candidate)', b),
      field('Threshold', threshold, 'a difference within ± this is the same, e.g. 5%', true),
    );
    on.addEventListener('change', () => this.syncAb());
    // B's list offers the instrument over the store chosen as A.
    a.addEventListener('change', () => this.fillAb(a.value, b.value));
    return { on, a, b, threshold, card };
  }

  /** Sizes, sampling, warm-up, seed, time limit, fixture, parameters and the Worker switch. */
  private settingsCard(): HTMLElement {
    return h(
      'fieldset',
      { className: 'card settings' },
      h('legend', {}, 'Settings'),
      field('Sizes (documents)', this.inputs.sizes, 'comma-separated'),
      h(
        'label',
        {
          className: 'field field-wide',
          title:
            'Sample each row until the 95% interval of its median is within ci of the median, after min-n samples, up to max-n or max-ms per row, within the time budget, spent in passes over every case',
        },
        h('span', { className: 'field-label' }, this.auto, ' Adaptive sampling (the default)'),
        this.autoSpec,
        h(
          'span',
          { className: 'field-hint' },
          'ci = target ± % of the median; min-n, max-n samples; max-ms per case, store and size',
        ),
      ),
      field(
        'Time budget',
        this.budget,
        'sampling time of the whole run, e.g. 4m, 90s, 1h; adaptive only',
      ),
      field(
        'Iterations',
        this.inputs.iterations,
        'timed samples per case with adaptive sampling off',
      ),
      field('Warm-up', this.inputs.warmup, 'untimed samples first'),
      field('Seed', this.inputs.seed),
      field(
        'Time limit (ms)',
        this.inputs.timeoutMs,
        "per sample (or a shared database's fill): past it the row times out",
      ),
      field('Fixture', this.fixture),
      field('Suite parameters', this.inputs.params, 'optional; name=value;name=1,2', true),
      h(
        'label',
        {
          className: 'field field-wide',
          title:
            'Run the whole plan in a dedicated Worker; stores that need the page (localStorage, WebSQL) are unsupported there',
        },
        h('span', { className: 'field-label' }, this.worker, ' Run in a Worker'),
        h(
          'span',
          { className: 'field-hint' },
          'off the main thread; results record where they ran',
        ),
      ),
    );
  }

  setPlan(plan: Plan): void {
    const fields = planToFields(plan);
    for (const [id, box] of this.suiteBoxes) box.checked = plan.suites.includes(id);
    for (const [id, box] of this.adapterBoxes) box.checked = plan.adapters.includes(id);
    this.inputs.sizes.value = fields.sizes;
    this.inputs.iterations.value = fields.iterations;
    this.inputs.warmup.value = fields.warmup;
    this.inputs.seed.value = fields.seed;
    this.inputs.timeoutMs.value = fields.timeoutMs;
    this.inputs.params.value = fields.params;
    this.fixture.value = fields.fixture;
    this.auto.checked = plan.auto !== undefined;
    this.autoSpec.value = fields.auto ?? formatAuto(DEFAULT_AUTO);
    this.budget.value = fields.budget ?? formatDuration(DEFAULT_BUDGET_MS);
    this.syncSampling();
    this.worker.checked = plan.worker === true;
    this.cases = fields.cases;
    this.setAb(plan);
    this.showError(null);
  }

  /** The plan the form describes, checked by parsePlan; on a bad field, its message. */
  read(): PlanReading {
    const checked = (boxes: Map<string, HTMLInputElement>) =>
      [...boxes]
        .filter(([, b]) => b.checked)
        .map(([id]) => id)
        .join(',');
    const fields: PlanFields = {
      suites: checked(this.suiteBoxes),
      adapters: this.ab.on.checked
        ? `${this.ab.a.value},${this.ab.b.value}`
        : checked(this.adapterBoxes),
      sizes: this.inputs.sizes.value,
      iterations: this.inputs.iterations.value,
      warmup: this.inputs.warmup.value,
      seed: this.inputs.seed.value,
      timeoutMs: this.inputs.timeoutMs.value,
      fixture: this.fixture.value,
    };
    // The field is cleared, not just ignored, so it shows the plan that runs.
    if (this.dropsDefaultParams(fields.suites ?? '')) this.inputs.params.value = '';
    if (this.inputs.params.value.trim() !== '') fields.params = this.inputs.params.value;
    // With the switch off the plan is a fixed count: the iterations field, and no budget.
    if (this.auto.checked) {
      fields.auto = this.autoSpec.value.trim() || 'on';
      if (this.budget.value.trim() !== '') fields.budget = this.budget.value;
    }
    if (this.worker.checked) fields.worker = '1';
    if (this.ab.on.checked)
      fields.ab = this.ab.threshold.value.trim() || `${DEFAULT_AB_THRESHOLD_PCT}%`;
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

  /**
   * An adapter's answer to supported(): unsupported ones stay selectable, since that is a finding;
   * so do ones that failed to load (supported() threw), whose rows a run records as errors.
   */
  setSupport(id: string, support: true | string | { failed: string }): void {
    const note = this.supportNotes.get(id);
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

  setDisabled(disabled: boolean): void {
    for (const fs of this.element.querySelectorAll('fieldset')) fs.disabled = disabled;
    if (!disabled) this.syncAb();
  }

  /** The pair from a plan with `ab`; otherwise the plan's first two stores, ready for when the switch goes on. */
  private setAb(plan: Plan): void {
    const a = plan.adapters[0] ?? this.stores[0]?.id ?? '';
    const b = plan.adapters.find((id) => id !== a) ?? this.stores.find((s) => s.id !== a)?.id ?? '';
    this.ab.on.checked = plan.ab !== undefined;
    this.ab.threshold.value = `${plan.ab?.thresholdPct ?? DEFAULT_AB_THRESHOLD_PCT}%`;
    this.fillAb(a, b);
    this.syncAb();
  }

  /** The choices for A and B (model/ab-choices.ts), keeping the ones picked. */
  private fillAb(a: string, b: string): void {
    const accepts = (id: string) => {
      try {
        adapterById(id);
        return true;
      } catch {
        return false;
      }
    };
    fillSelect(this.ab.a, abChoices(this.stores, null, accepts, [a].filter(Boolean)), a);
    fillSelect(this.ab.b, abChoices(this.stores, a, accepts, [b].filter(Boolean)), b);
  }

  /** With the pair on, the adapter boxes are not what runs: they are greyed out, and the pair's fields are live. */
  private syncAb(): void {
    const on = this.ab.on.checked;
    this.adapterCard.disabled = on;
    this.ab.a.disabled = !on;
    this.ab.b.disabled = !on;
    this.ab.threshold.disabled = !on;
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
      this.inputs.params.value.trim() === formatParams(DEFAULT_PLAN_PARAMS) &&
      !sameIds(suites, DEFAULT_SUITES)
    );
  }

  /** Only the fields of the sampling chosen can be edited: the others would not change the plan. */
  private syncSampling(): void {
    const adaptive = this.auto.checked;
    this.autoSpec.disabled = !adaptive;
    this.budget.disabled = !adaptive;
    this.inputs.iterations.disabled = adaptive;
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

/** A labelled control with an optional hint under it; `wide` spans the card. */
function field(label: string, control: HTMLElement, hint?: string, wide = false): HTMLElement {
  return h(
    'label',
    { className: wide ? 'field field-wide' : 'field' },
    h('span', { className: 'field-label' }, label),
    control,
    hint ? h('span', { className: 'field-hint' }, hint) : null,
  );
}

function checkbox(name: string, value: string): HTMLInputElement {
  return h('input', { attrs: { type: 'checkbox', name, value } });
}

function textInput(name: string, placeholder: string): HTMLInputElement {
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

function numberInput(name: string, min: number): HTMLInputElement {
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

function allNone(boxes: Map<string, HTMLInputElement>, changed: () => void): HTMLElement {
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
