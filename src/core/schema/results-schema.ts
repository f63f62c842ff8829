/**
 * The schema room (src/core/schema/): what a results file is: this definition, the words it is
 * written in (vocabulary.ts), its caps (bounds.ts) and the checker that holds a value to the
 * published schema (check.ts). It imports base, stats and plan, nothing above: the file's shape
 * depends on no store, verdict or reader.
 *
 * Results schema v1, defined once, in TypeBox: its types are JSON Schema objects, so these values
 * give the TypeScript types (Static) and the published results/schema.json
 * (`npm run schema`), which every reader checks files against (results/results.ts). Each field's meaning
 * is its `description`. Only types leave this module for the page and the CLI: TypeBox is a
 * build-time tool here, since loading its 250 modules would add half a second to every command.
 */
import { CURES } from '../plan/cures.ts';
import * as Type from '@sinclair/typebox';
import type { Static, TLiteral, TObject, TSchema } from '@sinclair/typebox';
import type { AutoSampling, Plan } from '../plan/plan.ts';
import { STUDY_TAG } from '../plan/plan.ts';
import type { CaseIdentity as Identity, ParamValue } from '../base/identity.ts';
import {
  CASE_STATUSES,
  DB_MODES,
  RESULTS_SCHEMA,
  RESULTS_SCHEMA_ID,
  STOP_REASONS,
  CHANGE_VERDICTS,
  FINDING_VERDICTS,
  LEGACY_VERDICT_WORDS,
  type ChangeVerdict,
  type FindingVerdict,
  type CaseStatus,
} from './vocabulary.ts';
import type { Shard } from '../plan/shard.ts';
import type { Interval, Stats } from '../stats/stats.ts';

/** Where the published schema lives, from the repository's root. */
export const RESULTS_SCHEMA_PATH = 'results/schema.json';

const NOT_OK = CASE_STATUSES.filter((s): s is Exclude<CaseStatus, 'ok'> => s !== 'ok');

/** One of a list of strings: a JSON Schema `anyOf` of `const`s, typed as their union. */
const oneOf = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Union<TLiteral<T[number]>[]>(
    values.map((v) => Type.Literal(v)),
    description === undefined ? {} : { description },
  );
const text = (description?: string) =>
  Type.String(description === undefined ? {} : { description });
const whole = (minimum: number, description?: string) =>
  Type.Integer({ minimum, ...(description === undefined ? {} : { description }) });
const finite = (description?: string) =>
  Type.Number(description === undefined ? {} : { description });
const nonNegative = (description?: string) =>
  Type.Number({ minimum: 0, ...(description === undefined ? {} : { description }) });
const texts = (description?: string) =>
  Type.Array(Type.String(), description === undefined ? {} : { description });
const nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description });
/** Parameter values as the file has them: any JSON, so every file a reader took still reads; typed as what a suite writes. */
const params = (description: string) =>
  Type.Unsafe<Record<string, ParamValue>>(
    Type.Record(Type.String(), Type.Unknown(), { description }),
  );

/**
 * A verdict's words, and the words files written before one vocabulary had for them
 * (vocabulary.ts LEGACY_VERDICT_WORDS): the published schema takes both, so those files still
 * check; the type has today's alone, since every reader recomputes verdicts (results/recompute.ts).
 */
const withLegacyWords = <W extends string>(words: readonly W[], description: string) =>
  Type.Unsafe<W>(oneOf([...words, ...Object.keys(LEGACY_VERDICT_WORDS)], description));

const ShardSchema = Type.Object(
  {
    index: whole(1, 'At most `count`.'),
    count: whole(1),
  },
  {
    description:
      'Only this shard of the case groups (`--shard index/count`, 1-based); shards of one plan differ only here.',
  },
);

