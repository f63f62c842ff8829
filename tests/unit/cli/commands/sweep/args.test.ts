import { describe, expect, it } from 'vitest';
import {
  ArgsError,
  DEFAULT_OUT,
  DEFAULT_WAIT_MS,
  parseSweepArgs,
  sweepUsage,
} from '../../../../../src/cli/commands/sweep/args.ts';
import { DEFAULT_SERVE_PORT, parseServeArgs } from '../../../../../src/cli/commands/serve.ts';
import type { PlanVocabulary } from '../../../../../src/core/plan/plan.ts';
import { AB_BUDGET_MAX_MS, AB_PASS_MS, SIZED_AFTER } from '../../../../../src/core/plan/ab-plan.ts';
import {
  DEFAULT_AUTO,
  DEFAULT_BUDGET_MS,
  DEFAULT_PLAN,
  PLAN_LIMITS,
} from '../../../../../src/core/plan/defaults.ts';

const vocab: PlanVocabulary = {
  suites: ['insert', 'read'],
  adapters: ['memory', 'idb', 'pouchdb'],
  fixtures: ['person', 'nested'],
};
const browsers = ['chromium', 'firefox', 'webkit'];
const parse = (...argv: string[]) => parseSweepArgs(argv, vocab, browsers);
const error = (...argv: string[]): string => {
  try {
    parse(...argv);
  } catch (e) {
    expect(e).toBeInstanceOf(ArgsError);
    return (e as Error).message;
  }
  throw new Error(`expected ${argv.join(' ')} to be refused`);
};

describe('cli args - sweep defaults', () => {
  it('takes every suite and adapter, default sizes, out/ and a build', () => {
    const args = parse();
    expect(args).toEqual({
      help: false,
      browsers: null,
      out: DEFAULT_OUT,
      build: true,
      page: null,
      manual: false,
      waitMs: DEFAULT_WAIT_MS,
      host: '127.0.0.1',
      remote: null,
      capabilities: null,
      baseline: null,
      launches: null,
      check: true,
      summary: null,
      recordMachine: false,
      sizing: null,
      plan: {
        ...DEFAULT_PLAN,
        suites: ['insert', 'read'],
        adapters: ['memory', 'idb', 'pouchdb'],
        sizes: [...DEFAULT_PLAN.sizes],
        params: {},
        auto: DEFAULT_AUTO,
        budgetMs: DEFAULT_BUDGET_MS,
      },
    });
  });
});

describe('cli args - measurement flags', () => {
  it('--auto takes the defaults, --auto=SPEC tunes them, --budget sets the time, --worker and --cases go into the plan', () => {
    expect(parse('--auto').plan.auto).toEqual({
      targetRelCi: 0.02,
      minN: 6,
      maxN: 1000,
      maxMs: 60000,
      passes: 12,
      looks: 4,
    });
    expect(parse('--auto=ci:1%,max-n:50,passes:1,looks:1').plan.auto).toEqual({
      targetRelCi: 0.01,
      minN: 6,
      maxN: 50,
      maxMs: 60000,
      passes: 1,
      looks: 1,
    });
    expect(parse('--budget', '10m').plan).toMatchObject({ auto: DEFAULT_AUTO, budgetMs: 600_000 });
    expect(parse('--worker', '--cases', 'bulk').plan).toMatchObject({
      worker: true,
      cases: ['bulk'],
    });
    expect(parse().plan.auto).toEqual(DEFAULT_AUTO);
    expect(parse('--iterations', '5').plan).not.toHaveProperty('auto');
    expect(parse().plan).not.toHaveProperty('worker');
  });

  it('refuses a fixed count together with adaptive sampling, saying to give one', () => {
    expect(error('--iterations', '5', '--budget', '1m')).toMatch(
      /^--iterations takes a fixed count of samples per row; --budget samples adaptively/,
    );
    expect(error('--iterations', '5', '--auto')).toMatch(
      /^--iterations takes a fixed count of samples per row; --auto samples adaptively/,
    );
    expect(error('--budget', 'soon')).toMatch(
      /^--budget: "soon" is not a duration; allowed: 1s to 24h/,
    );
  });

  it('refuses a bad auto spec and a value on --worker, saying what is allowed', () => {
    expect(error('--auto=ci:0.01%')).toMatch(
      /^--auto: ci "0\.01%" is not a percentage of the median from 0\.1% to 50%/,
    );
    expect(error('--auto=fast')).toMatch(/^--auto: "fast" is not key:value/);
    expect(error('--worker=yes')).toBe('--worker takes no value, got "yes"');
  });
});

