/**
 * The plan form's Settings card: sizes, adaptive sampling with its spec and time budget (the
 * default) or a fixed count of iterations, warm-up, seed, time limit, fixture, suite parameters
 * and whether to run in a Worker. It writes and reads the plan's text fields, as the URL does.
 */
import { DEFAULT_AUTO, DEFAULT_BUDGET_MS } from '../../core/plan/defaults.ts';
import { formatAuto, type planToFields, type PlanFields } from '../../core/plan/fields.ts';
import type { Plan } from '../../core/plan/plan.ts';
import { formatDuration } from '../../core/base/format.ts';
import { h } from '../dom.ts';
import { field, numberInput, textInput, toggle, wideSwitch } from './inputs.ts';

type TextField = 'sizes' | 'iterations' | 'warmup' | 'seed' | 'timeoutMs' | 'params';

export class SettingsCard {
  readonly element: HTMLElement;
  readonly inputs: Record<TextField, HTMLInputElement> = {
    sizes: textInput('sizes', 'e.g. 100,1000,10000'),
    iterations: numberInput('iterations', 1),
    warmup: numberInput('warmup', 0),
    seed: numberInput('seed', 0),
    timeoutMs: numberInput('timeout-ms', 1),
    params: textInput('params', 'e.g. chunkSizes=1,10,100'),
  };
  private readonly fixture: HTMLSelectElement;
  private readonly auto = toggle('auto');
  private readonly autoSpec = textInput('auto-spec', formatAuto(DEFAULT_AUTO));
  private readonly budget = textInput('budget', formatDuration(DEFAULT_BUDGET_MS));
  private readonly worker = toggle('worker');

  constructor(fixtures: readonly string[]) {
    this.fixture = h(
      'select',
      { attrs: { name: 'fixture', id: 'plan-fixture' } },
      ...fixtures.map((f) => h('option', { attrs: { value: f } }, f)),
    );
    this.auto.addEventListener('change', () => this.syncSampling());
    this.element = this.card();
  }

  private card(): HTMLElement {
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
      wideSwitch(
        this.worker,
        'Run in a Worker',
        'off the main thread; results record where they ran',
        'Run the whole plan in a dedicated Worker; stores that need the page (localStorage, WebSQL) are unsupported there',
      ),
    );
  }

  /** The plan's settings, from its text fields (core/plan/fields.ts planToFields). */
  set(plan: Plan, fields: ReturnType<typeof planToFields>): void {
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
  }

  /** The settings as the plan's text fields; the parameters are the caller's (they depend on the suites). */
  readInto(fields: PlanFields): void {
    fields.sizes = this.inputs.sizes.value;
    fields.iterations = this.inputs.iterations.value;
    fields.warmup = this.inputs.warmup.value;
    fields.seed = this.inputs.seed.value;
    fields.timeoutMs = this.inputs.timeoutMs.value;
    fields.fixture = this.fixture.value;
    // With the switch off the plan is a fixed count: the iterations field, and no budget.
    if (this.auto.checked) {
      fields.auto = this.autoSpec.value.trim() || 'on';
      if (this.budget.value.trim() !== '') fields.budget = this.budget.value;
    }
    if (this.worker.checked) fields.worker = '1';
  }

  /** Only the fields of the sampling chosen can be edited: the others would not change the plan. */
  private syncSampling(): void {
    const adaptive = this.auto.checked;
    this.autoSpec.disabled = !adaptive;
    this.budget.disabled = !adaptive;
    this.inputs.iterations.disabled = adaptive;
  }
}