const AutoSchema = Type.Object(
  {
    targetRelCi: Type.Number({
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      description:
        'Stop once the 95% interval of the median lies within ± this fraction of the median (0.02 = ±2%; in files written before the median had an interval, of the mean).',
    }),
    minN: whole(2, '...but not before this many timed samples.'),
    maxN: whole(2, '...and never more than this many; at least minN.'),
    maxMs: whole(
      1,
      '...nor once the row has spent this long, in ms, on its own steps; the cap wins over minN.',
    ),
    passes: Type.Optional(
      whole(
        1,
        'Passes over the plan: the budget is spent in this many rounds over every case. Absent: one.',
      ),
    ),
    looks: Type.Optional(
      whole(
        1,
        'Planned looks: the pass counts, evenly spaced, at which comparisons are decided with repeated confidence intervals. Absent: one, after every pass.',
      ),
    ),
  },
  {
    description:
      'Adaptive sampling: each row takes samples until the 95% interval of its median is within the target. Absent: a fixed `iterations` per row.',
  },
);

const PlanSchema = Type.Object(
  {
    suites: texts('Suite ids, e.g. `insert`.'),
    adapters: texts('Adapter (store) ids, e.g. `idb`, `sqlite-opfs`.'),
    sizes: Type.Array(whole(1), { description: 'Store sizes, in documents.' }),
    iterations: whole(
      1,
      'Timed samples per row with fixed sampling (no `auto`); with `auto` it is unused.',
    ),
    warmup: whole(0, 'Untimed warm-up samples per case, taken before the timed ones.'),
    seed: whole(0, 'Seed of the interleaved adapter order and of the fixtures.'),
    timeoutMs: whole(
      1,
      "Time limit of one step, in ms: one sample (open, setup, run, verify, teardown), or a shared database's fill. A step past it made no progress: the row is `timeout`.",
    ),
    fixture: text('The fixture the documents are made from, e.g. `person`.'),
    params: params(
      'Suite parameters the plan set, e.g. `{ "chunkSizes": [1, 10, 100] }`; suites fill in their defaults.',
    ),
    auto: Type.Optional(AutoSchema),
    budgetMs: Type.Optional(
      whole(
        1,
        "With `auto`: the time one browser's run may spend sampling, in ms. Rows always get their first 2 samples, so a plan whose minimum alone is longer overruns it.",
      ),
    ),
    worker: Type.Optional(
      Type.Boolean({
        description: 'true: the plan ran in a dedicated Worker. Absent: the main thread.',
      }),
    ),
    cases: Type.Optional(
      texts('Only these case ids of the chosen suites (e.g. `bulk`). Absent: every case.'),
    ),
    shard: Type.Optional(ShardSchema),
    study: Type.Optional(
      Type.String({
        pattern: STUDY_TAG.source,
        description:
          'The study part `npm run study` ran this plan for, as `study/part` (e.g. `pouchdb-2.2/paging`).',
      }),
    ),
    cpuThrottle: Type.Optional(
      Type.Number({
        minimum: 1,
        description:
          'The DevTools CPU throttling rate the plan asked for (4: about 4 times slower); rows the driver could not throttle are `unsupported`.',
      }),
    ),
    cures: Type.Optional(
      Type.Array(Type.Union(CURES.map((c) => Type.Literal(c))), {
        description:
          "The noise cures the plan asked for, where not the defaults (`[]`: all off): `gc`, a full garbage collection before each sample; `engine`, the engines' benchmarking flags and prefs. Absent: the defaults of the harness that wrote the file; `environment.forcedGc` says whether a collection ran.",
      }),
    ),
    ab: Type.Optional(
      Type.Object(
        {
          thresholdPct: Type.Number({
            exclusiveMinimum: 0,
            exclusiveMaximum: 100,
            description: 'The slowdown, in %, a row of B against A is judged against.',
          }),
          detectPct: Type.Optional(
            Type.Number({
              exclusiveMinimum: 0,
              description:
                'With --detect: the slowdown, in %, the run must be able to catch in two thirds of its rows, else it is undecided (exit 3).',
            }),
          ),
        },
        {
          description:
            'B against A in one run (`npm run sweep -- --ab A,B`): `adapters` is the pair, A then B, sampled as adjacent pairs in every pass, each pass in a browser launch of its own.',
        },
      ),
    ),
  },
  { description: 'The plan: what was run. Optional fields: absent means off, or all.' },
);