describe('cli args - sweep flags', () => {
  it('reads every flag in the --flag value form', () => {
    const args = parse(
      '--browsers',
      'firefox,chromium',
      '--suites',
      'read',
      '--adapters',
      'idb,memory',
      '--sizes',
      '50,1000',
      '--iterations',
      '7',
      '--warmup',
      '0',
      '--seed',
      '9',
      '--timeout-ms',
      '5000',
      '--fixture',
      'nested',
      '--params',
      'chunkSizes=1,10;pageSize=20;mode=fast',
      '--out',
      'results/x',
      '--no-build',
      '--shard',
      '2/3',
      '--host',
      '192.168.1.20',
    );
    expect(args).toEqual({
      help: false,
      browsers: ['firefox', 'chromium'],
      out: 'results/x',
      build: false,
      page: null,
      manual: false,
      waitMs: DEFAULT_WAIT_MS,
      host: '192.168.1.20',
      remote: null,
      capabilities: null,
      baseline: null,
      launches: null,
      check: true,
      summary: null,
      recordMachine: false,
      sizing: null,
      plan: {
        suites: ['read'],
        adapters: ['idb', 'memory'],
        sizes: [50, 1000],
        iterations: 7,
        warmup: 0,
        seed: 9,
        timeoutMs: 5000,
        fixture: 'nested',
        params: { chunkSizes: [1, 10], pageSize: 20, mode: 'fast' },
        shard: { index: 2, count: 3 },
      },
    });
  });

  it('reads the --flag=value form, including values with = in them', () => {
    const args = parse('--sizes=100', '--browsers=webkit', '--params=a=1;b=x', '--out=o');
    expect(args.plan.sizes).toEqual([100]);
    expect(args.browsers).toEqual(['webkit']);
    expect(args.plan.params).toEqual({ a: 1, b: 'x' });
    expect(args.out).toBe('o');
  });

  it('drops repeated names in lists', () => {
    expect(parse('--browsers', 'chromium,chromium').browsers).toEqual(['chromium']);
    expect(parse('--sizes', '10,10,20').plan.sizes).toEqual([10, 20]);
  });

  it('answers --help and -h, even next to bad flags', () => {
    expect(parse('--help').help).toBe(true);
    expect(parse('-h').help).toBe(true);
    expect(parse('--sizes', '0', '--help').help).toBe(true);
  });
});

