/**
 * The sweep as a user runs it: `npm run sweep -- ...` in a child process, from the repository
 * root. It builds the page, drives all three engines (Chromium and Firefox through Playwright,
 * WebKitGTK through WebDriver) and writes files; the test reads them back.
 */
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CaseResult } from '../../src/core/results/results.ts';
import { parseResults } from '../../src/core/results/recompute.ts';
import { sizingText } from '../../src/core/verdicts/ab-size.ts';
import { filesIn, REPO_ROOT, sweep } from './sweep-process.ts';

test.describe.configure({ mode: 'serial' });

const ENGINES = { chromium: 'Blink', firefox: 'Gecko', webkit: 'WebKit' } as const;

test('sweep - chromium, firefox and webkit: one validated results file per engine, a CSV and a table', async () => {
  test.setTimeout(420_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-sweep-'));
  try {
    const run = await sweep(
      [
        '--browsers',
        'chromium,firefox,webkit',
        '--suites',
        'insert',
        '--adapters',
        'memory,idb',
        '--sizes',
        '50',
        '--iterations',
        '2',
        '--out',
        out,
      ],
      400_000,
    );
    const log = `${run.stdout}\n${run.stderr}`;
    expect(run.code, log).toBe(0);
    expect(run.stdout).toContain('OK: 3 browsers completed');

    const files = filesIn(out);
    expect(
      files.filter((f) => f.includes('.partial.')),
      files.join(', '),
    ).toEqual([]);
    const csvName = files.find((f) => f.endsWith('.csv'));
    expect(csvName, files.join(', ')).toBeDefined();
    const runId = (csvName as string).slice(0, -'.csv'.length);
    expect(runId).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-[0-9a-f]{4}$/);

    let rows = 0;
    for (const [browser, engine] of Object.entries(ENGINES)) {
      const name = `${runId}-${browser}.json`;
      expect(files, name).toContain(name);
      const results = parseResults(readFileSync(join(out, name), 'utf8'), name);
      expect(results.run.id).toBe(runId);
      expect(results.run.browser).toBe(browser);
      expect(results.environment.browser.engine, name).toBe(engine);
      expect(results.environment.crossOriginIsolated, name).toBe(true);
      expect(
        results.cases.every(
          (c) => c.suite === 'insert' && c.size === 50 && ['memory', 'idb'].includes(c.adapter),
        ),
      ).toBe(true);
      expect(
        results.cases.filter((c) => c.status !== 'ok'),
        name,
      ).toEqual([]);
      for (const adapter of ['memory', 'idb'])
        expect(
          results.cases.some((c) => c.adapter === adapter),
          `${name} ${adapter}`,
        ).toBe(true);
      for (const row of results.cases)
        expect(row.samples, `${name} ${row.case} ${row.adapter}`).toHaveLength(2);
      rows += results.cases.length;
    }

    const csv = readFileSync(join(out, csvName as string), 'utf8').split(/\r?\n/);
    expect(csv[0]?.split(',')).toEqual(
      expect.arrayContaining([
        'run_id',
        'browser',
        'engine',
        'suite',
        'case',
        'adapter',
        'size',
        'status',
        'median_ms',
      ]),
    );
    expect(csv.filter((l) => l.startsWith(runId))).toHaveLength(rows);

    // The table: one column per browser, and the legend.
    expect(run.stdout).toMatch(/suite\s+case\s+adapter\s+size\s+chromium\s+firefox\s+webkit/);
    expect(run.stdout).toContain('Cells: the median ms per sample');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('sweep - npm run browsers: one line per browser, found with its driver or missing with how to get it', () => {
  const run = spawnSync('npm', ['run', '--silent', 'browsers'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  const lines = run.stdout.split('\n');
  for (const id of ['chromium', 'firefox', 'webkit', 'chrome', 'msedge', 'safari']) {
    const line = lines.find((l) => l.startsWith(`${id} `));
    expect(line, `a line for ${id}:\n${run.stdout}`).toBeDefined();
    expect(line).toMatch(
      /^\S+\s+(found\s+\S.* \S+; driven by (Playwright|WebDriver)|not found\s+\S.*(install|macOS|safaridriver))/,
    );
  }
  // The engines CI installs are found, each with the driver docs/browsers.md names ("Browsers on this kind of machine").
  expect(lines.find((l) => l.startsWith('chromium '))).toMatch(/found .*driven by Playwright/);
  expect(lines.find((l) => l.startsWith('firefox '))).toMatch(/found .*driven by Playwright/);
  expect(lines.find((l) => l.startsWith('webkit '))).toMatch(
    /found .*driven by (WebDriver, .*WebKitWebDriver|Playwright)/,
  );
});

test('sweep - npm run browsers --help prints its usage, and an argument is refused', () => {
  const help = spawnSync('npm', ['run', '--silent', 'browsers', '--', '--help'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(help.status).toBe(0);
  expect(help.stdout).toMatch(
    /^Usage: storebench browsers {3}\(npm run browsers in storebench.s own checkout\)\n/,
  );
  const bad = spawnSync('npm', ['run', '--silent', 'browsers', '--', '--frob'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(bad.status).toBe(2);
  expect(bad.stderr).toBe('browsers: unknown flag --frob; allowed: --help\n');
});

test('sweep - a driven sweep on an address beyond loopback warns who can reach it', async () => {
  const out = mkdtempSync(join(tmpdir(), 'storebench-host-'));
  try {
    const run = await sweep(
      [
        '--browsers',
        'chromium',
        '--suites',
        'insert',
        '--cases',
        'bulk',
        '--adapters',
        'memory',
        '--iterations',
        '2',
        '--host',
        '0.0.0.0',
        '--out',
        out,
      ],
      120_000,
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'warning: --host 0.0.0.0: the page and the collector listen beyond this machine; anyone on that network who has the URL can load the page',
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('sweep - an unknown browser exits 2 and names the allowed ones', async () => {
  const run = await sweep(['--browsers', 'nope'], 60_000);
  expect(run.code, run.stdout + run.stderr).toBe(2);
  expect(run.stderr).toContain(
    '--browsers: unknown "nope"; allowed: chromium, chromium-headless-shell, firefox, webkit, chrome, msedge, safari',
  );
  const stray = await sweep(['chromium'], 60_000);
  expect(stray.code, stray.stdout + stray.stderr).toBe(2);
  expect(stray.stderr).toContain(
    'unexpected argument "chromium"; flags start with --, e.g. --browsers chromium,firefox (see --help)',
  );
  expect(stray.stderr.match(/see --help/g)).toHaveLength(1);
});

test('sweep - an unknown case or suite parameter exits 2 before any browser starts, naming what is allowed', async () => {
  const typo = await sweep(
    ['--browsers', 'chromium', '--suites', 'insert', '--params', 'chunkSize=5;nosuch=1'],
    60_000,
  );
  expect(typo.code, typo.stdout + typo.stderr).toBe(2);
  expect(typo.stderr).toContain(
    'params: unknown "chunkSize", "nosuch" for suites insert; allowed: insert: chunkSizes, orderChunk',
  );
  const bad = await sweep(
    ['--browsers', 'chromium', '--suites', 'insert', '--params', 'chunkSizes=0'],
    60_000,
  );
  expect(bad.code, bad.stdout + bad.stderr).toBe(2);
  expect(bad.stderr).toContain(
    'params: suite insert: parameter chunkSizes: expected whole numbers >= 1',
  );
  const unknownCase = await sweep(
    ['--browsers', 'chromium,firefox,webkit', '--cases', 'nosuch'],
    60_000,
  );
  expect(unknownCase.code, unknownCase.stdout + unknownCase.stderr).toBe(2);
  expect(unknownCase.stderr).toMatch(
    /cases: unknown "nosuch" in suites .*; allowed: serial, parallel, bulk, /,
  );
  // Refused before the plan is printed, so before a page is built or a browser started.
  for (const run of [typo, bad, unknownCase])
    expect(run.stdout).not.toContain('starting the browser');
  for (const run of [typo, bad, unknownCase]) expect(run.stdout).not.toContain('storebench sweep');
});

test('sweep - size 0 and a shard that does not exist exit 2 and name the allowed range', async () => {
  const run = await sweep(['--sizes', '0'], 60_000);
  expect(run.code, run.stdout + run.stderr).toBe(2);
  expect(run.stderr).toMatch(/--sizes: 0 is out of range; allowed: 1 to 10000000/);
  const shard = await sweep(['--shard', '3/2'], 60_000);
  expect(shard.code, shard.stdout + shard.stderr).toBe(2);
  expect(shard.stderr).toContain(
    '--shard: "3/2": shard 3 does not exist; allowed: 1 to 2 (shards count from 1)',
  );
});

test('sweep - against the committed results every row both ran is compared; --baseline samples a row until its change is decided and gates on it', async () => {
  const out = mkdtempSync(join(tmpdir(), 'storebench-baseline-'));
  try {
    const plan = [
      '--browsers',
      'chromium',
      '--suites',
      'insert',
      '--cases',
      'bulk',
      '--adapters',
      'memory,idb',
      '--sizes',
      '100',
    ];
    const first = await sweep(
      [...plan, '--budget', '8s', '--launches', '3', '--out', out],
      180_000,
    );
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const fresh = join(
      out,
      filesIn(out).find((f) => f.endsWith('-chromium.json'))!,
    );
    // --launches 3: the 12 passes ran in three browsers started one after the other, four passes
    // each, and every row carried its samples of all twelve through them.
    expect(first.stdout).toContain("launches: each browser's 12 passes run in 3 launches of it");
    const freshDoc = parseResults(readFileSync(fresh, 'utf8'), 'first');
    expect(freshDoc.run.launches).toBe(3);
    for (const c of freshDoc.cases) {
      expect(c.samplesPerPass, c.adapter).toHaveLength(12);
      expect(
        c.samplesPerPass?.reduce((a, k) => a + k, 0),
        c.adapter,
      ).toBe(c.samples.length);
      // The first launch took the minimum of 6; each later one resumed the row.
      expect(
        c.samplesPerPass?.[4],
        `${c.adapter}: ${JSON.stringify(c.samplesPerPass)}`,
      ).toBeGreaterThan(0);
    }
    // The committed sweep ran the default plan, with other suite-wide parameters in force: still every row matches.
    // (results/ also holds the driven suites' runs; the default sweep is the one with insert.)
    const sweeps = readdirSync(join(REPO_ROOT, 'results')).filter((f) =>
      f.endsWith('-chromium.json'),
    );
    const committed = join(
      REPO_ROOT,
      'results',
      sweeps.find((f) =>
        parseResults(readFileSync(join(REPO_ROOT, 'results', f), 'utf8'), f).cases.some(
          (c) => c.suite === 'insert',
        ),
      )!,
    );
    const cmp = spawnSync('npm', ['run', '--silent', 'compare', '--', committed, fresh], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(cmp.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /; compared 2 of 2 rows ok in both[:(]/,
    );

    // A baseline in which idb's insert/bulk was 20 times as fast: this build is a clear regression
    // of that row. Twice as fast was not enough: the two sweeps run minutes apart beside the other
    // worker, and once the first ran 1.7 times as slow as the second, which left a +19% change
    // undecided. No load on two cores slows one sweep 20-fold against the next.
    const base = JSON.parse(readFileSync(fresh, 'utf8')) as {
      cases: { adapter: string; samples: number[] }[];
    };
    const row = base.cases.find((c) => c.adapter === 'idb')!;
    row.samples = row.samples.map((x) => x / 20);
    const baseline = join(out, 'baseline.json');
    writeFileSync(baseline, JSON.stringify(base));
    const second = await sweep(
      [...plan, '--budget', '20s', '--baseline', baseline, '--out', join(out, 'second')],
      180_000,
    );
    expect(second.code, second.stdout + second.stderr).toBe(1);
    expect(second.stdout).toContain(
      `baseline: ${baseline} (chromium): each row it has samples until its change is decided against +5%`,
    );
    expect(second.stdout).toMatch(
      /^FAIL: \d rows? slower beyond 5% or broken \(.*chromium insert\/bulk idb 100 \+\d+\.\d%/m,
    );
    const results = parseResults(
      readFileSync(
        join(
          out,
          'second',
          filesIn(join(out, 'second')).find((f) => f.endsWith('-chromium.json'))!,
        ),
        'utf8',
      ),
      'second',
    );
    expect(results.cases.find((c) => c.adapter === 'idb')).toMatchObject({
      status: 'ok',
      stopped: 'decided',
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('sweep - --cpu-throttle slows Chromium through DevTools, and every Firefox row is unsupported with the reason', async () => {
  test.setTimeout(240_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-throttle-'));
  const plan = [
    '--suites',
    'insert',
    '--cases',
    'bulk',
    '--adapters',
    'memory,sqlite-opfs',
    '--sizes',
    '2000',
    '--iterations',
    '6',
    '--warmup',
    '1',
  ];
  const median = (dir: string, browser: string) => {
    const name = filesIn(dir).find((f) => f.endsWith(`-${browser}.json`))!;
    const results = parseResults(readFileSync(join(dir, name), 'utf8'), name);
    return {
      results,
      memory: results.cases.find((c) => c.adapter === 'memory')! as CaseResult & { status: 'ok' },
    };
  };
  try {
    const throttled = await sweep(
      [
        '--browsers',
        'chromium,firefox',
        ...plan,
        '--cpu-throttle',
        '4',
        '--out',
        join(out, 'slow'),
      ],
      200_000,
    );
    expect(throttled.code, `${throttled.stdout}\n${throttled.stderr}`).toBe(0);
    const chromium = median(join(out, 'slow'), 'chromium');
    expect(chromium.results.run.plan.cpuThrottle).toBe(4);
    expect(chromium.memory.status).toBe('ok');
    // sqlite-opfs runs its engine in a Worker, which the page's throttling does not reach.
    expect(chromium.results.cases.find((c) => c.adapter === 'sqlite-opfs')).toMatchObject({
      status: 'unsupported',
      reason: expect.stringMatching(/Worker of its own/),
    });
    const firefox = median(join(out, 'slow'), 'firefox');
    expect(firefox.results.cases.map((c) => c.status)).toEqual(['unsupported', 'unsupported']);
    expect((firefox.memory as CaseResult).reason).toMatch(
      /^CPU throttling \(cpu-throttle 4\) needs Chromium's DevTools protocol/,
    );

    const plain = await sweep(
      ['--browsers', 'chromium', ...plan, '--out', join(out, 'plain')],
      200_000,
    );
    expect(plain.code, `${plain.stdout}\n${plain.stderr}`).toBe(0);
    const unthrottled = median(join(out, 'plain'), 'chromium').memory;
    // A rate of 4 on work that is all CPU: well over 1.5 times slower, even on a busy machine.
    expect(chromium.memory.stats.median).toBeGreaterThan(1.5 * unthrottled.stats.median);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('sweep - an --out that cannot be a folder exits 2 with the reason, before any browser starts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'storebench-out-'));
  try {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'keep');
    for (const [out, message] of [
      [file, `--out ${file} is a file; give a folder for the results`],
      [
        '/dev/null/x',
        '--out: cannot make the folder /dev/null/x: a part of the path is not a folder',
      ],
    ] as const) {
      const run = await sweep(
        [
          '--browsers',
          'chromium',
          '--suites',
          'insert',
          '--cases',
          'bulk',
          '--adapters',
          'memory',
          '--iterations',
          '2',
          '--out',
          out,
        ],
        60_000,
      );
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(run.stdout).not.toContain('storebench sweep');
    }
    expect(readFileSync(file, 'utf8')).toBe('keep');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sweep - --budget-max sizes an A/B run after its first passes, within the cap, and every file and line says how', async () => {
  test.setTimeout(300_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-sized-'));
  try {
    // At least 4 passes, at most the 5 that 1m40s pays for at 20 s each: sized after pass 3 to 4
    // or 5, whichever the spread over those 3 asks for; either way the same relations hold. The
    // page reads --detect beside --ab from its URL.
    const run = await sweep(
      [
        '--browsers',
        'chromium',
        '--ab',
        'memory,memory@+50%',
        '--suites',
        'insert',
        '--cases',
        'bulk',
        '--sizes',
        '50',
        '--auto=passes:4',
        '--budget-max',
        '1m40s',
        '--detect',
        '10%',
        '--out',
        out,
      ],
      280_000,
    );
    const log = `${run.stdout}\n${run.stderr}`;
    expect([0, 1, 3], log).toContain(run.code);
    const name = filesIn(out).find((f) => f.endsWith('-chromium.json'));
    expect(name, log).toBeDefined();
    const doc = parseResults(readFileSync(join(out, name!), 'utf8'), name);
    const sizing = doc.run.sizing!;
    expect(sizing, log).toMatchObject({ after: 3, goalPct: 10, least: 4, most: 5, maxMs: 100_000 });
    expect(sizing.passes).toBe(Math.min(5, Math.max(4, sizing.needed ?? 5)));
    expect(sizing.budgetMs).toBe(sizing.passes * 20_000);
    // The page of every launch after the sizing ran the sized plan, and the file records it.
    expect(doc.run.plan.auto?.passes).toBe(sizing.passes);
    expect(doc.run.plan.budgetMs).toBe(sizing.budgetMs);
    expect(doc.run.launches).toBe(sizing.passes);
    for (const c of doc.cases) expect(c.samplesPerPass, c.adapter).toHaveLength(sizing.passes);
    // Said before it starts, as it happens, and again before the verdict.
    expect(run.stdout).toContain('budget at most 1m40s per browser');
    expect(run.stdout).toContain(
      '  budget auto: after pass 3, the passes with which two thirds of the rows would catch ×1.10 (--detect) at the spread measured: 4 to 5 passes of 20 s, a launch each (--budget-max 1m40s)',
    );
    const said = sizingText(sizing);
    expect(run.stdout).toContain(`--budget auto: ${said}`);
    expect(run.stdout).toContain(`Passes: ${said}.`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