const RunSchema = Type.Object({
  id: text(
    'Sortable run id, e.g. `2026-11-20T22-40-05Z-ab12`; files are named `<run-id>-<browser>.json`.',
  ),
  startedAt: text("ISO 8601 time; with several launches, the first launch's start."),
  finishedAt: text('ISO 8601 time.'),
  browser: text(
    'The label the driver gave this browser (e.g. `chromium`), or one derived from the user agent.',
  ),
  plan: PlanSchema,
  cancelled: Type.Boolean({
    description: 'true when Cancel stopped the run; unfinished rows are then absent.',
  }),
  order: Type.Array(
    Type.Object({
      suite: text(),
      case: text(),
      size: whole(1),
      rounds: Type.Array(texts(), { description: 'Adapter ids, one list per round.' }),
    }),
    {
      description:
        'Per suite, case and size, the adapter order of every round, as run (seeded, interleaved; warm-up and calibration rounds first). Under adaptive sampling each sample given out after the minimum is a round of one.',
    },
  ),
  launches: Type.Optional(
    whole(
      1,
      "Browser launches the passes ran in (the sweep's `--launches`); each row's samplesPerPass spans them all. Absent: one.",
    ),
  ),
  sizing: Type.Optional(
    Type.Object(
      {
        after: whole(1, 'Passes of every browser the spreads were measured over.'),
        goalPct: Type.Number({
          exclusiveMinimum: 0,
          description:
            'The slowdown, in %, the run was sized to catch: `--detect`, or twice the threshold.',
        }),
        rows: whole(0, 'Rows compared, over every browser.'),
        reach: whole(0, 'The fewest of them that had to reach the goal: all but a third.'),
        needed: nullable(
          whole(1),
          'Passes with which that many rows would catch the goal at the spread measured; null: more than the most there can be.',
        ),
        passes: whole(1, 'Passes the run was sized to: `needed`, within `least` and `most`.'),
        least: whole(1, 'The fewest passes (`--auto=passes:N`).'),
        most: whole(1, 'The most passes `--budget-max` pays for.'),
        maxMs: nonNegative('`--budget-max`, in ms per browser.'),
        budgetMs: nonNegative("The budget each browser's run was given for its passes, in ms."),
      },
      {
        description:
          'How `--budget auto` sized an A/B run after its first passes: from how much each row\'s B/A moved between passes, the passes with which two thirds of the rows would catch the goal (docs/gate.md, "A budget sized to the question"). Absent: the budget was fixed.',
      },
    ),
  ),
});

const HarnessSchema = Type.Object(
  {
    name: Type.Literal('storebench'),
    version: text('The package version.'),
    commit: text(
      'The commit the page was built from; it ends in `-dirty` when the page was built with uncommitted changes to its code (src, suites, fixtures, public, index.html, vite.config.ts, package files).',
    ),
  },
  { description: 'The harness that measured.' },
);

const BrowserSchema = Type.Object(
  {
    name: text('e.g. `Chromium`.'),
    version: text(),
    engine: text('e.g. `Blink`, `Gecko`, `WebKit`.'),
  },
  { description: 'The browser, as the page found it.' },
);

const DriverSchema = Type.Object(
  {
    kind: oneOf(
      ['playwright', 'webdriver', 'manual'],
      'How the sweep reached the browser: Playwright, W3C WebDriver, or a person who opened its URL (`--manual`).',
    ),
    remote: Type.Optional(
      text(
        'The `--remote` endpoint the browser was reached through, without credentials, query or fragment (of a Playwright browser server only its origin, since its path lets anyone connect). Absent: a browser on the machine that ran the sweep.',
      ),
    ),
    nodes: Type.Optional(
      texts(
        'The grid nodes the browser ran on, one per launch in launch order, as the grid names them (Selenium Grid); absent where the endpoint does not say.',
      ),
    ),
  },
  {
    description:
      "Where the browser ran, as the sweep drove it. Absent in the page's own downloads and in older files.",
  },
);
export type DriverInfo = Static<typeof DriverSchema>;