describe('cli args - sweep errors', () => {
  it('names unknown browsers and lists the allowed ones', () => {
    expect(error('--browsers', 'nope')).toBe(
      '--browsers: unknown "nope"; allowed: chromium, firefox, webkit',
    );
    expect(error('--browsers', 'chromium,safari,edge')).toBe(
      '--browsers: unknown "safari", "edge"; allowed: chromium, firefox, webkit',
    );
    expect(error('--browsers', ',')).toBe(
      '--browsers: none given; allowed: chromium, firefox, webkit',
    );
  });

  it('gives the allowed range for sizes, iterations, warm-up and the time limit', () => {
    expect(error('--sizes', '0')).toBe(
      `--sizes: 0 is out of range; allowed: 1 to ${PLAN_LIMITS.maxSize}`,
    );
    expect(error('--sizes', '100,abc')).toBe(
      `--sizes: "abc" is not a whole number; allowed: 1 to ${PLAN_LIMITS.maxSize}`,
    );
    expect(error('--iterations', '0')).toBe(
      `--iterations: 0 is out of range; allowed: 1 to ${PLAN_LIMITS.maxIterations}`,
    );
    expect(error('--warmup', '-1')).toBe(
      `--warmup: "-1" is not a whole number; allowed: 0 to ${PLAN_LIMITS.maxWarmup}`,
    );
    expect(error('--timeout-ms', '1.5')).toBe(
      `--timeout-ms: "1.5" is not a whole number; allowed: 1 to ${PLAN_LIMITS.maxTimeoutMs}`,
    );
  });

  it('names unknown suites, adapters and fixtures with the allowed ones', () => {
    expect(error('--suites', 'insert,write')).toBe(
      '--suites: unknown "write"; allowed: insert, read',
    );
    expect(error('--adapters', 'websql')).toBe(
      '--adapters: unknown "websql"; allowed: memory, idb, pouchdb',
    );
    expect(error('--fixture', 'people')).toBe(
      '--fixture: unknown "people"; allowed: person, nested',
    );
    expect(error('--fixture', 'person,nested')).toBe('--fixture: give exactly 1, got 2');
  });

  it('refuses malformed params', () => {
    expect(error('--params', 'pageSize')).toBe(
      '--params: "pageSize" is not name=value; write e.g. chunkSizes=1,10,100;pageSize=10',
    );
  });

  it('refuses unknown flags, suggesting a near one', () => {
    expect(error('--size', '100')).toMatch(
      /^unknown flag --size \(did you mean --sizes\?\); allowed: --browsers, --suites, .*--no-build, --manual, .*--help$/,
    );
    expect(error('--frobnicate')).toMatch(/^unknown flag --frobnicate; allowed: --browsers/);
  });

  it('refuses a flag without its value, a value on a switch, repeats and stray words', () => {
    expect(error('--sizes')).toBe('--sizes needs a value, e.g. --sizes 100,1000');
    expect(error('--sizes', '--iterations', '3')).toBe(
      '--sizes needs a value, e.g. --sizes 100,1000',
    );
    expect(error('--out=')).toBe('--out needs a value, e.g. --out out');
    expect(error('--no-build=yes')).toBe('--no-build takes no value, got "yes"');
    expect(error('--sizes', '10', '--sizes', '20')).toBe(
      '--sizes is given more than once; give it once (lists are comma-separated)',
    );
    expect(error('chromium')).toBe(
      'unexpected argument "chromium"; flags start with --, e.g. --browsers chromium,firefox',
    );
  });
});

describe('cli args - shard', () => {
  it('takes i/n into the plan; 1/1 is the whole plan', () => {
    expect(parse('--shard', '1/4').plan.shard).toEqual({ index: 1, count: 4 });
    expect(parse('--shard=4/4').plan.shard).toEqual({ index: 4, count: 4 });
    expect(parse('--shard', '1/1').plan).not.toHaveProperty('shard');
  });

  it('refuses shards that do not exist, and text that is not i/n', () => {
    expect(error('--shard', '5/4')).toBe(
      '--shard: "5/4": shard 5 does not exist; allowed: 1 to 4 (shards count from 1)',
    );
    expect(error('--shard', '0/4')).toBe(
      '--shard: "0/4": shard 0 does not exist; allowed: 1 to 4 (shards count from 1)',
    );
    expect(error('--shard', '1/0')).toMatch(
      /^--shard: "1\/0": the shard count 0 is out of range; allowed: 1 to \d+$/,
    );
    expect(error('--shard', 'half')).toBe(
      '--shard: "half" is not i/n; write e.g. 2/4 for the second of four shards',
    );
  });
});