const PlacementSchema = Type.Union(
  [
    Type.Object({
      applied: Type.Literal(true),
      pageCpus: text("The CPUs the page's process ran on, as Linux lists them (`1`, `2-3`)."),
      restCpus: text(
        "The CPUs every other process the sweep started ran on: the browser's own and its helpers, its driver, the sweep.",
      ),
      pageProcesses: whole(
        0,
        "The page's processes placed over the browser's launches (Chromium's renderers, Firefox's web content processes, WebKit's web process), spares included.",
      ),
      otherProcesses: whole(0, 'The other processes of the browser and its driver placed.'),
    }),
    Type.Object({
      applied: Type.Literal(false),
      why: text('Why the page shared the CPUs with everything else.'),
    }),
  ],
  {
    description:
      "The `core` cure: whether the sweep ran the page's process on CPUs of its own, apart from every other process it started (Linux), and where. Absent: the cure was off, or the page ran without the sweep.",
  },
);
export type Placement = Static<typeof PlacementSchema>;

const EnvironmentSchema = Type.Object({
  browser: BrowserSchema,
  userAgent: text('navigator.userAgent.'),
  os: text('The operating system, as the user agent names it.'),
  cores: nullable(whole(1), 'navigator.hardwareConcurrency, where exposed.'),
  deviceMemoryGb: nullable(
    nonNegative(),
    'navigator.deviceMemory in GiB, where exposed (Chromium).',
  ),
  crossOriginIsolated: Type.Boolean({
    description: 'Whether the page was cross-origin isolated (it then has the finer timer).',
  }),
  timerStepMs: nonNegative('Measured performance.now() step in ms.'),
  storageEstimate: nullable(
    Type.Object({ quota: nullable(nonNegative()), usage: nullable(nonNegative()) }),
    'navigator.storage.estimate() at the start of the run; null where the browser has none.',
  ),
  context: oneOf(
    ['main', 'worker'],
    "Where the benchmark ran: the page's main thread or a dedicated Worker.",
  ),
  harness: Type.Object(
    { version: text(), commit: text() },
    { description: 'The harness the page itself reported.' },
  ),
  metricNotes: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description:
        'What each metric recorded besides the time means here and how far to trust it, by metric name; also names the metrics this browser could not record, and why.',
    }),
  ),
  forcedGc: Type.Optional(
    Type.String({
      description:
        'With the `gc` cure: the call that collected garbage before each sample (`gc()` in Chromium, `TestUtils.gc()` in Firefox), or `none` where the engine offers a page none (WebKit). Absent: no collection was asked for.',
    }),
  ),
  driver: Type.Optional(DriverSchema),
  placement: Type.Optional(PlacementSchema),
  adapters: Type.Optional(
    Type.Record(Type.String(), Type.Record(Type.String(), Type.String()), {
      description:
        'What each store reported about how it ran, by adapter id, e.g. `{ "sqlite-opfs": { "vfs": "opfs-sahpool", "sqlite": "3.54.1" } }`, `{ "pouchdb-idb": { "version": "9.0.0" } }`, or that WebSQL was emulated. Only stores that reported something.',
    }),
  ),
});

const IntervalSchema = Type.Object(
  { lo: finite(), hi: finite() },
  { description: 'A closed interval [lo, hi].' },
);

const StatsSchema = Type.Object(
  {
    n: whole(1, 'Timed samples.'),
    min: finite('In ms, as the samples.'),
    max: finite(),
    mean: finite(),
    median: finite(),
    stddev: nonNegative('Sample standard deviation (divides by n - 1); 0 when n < 2.'),
    ci95: nullable(
      nonNegative(),
      'Half-width of the 95% confidence interval of the mean (Student t); null when n < 2.',
    ),
    medianCi: Type.Optional(
      nullable(
        IntervalSchema,
        "The distribution-free 95% interval of the median, widened where the samples drift or the row's passes disagree; null when n < 6. Absent in older files.",
      ),
    ),
  },
  {
    description:
      'Summary of `samples`. Readers recompute it from the samples and ignore what the file says.',
  },
);

const per = (what: string) => `${what}, one per timed sample.`;

/** What names a row, whatever its status. */
const IDENTITY = {
  suite: text('Suite id, e.g. `insert`.'),
  case: text('Case id within the suite, e.g. `bulk`.'),
  title: text('The case in words.'),
  adapter: text('The store: adapter id, e.g. `idb`.'),
  size: whole(1, 'Documents in the store.'),
  params: params(
    "The parameters this case uses (e.g. `chunkSize`), not the suite's whole set, so rows of runs with other suite-wide values still match; older files recorded the whole set, and `compare` matches on the names both rows record.",
  ),
  operations: nonNegative(
    'Operations one sample covers: per-operation time is sample / operations.',
  ),
};

const SAMPLES = 'Timed samples in ms, in the order taken; kept for every status, possibly partial.';

/** What every row carries besides its status. */
const MEASURED = {
  samples: Type.Array(nonNegative(), { description: SAMPLES }),
  warmup: Type.Array(nonNegative(), {
    description: 'Warm-up samples in ms, left out of the statistics.',
  }),
  metrics: Type.Optional(
    Type.Record(Type.String(), Type.Array(finite()), {
      description: per(
        'Named measurements besides the time, e.g. `latencyP95Ms` in the concurrency suite; the driven suites record theirs here (crash: `acknowledged`, `lost`, `unacknowledged`; cold: `openMs`, `readMs`; tabs: `p50Ms`, `p95Ms`, `maxMs`, `blocked`, `versionchange`, `unseen`, `settleMs`, `lost`, `extra`; quota: `docs`, `stored`, `jsonBytes`, `usageBytes`, `quotaBytes`, `persisted`), and files written when the page probed blocking in every sample have `maxFrameGapMs`, `longTasks`, `longTaskMs`. Each is a list of values',
      ),
    }),
  ),
  notes: Type.Optional(
    texts(
      per(
        'What each timed sample found that is not a number, in words (e.g. the error a store gave when it was full)',
      ),
    ),
  ),
  samplesPerPass: Type.Optional(
    Type.Array(whole(0), {
      description:
        'Timed samples taken in each pass over the plan, in order; they add up to the number of samples. Absent with one pass.',
    }),
  ),
  series: Type.Optional(
    Type.Object(
      {
        x: text('What x is, e.g. `documents in store`.'),
        y: text('What y is, e.g. `batch time (ms)`.'),
        samples: Type.Array(Type.Array(Type.Tuple([finite(), finite()]))),
      },
      {
        description:
          'Points the case recorded in each timed sample, e.g. batch time against store size: one list of [x, y] per sample.',
      },
    ),
  ),
  db: Type.Optional(
    oneOf(
      DB_MODES,
      "`fresh`: a new database per sample; `shared`: one database filled once for all the row's samples (read-only cases).",
    ),
  ),
  repeats: Type.Optional(
    whole(
      1,
      'Runs of the case body in each timed sample, calibrated so a sample spans about 1,000 timer steps; each sample is already divided by it (the time of one run). A row whose runs got much quicker after calibration takes more from then on, so this is the count of its last samples. Absent: 1.',
    ),
  ),
};