describe('cli args - manual, host, remote', () => {
  it('--manual waits 10 minutes unless --wait-ms says otherwise', () => {
    expect(parse('--manual')).toMatchObject({ manual: true, waitMs: 600_000, browsers: null });
    expect(parse('--manual', '--wait-ms', '5000').waitMs).toBe(5000);
    expect(error('--wait-ms', '5000')).toBe(
      '--wait-ms applies only to --manual (how long to wait for a browser to open the URL) and to --remote http(s):// (how long to wait for a grid to start a session)',
    );
    // A full grid queues the session: --wait-ms is how long the sweep waits for a slot.
    expect(parse('--remote', 'http://grid:4444', '--browsers', 'chromium').waitMs).toBe(600_000);
    expect(
      parse('--remote', 'http://grid:4444', '--browsers', 'chromium', '--wait-ms', '30000').waitMs,
    ).toBe(30_000);
    expect(error('--remote', 'ws://h:1/x', '--wait-ms', '30000')).toMatch(
      /^--wait-ms applies only to --manual /,
    );
    expect(error('--manual', '--wait-ms', '10')).toMatch(
      /^--wait-ms: "10" is out of range; allowed: 1000 to \d+ \(ms\)$/,
    );
  });

  it('--launches spreads the passes over 1 to passes launches; it needs passes and a browser the sweep starts', () => {
    expect(parse().launches).toBeNull(); // one per pass
    expect(parse('--launches', '4').launches).toBe(4);
    expect(parse('--launches', '1').launches).toBe(1);
    expect(error('--launches', '13')).toBe(
      `--launches: "13" is out of range; allowed: 1 to 12 (the plan's passes; --auto=passes:N sets them)`,
    );
    expect(error('--auto=passes:3', '--launches', '4')).toMatch(/allowed: 1 to 3 /);
    expect(error('--launches', 'x')).toMatch(/^--launches: "x" is out of range/);
    expect(error('--launches', '0')).toMatch(/^--launches: "0" is out of range/);
    expect(error('--iterations', '5', '--launches', '2')).toMatch(
      /^--launches spreads the passes of adaptive sampling over browser launches; with --iterations there is one pass/,
    );
    expect(error('--manual', '--launches', '2')).toMatch(
      /^--launches needs a browser the sweep starts; with --manual one page runs every pass/,
    );
  });

  it('--manual goes alone: no --browsers, no --remote', () => {
    expect(error('--manual', '--browsers', 'chromium')).toMatch(
      /^--manual and --browsers cannot be combined: /,
    );
    expect(error('--manual', '--remote', 'ws://127.0.0.1:1/x')).toMatch(
      /^--manual and --remote cannot be combined: /,
    );
  });

  it('--record-machine is off by default, and only with a browser the sweep starts', () => {
    expect(parse().recordMachine).toBe(false);
    expect(parse('--record-machine').recordMachine).toBe(true);
    expect(error('--record-machine', '--manual')).toMatch(
      /^--record-machine reads the processes the sweep starts, and with --manual the browser is not one of them/,
    );
    expect(error('--record-machine', '--remote', 'ws://127.0.0.1:1/x')).toMatch(/with --remote/);
  });

  it('--host takes IP addresses and host names, and refuses the rest', () => {
    expect(parse('--host', '0.0.0.0').host).toBe('0.0.0.0');
    expect(parse('--host', '[::1]').host).toBe('::1');
    expect(parse('--host', 'bench-box.local').host).toBe('bench-box.local');
    expect(error('--host', 'http://x')).toMatch(
      /^--host: "http:\/\/x" is not an IP address or host name; allowed: e\.g\. 127\.0\.0\.1 \(the default\)/,
    );
  });

  it('--remote: ws:// is one browser (default chromium), http:// needs --browsers, other schemes are refused', () => {
    expect(parse('--remote', 'ws://127.0.0.1:9000/abc').remote).toBe('ws://127.0.0.1:9000/abc');
    expect(parse('--remote', 'wss://grid.example/pw', '--browsers', 'firefox').browsers).toEqual([
      'firefox',
    ]);
    expect(error('--remote', 'ws://h/x', '--browsers', 'chromium,firefox')).toBe(
      '--remote ws://: a Playwright browser server runs one browser; give one with --browsers (got chromium, firefox)',
    );
    expect(parse('--remote', 'http://grid:4444', '--browsers', 'chromium,firefox').remote).toBe(
      'http://grid:4444',
    );
    expect(error('--remote', 'http://grid:4444')).toBe(
      '--remote http(s)://: say which browsers to ask the WebDriver endpoint for, e.g. --browsers chrome,firefox',
    );
    expect(error('--remote', 'ftp://x')).toMatch(
      /^--remote: ftp: is not supported; allowed: ws:\/\/ or wss:\/\//,
    );
    expect(error('--remote', 'not a url')).toMatch(/^--remote: "not a url" is not a URL; /);
  });
});