/** Only an ok row carries these; readers check them as the file has them. */
const OK_ONLY = {
  stopped: Type.Optional(
    oneOf(
      STOP_REASONS,
      "Why sampling stopped: `iterations` (the fixed count, or auto's maxN), `ci-target` (the median's interval reached the target), `decided` (with the sweep's --baseline: the change from the baseline row was decided against the threshold), `time-cap` (one more sample would pass the row's own cap, auto.maxMs), `budget` (its share of the run's budget was spent: its case's share of the pass, or, for a row whose passes disagree by more than its noise, as many samples in the pass as in its largest earlier one), `cancelled` (the run was cancelled in a later pass, after the row had its samples from the earlier ones), `share` (a sample costs too much of the row's share of the budget to take its minimum in every pass: it sampled in fewer passes, and stopped with what an interval needs, or, where one sample costs more than its whole share, with 2; see `share`), `settled` (at a planned look, every comparison the row is in was decided: A against B, or the findings it is a side of; its own interval is wider than the budget would have made it). Absent in older files.",
    ),
  ),
  blocking: Type.Optional(
    Type.Record(Type.String(), finite(), {
      description:
        "How long the page's main thread was blocked while the case ran, in an untimed run after the timed samples: `maxFrameGapMs` (largest gap between animation frames) and, where the browser reports long tasks (Chromium), `longTasks` and `longTaskMs`.",
    }),
  ),
  footprint: Type.Optional(
    Type.Record(Type.String(), finite(), {
      description:
        'What the store kept, from an untimed run after the timed samples (insert suite): `storageBytes` (navigator.storage.estimate() delta, coarse) and `heapBytes` (measureUserAgentSpecificMemory(), Chromium); environment.metricNotes says how far to trust each.',
    }),
  ),
  share: Type.Optional(
    Type.Object(
      {
        sampleMs: nonNegative('Wall time one sample took, in ms (with its setup and cleanup).'),
        shareMs: nonNegative(
          "The row's share of the run's budget, in ms: the budget over the rows that run.",
        ),
      },
      {
        description:
          "With `stopped: share`: what a sample cost against the row's share of the budget.",
      },
    ),
  ),
};

/** Only an ok row carries these, and readers recompute them from the samples. */
const DERIVED = {
  stats: StatsSchema,
  precision: Type.Optional(
    nullable(
      finite(),
      "The larger side of the median's 95% interval over the median (0.02 = ±2%); null without an interval.",
    ),
  ),
  noise: Type.Optional(
    nullable(
      finite(),
      "The samples' scatter inside one pass: the standard deviation of their natural logs about their pass's mean log, pooled over the passes with 2 or more samples (0.1 is about ±10% per sample); every sample counted. null without such a pass.",
    ),
  ),
  outliers: Type.Optional(
    Type.Object(
      {
        k: finite('The bound, in scaled MADs.'),
        indexes: Type.Array(whole(0), { description: 'Indexes into `samples`, ascending.' }),
      },
      {
        description:
          'Samples beyond median ± k·MAD (scaled to σ), flagged from 10 samples on; flagged only: they stay in `samples` and in the stats.',
      },
    ),
  ),
};

const OK_ROW = {
  ...IDENTITY,
  ...MEASURED,
  status: Type.Literal('ok'),
  reason: Type.Null(),
  samples: Type.Array(nonNegative(), { minItems: 1, description: SAMPLES }),
  ...OK_ONLY,
};

const NOT_OK_FIELDS = {
  ...IDENTITY,
  ...MEASURED,
  status: oneOf(NOT_OK),
  reason: Type.String({ minLength: 1, description: 'Why the row has no statistics.' }),
};
/** Refused on other rows (not `stats`, which readers let be there); listed from the ok row's own fields. */
const OK_ONLY_KEYS = [...Object.keys(OK_ONLY), 'precision', 'noise', 'outliers'];
/** The schema refuses the ok-only fields here; the type leaves them out (not `?: never`), so an ok row's spread still builds one. */
const NotOkRow = Type.Unsafe<Static<TObject<typeof NOT_OK_FIELDS>>>(
  Type.Object({
    ...NOT_OK_FIELDS,
    ...Object.fromEntries(OK_ONLY_KEYS.map((k) => [k, Type.Optional(Type.Never())])),
  }),
);

const CaseSchema = Type.Union([Type.Object({ ...OK_ROW, ...DERIVED }), NotOkRow], {
  description:
    'One row per suite × case × adapter × size. Only `ok` rows carry statistics; the others carry the reason instead.',
});

const ratioBound = (description?: string) =>
  nullable(Type.Number({ exclusiveMinimum: 0 }), description);

const FindingSchema = Type.Object(
  {
    finding: text(
      "The finding's id, e.g. `startkey-over-skip`; the fastest store of a case is `fastest:<suite>/<case>`, a store against raw IndexedDB `over-raw:<suite>/<case>:<store>`.",
    ),
    topic: text(
      'The heading it is listed under: its own id, or `fastest`, `over-raw` for the findings made one per case.',
    ),
    claim: text('The claim in words, e.g. `startkey paging is faster than skip/limit paging`.'),
    store: text(
      'The store it was checked on (an adapter id); for the fastest store of a case, that store.',
    ),
    browser: text('The browser it was checked in, as `run.browser`.'),
    size: nullable(
      whole(1),
      'Documents in the store, the size both rows were read at; null when a row is missing before a size was found.',
    ),
    ratio: ratioBound(
      "slower ÷ faster per operation, the statistic the interval belongs to: `paired`, the geometric mean over the shared passes of each pass's ratio of medians; otherwise median(slower) ÷ median(faster). Above 1 when the side the claim calls faster is faster. Null when a row is missing or a median is 0.",
    ),
    lo: ratioBound(
      'The 95% interval of the ratio (`method` says how it was reached); null without one.',
    ),
    hi: ratioBound(),
    method: Type.Optional(
      nullable(
        oneOf(
          ['paired', 'unpaired'],
          "`paired`: Student's t over the per-pass log ratios of the passes both rows sampled in, a repeated interval at the plan's looks; `unpaired`: from the two medians' own intervals (Price and Bonett), for rows that share too few passes.",
        ),
        'How the interval was reached; null without one. Absent in files written before pairing.',
      ),
    ),
    passes: Type.Optional(
      nullable(whole(1), 'Paired: the passes the interval is over; otherwise null.'),
    ),
    verdict: withLegacyWords<FindingVerdict>(
      FINDING_VERDICTS,
      'A claim: `holds` when the interval lies wholly on its side of 1, `reversed` wholly on the other, `same` wholly within ±5%, `differs` (a claim of a value) wholly outside its band, else `undecided`. Two stores without a claim: `slower` or `faster` wholly beyond ±5%, `same` wholly within, else `undecided`. `undecided` also when there is no interval (`why` says why). `missing`: a row is absent or not ok (`why` says which and why); `not measurable`: a study declared it so. Files written before one vocabulary say `too close to call` for `undecided`; readers recompute findings from the rows.',
    ),
    why: nullable(
      text(),
      'Why there is no verdict from an interval: the row that is missing and its status and reason, or why the interval is missing; else null.',
    ),
    text: text(
      'The finding in one sentence, e.g. `startkey paging is 6.83× [6.12, 7.51] faster than skip/limit paging on pouchdb-idb in chromium: holds`.',
    ),
  },
  { description: 'One finding checked in one browser and store.' },
);