describe('cli args - capabilities', () => {
  const grid = ['--remote', 'http://grid:4444/wd/hub', '--browsers', 'chromium'];

  it('--capabilities takes a JSON object of W3C capabilities, with --remote http(s):// only', () => {
    expect(parse(...grid).capabilities).toBeNull();
    expect(
      parse(
        ...grid,
        '--capabilities',
        '{"platformName":"linux","goog:chromeOptions":{"binary":"/opt/chromium/chrome","args":[]},"bstack:options":{"os":"Windows"}}',
      ).capabilities,
    ).toEqual({
      platformName: 'linux',
      'goog:chromeOptions': { binary: '/opt/chromium/chrome', args: [] },
      'bstack:options': { os: 'Windows' },
    });
    // null removes a default (JSON Merge Patch).
    expect(
      parse(...grid, '--capabilities', '{"goog:chromeOptions":{"binary":null}}').capabilities,
    ).toEqual({ 'goog:chromeOptions': { binary: null } });
    expect(error('--capabilities', '{}')).toMatch(
      /^--capabilities applies only to --remote http\(s\):\/\/ /,
    );
    expect(error('--remote', 'ws://h:1/x', '--capabilities', '{}')).toMatch(
      /^--capabilities applies only to --remote http\(s\):\/\/ /,
    );
  });

  it('refuses what is not a JSON object, and names the JSON path of a wrong field', () => {
    expect(error(...grid, '--capabilities', '{browserName: chrome}')).toMatch(
      /^--capabilities: not JSON \(.+\); give a JSON object, e\.g\. '\{"browserName":"chrome",/,
    );
    expect(error(...grid, '--capabilities', '["chrome"]')).toMatch(
      /^--capabilities: \$ is an array; allowed: a JSON object of W3C capabilities, e\.g\. /,
    );
    expect(error(...grid, '--capabilities', '{"browserName":7}')).toBe(
      '--capabilities: $.browserName is a number; allowed: a string, e.g. "chrome" (it replaces the name --browsers gives)',
    );
    expect(error(...grid, '--capabilities', '{"browserName":null}')).toMatch(
      /^--capabilities: \$\.browserName is null; allowed: a string/,
    );
    expect(error(...grid, '--capabilities', '{"platformName":["linux"]}')).toBe(
      '--capabilities: $.platformName is an array; allowed: a string, or null to drop it',
    );
    expect(error(...grid, '--capabilities', '{"goog:chromeOptions":{"args":["--a",2]}}')).toBe(
      '--capabilities: $["goog:chromeOptions"].args[1] is a number; allowed: a string',
    );
    expect(error(...grid, '--capabilities', '{"moz:firefoxOptions":{"args":"-headless"}}')).toBe(
      '--capabilities: $["moz:firefoxOptions"].args is a string; allowed: an array of strings (it replaces the default arguments)',
    );
    expect(error(...grid, '--capabilities', '{"ms:edgeOptions":{"binary":true}}')).toBe(
      `--capabilities: $["ms:edgeOptions"].binary is a boolean; allowed: a string: the browser's path on the node`,
    );
    expect(error(...grid, '--capabilities', '{"goog:chromeOptions":"--headless"}')).toMatch(
      /^--capabilities: \$\["goog:chromeOptions"\] is a string; allowed: an object of the browser's options/,
    );
    // A new-session body pasted whole: the sweep wraps the capabilities itself.
    expect(
      error(...grid, '--capabilities', '{"capabilities":{"alwaysMatch":{"browserName":"chrome"}}}'),
    ).toMatch(
      /^--capabilities: \$\.capabilities: give the capabilities themselves, not a new-session request/,
    );
  });
});

describe('cli args - usage', () => {
  it('lists the vocabulary and the limits', () => {
    const text = sweepUsage(vocab, browsers);
    expect(text).toContain('allowed: chromium, firefox, webkit');
    expect(text).toContain('allowed: memory, idb, pouchdb');
    expect(text).toContain(`1 to ${PLAN_LIMITS.maxSize}`);
  });
});

describe('cli args - serve', () => {
  it('uses --port, then PORT, then the default', () => {
    expect(parseServeArgs([], {})).toEqual({ help: false, port: DEFAULT_SERVE_PORT });
    expect(parseServeArgs([], { PORT: '8080' }).port).toBe(8080);
    expect(parseServeArgs(['--port', '9000'], { PORT: '8080' }).port).toBe(9000);
    expect(parseServeArgs(['--port=0'], {}).port).toBe(0);
  });

  it('refuses bad ports, naming where the value came from', () => {
    expect(() => parseServeArgs(['--port', '70000'], {})).toThrow(
      '--port: "70000" is not a port; allowed: 0 to 65535 (0 picks a free one)',
    );
    expect(() => parseServeArgs([], { PORT: 'x' })).toThrow(
      'PORT: "x" is not a port; allowed: 0 to 65535 (0 picks a free one)',
    );
    expect(() => parseServeArgs(['--host', 'a'], {})).toThrow(
      /^unknown flag --host; allowed: --port, --config, --help$/,
    );
  });
});

describe('cli args - --baseline', () => {
  it('takes a file and a threshold, and refuses a threshold alone or a fixed count', () => {
    expect(parse('--baseline', 'base.json', '--threshold', '10%').baseline).toEqual({
      path: 'base.json',
      thresholdPct: 10,
    });
    expect(parse('--baseline', 'base.json').baseline).toEqual({
      path: 'base.json',
      thresholdPct: 5,
    });
    expect(() => parse('--threshold', '5%')).toThrow('--threshold applies only to --baseline');
    expect(() => parse('--baseline', 'base.json', '--iterations', '5')).toThrow(
      '--baseline samples each row until its change is decided, which needs adaptive sampling; leave out --iterations',
    );
    expect(() => parse('--baseline', 'base.json', '--threshold', 'lots')).toThrow(
      '--threshold: "lots" is not a percentage',
    );
  });
});

/** The stores an --ab pair names: idb wraps a package, so its variants build; crash is driven. */
const abVocab: PlanVocabulary = {
  suites: ['insert', 'crash'],
  adapters: ['memory', 'idb'],
  fixtures: ['person'],
  wraps: { idb: { packages: ['idb'] } },
};
const abError = (...argv: string[]): string => {
  try {
    parseSweepArgs(argv, abVocab, ['chromium']);
  } catch (e) {
    expect(e).toBeInstanceOf(ArgsError);
    return (e as Error).message;
  }
  throw new Error(`expected ${argv.join(' ')} to be refused`);
};