const AbRowSchema = Type.Object(
  {
    suite: text('Suite id.'),
    case: text('Case id.'),
    size: whole(1, 'Documents in the store.'),
    params: params('The case parameters both rows record.'),
    ratio: Type.Union(
      [
        Type.Object({
          ratio: finite('B/A: the geometric mean over passes of the ratio of the pass medians.'),
          lo: finite(),
          hi: finite(),
          passes: whole(2, 'Passes (browser launches) the interval is over.'),
        }),
        Type.Null(),
      ],
      {
        description:
          "B/A with its 95% Student's t interval over passes (one-look where the rows sampled to their end, repeated where they stopped at a planned look); null when the pair has no interval (a side not ok, or too few passes).",
      },
    ),
    verdict: withLegacyWords<ChangeVerdict>(
      CHANGE_VERDICTS,
      'Judged over this file\'s rows (docs/gate.md, "The rule"): `slower` when B/A is beyond +threshold and shown slower with the chance of any false alarm over the rows held at 5% (Holm), `faster` the mirror image, `same` when the whole interval lies within ±threshold, `undecided` otherwise. The sweep judges again over every browser. Files written before one vocabulary say `unsure` for `undecided`; readers recompute it.',
    ),
    pSlower: Type.Number({
      minimum: 0,
      description:
        'One-sided p-value of "B is no slower than A" (Student\'s t over passes), which Holm\'s procedure takes over the rows. In files written before the one-sided rule, of "B slower than A by more than the threshold".',
    }),
    detectable: Type.Optional(
      nullable(
        Type.Number({ exclusiveMinimum: 0 }),
        "The smallest B/A this run would have flagged as slower with 80% probability, from the row's own spread over passes and the number of rows judged; null without an interval. Absent in older files.",
      ),
    ),
  },
  { description: 'One case of B against A.' },
);

const AbSchema = Type.Object(
  {
    a: text('A, the baseline store.'),
    b: text('B, the candidate store.'),
    thresholdPct: Type.Number({
      exclusiveMinimum: 0,
      description: 'The slowdown in % each row is judged against.',
    }),
    rows: Type.Array(AbRowSchema),
  },
  {
    description:
      'With `run.plan.ab`: each case of B against A. Readers recompute it from the rows, as they do statistics.',
  },
);

/** The published schema: every field as the harness writes it. */
export const ResultsFileSchema = Type.Object(
  {
    schema: Type.Literal(RESULTS_SCHEMA),
    harness: HarnessSchema,
    run: RunSchema,
    environment: EnvironmentSchema,
    cases: Type.Array(CaseSchema),
    ab: Type.Optional(AbSchema),
    findings: Type.Optional(
      Type.Array(FindingSchema, {
        description:
          "What the run found, in words: the default plan's findings (a bulk write against writes one at a time, startkey against skip/limit paging, an index against a scan, ..., the fastest store of each case, each store against raw IndexedDB) checked in this browser on every store that ran them, from the rows. Readers recompute it from the rows, as they do statistics. Absent in older files.",
      }),
    ),
  },
  {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: RESULTS_SCHEMA_ID,
    title: RESULTS_SCHEMA,
    description:
      'One browser run of storebench, a benchmark harness for JSON stores in the browser: the plan, the environment, and one row per suite × case × adapter × size with every raw sample. Readers recompute statistics from the samples.',
  },
);

export type ResultsFile = Static<typeof ResultsFileSchema>;
export type CaseResult = ResultsFile['cases'][number];
export type FindingLine = Static<typeof FindingSchema>;
export type RunInfo = ResultsFile['run'];
export type Environment = ResultsFile['environment'];
export type BrowserInfo = Static<typeof BrowserSchema>;

/** The plan, shard and stats types live with their own modules; this fails to compile if the schema drifts from them. */
type Same<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [keyof A] extends [keyof B]
      ? [keyof B] extends [keyof A]
        ? true
        : false
      : false
    : false
  : false;
const agrees: [
  Same<Static<typeof PlanSchema>, Plan>,
  Same<Static<typeof AutoSchema>, AutoSampling>,
  Same<Static<typeof ShardSchema>, Shard>,
  Same<Static<typeof StatsSchema>, Stats>,
  Same<Static<typeof IntervalSchema>, Interval>,
  Same<Static<TObject<typeof IDENTITY>>, Identity>,
] = [true, true, true, true, true, true];
void agrees;

/** The published file's text: what `npm run schema` writes and the unit test compares with what is committed. */
export function publishedSchemaText(): string {
  return `${JSON.stringify(ResultsFileSchema, null, 2)}\n`;
}