describe('cli args - --ab', () => {
  it('refuses a budget under what two passes need, at the flags, before any build', () => {
    expect(abError('--ab', 'idb,memory', '--budget', '29s')).toMatch(
      /^--ab: --budget 29s runs 1 pass .* give --budget 30s or more$/,
    );
    const args = parseSweepArgs(['--ab', 'idb,memory', '--budget', '30s'], abVocab, ['chromium']);
    expect(args.plan.auto?.passes).toBe(2);
  });

  it('refuses a variant in two spellings as the same store, as the page would', () => {
    expect(abError('--ab', 'idb@+5%,idb@+05%')).toBe(
      '--ab: compares two different stores, A then B; "idb@+5%" and "idb@+05%" are one store, "idb@+5%" (an A/A names a registered store twice, e.g. idb,idb)',
    );
  });

  it('takes a registered store named twice as an A/A on one build, X against X@twin', () => {
    expect(parseSweepArgs(['--ab', 'idb,idb'], abVocab, ['chromium']).plan.adapters).toEqual([
      'idb',
      'idb@twin',
    ]);
  });

  it('builds the other side of a variant the way the variant is built, X@installed, so only the code differs', () => {
    const sides = (pair: string) =>
      parseSweepArgs(['--ab', pair], abVocab, ['chromium']).plan.adapters;
    expect(sides('idb,idb@8.0.4')).toEqual(['idb@installed', 'idb@8.0.4']);
    expect(sides('idb@file:../idb,idb')).toEqual(['idb@file:../idb', 'idb@installed']);
    // An instrument wraps the installed store itself: both sides already come the same way.
    expect(sides('idb,idb@+10%')).toEqual(['idb', 'idb@+10%']);
    // A store that wraps no package has no other way to be built.
    expect(sides('memory,idb@8.0.4')).toEqual(['memory', 'idb@8.0.4']);
  });

  it('names --threshold for a bad threshold, with the range the page reads back exactly', () => {
    expect(abError('--ab', 'idb,memory', '--threshold', '0.0000001%')).toBe(
      '--threshold: "0.0000001%" is not a percentage from 0.01% to 99.99%, at most 2 decimals, e.g. 5%',
    );
    expect(abError('--ab', 'idb,memory', '--threshold', 'abc')).toMatch(/^--threshold: "abc"/);
    expect(abError('--ab', 'idb,memory', '--threshold', '100%')).toMatch(/^--threshold: "100%"/);
    const args = parseSweepArgs(['--ab', 'idb,memory', '--threshold', '02.50%'], abVocab, [
      'chromium',
    ]);
    expect(args.plan.ab).toEqual({ thresholdPct: 2.5 });
  });

  it('names --ab, not --adapters, for its stores', () => {
    expect(abError('--ab', 'idb,nosuch')).toMatch(/^--ab: unknown "nosuch"; allowed: /);
    expect(abError('--ab', ',,')).toMatch(/^--ab: none given; allowed: /);
  });

  it("--budget auto starts a plan of the most passes its cap pays for, each given a default pass's share", () => {
    const args = parseSweepArgs(['--ab', 'idb,memory', '--budget', 'auto'], abVocab, ['chromium']);
    const most = AB_BUDGET_MAX_MS / AB_PASS_MS;
    expect(args.sizing).toEqual({ maxMs: AB_BUDGET_MAX_MS, least: DEFAULT_AUTO.passes, most });
    expect(args.plan.auto?.passes).toBe(most);
    expect(args.plan.budgetMs).toBe(most * AB_PASS_MS);
    expect(args.launches).toBe(most);
  });

  it('--budget-max alone is --budget auto under that cap; --auto=passes:N sets the fewest', () => {
    const args = parseSweepArgs(
      ['--ab', 'idb,memory', '--budget-max', '3m', '--auto=passes:5'],
      abVocab,
      ['chromium'],
    );
    expect(args.sizing).toEqual({ maxMs: 180_000, least: 5, most: 180_000 / AB_PASS_MS });
    // The fewest is never more than the cap, nor as few as the passes the run is sized after.
    expect(
      parseSweepArgs(['--ab', 'idb,memory', '--budget-max', '2m'], abVocab, ['chromium']).sizing,
    ).toMatchObject({ least: 6, most: 6 });
    expect(
      parseSweepArgs(['--ab', 'idb,memory', '--budget', 'AUTO', '--auto=passes:2'], abVocab, [
        'chromium',
      ]).sizing?.least,
    ).toBe(SIZED_AFTER + 1);
  });

  it('refuses --budget auto and --budget-max where they mean nothing, saying what would', () => {
    expect(error('--budget', 'auto')).toBe(
      '--budget auto sizes an --ab run to its question, and this sweep has no --ab: give --budget a duration (e.g. --budget 3m30s), or --ab A,B',
    );
    expect(error('--budget-max', '5m')).toMatch(/^--budget-max sizes an --ab run to its question/);
    expect(abError('--ab', 'idb,memory', '--budget', '4m', '--budget-max', '10m')).toBe(
      '--budget "4m" fixes each browser\'s budget, and --budget-max caps --budget auto: give one of the two',
    );
    expect(abError('--ab', 'idb,memory', '--budget-max', 'soon')).toMatch(
      /^--budget-max: "soon" is not a duration; allowed: /,
    );
    expect(abError('--ab', 'idb,memory', '--budget-max', '1m')).toBe(
      `--budget-max 1m gives 3 passes of ${AB_PASS_MS / 1000} s, and --budget auto sizes a run after pass 3, so it needs room for one more: give --budget-max 1m20s or more, or a fixed --budget`,
    );
    expect(abError('--ab', 'idb,memory', '--budget', 'auto', '--iterations', '5')).toMatch(
      /^--iterations takes a fixed count of samples per row; --budget samples adaptively/,
    );
  });
});
