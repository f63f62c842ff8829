import { describe, expect, it } from 'vitest';
import { ArgsError, DEFAULT_OUT, DEFAULT_SERVE_PORT, parseServeArgs, parseSweepArgs, sweepUsage } from '../../src/cli/args.ts';
import { DEFAULT_PLAN, PLAN_LIMITS, type PlanVocabulary } from '../../src/core/plan.ts';

const vocab: PlanVocabulary = { suites: ['insert', 'read'], adapters: ['memory', 'idb', 'pouchdb'], fixtures: ['person', 'nested'] };
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
      plan: { ...DEFAULT_PLAN, suites: ['insert', 'read'], adapters: ['memory', 'idb', 'pouchdb'], sizes: [...DEFAULT_PLAN.sizes], params: {} },
    });
  });
});

describe('cli args - sweep flags', () => {
  it('reads every flag in the --flag value form', () => {
    const args = parse(
      '--browsers', 'firefox,chromium',
      '--suites', 'read',
      '--adapters', 'idb,memory',
      '--sizes', '50,1000',
      '--iterations', '7',
      '--warmup', '0',
      '--seed', '9',
      '--timeout-ms', '5000',
      '--fixture', 'nested',
      '--params', 'chunkSizes=1,10;pageSize=20;mode=fast',
      '--out', 'results/x',
      '--no-build',
    );
    expect(args).toEqual({
      help: false,
      browsers: ['firefox', 'chromium'],
      out: 'results/x',
      build: false,
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
    expect(error('--browsers', 'nope')).toBe('--browsers: unknown "nope"; allowed: chromium, firefox, webkit');
    expect(error('--browsers', 'chromium,safari,edge')).toBe('--browsers: unknown "safari", "edge"; allowed: chromium, firefox, webkit');
    expect(error('--browsers', ',')).toBe('--browsers: none given; allowed: chromium, firefox, webkit');
  });

  it('gives the allowed range for sizes, iterations, warm-up and the time limit', () => {
    expect(error('--sizes', '0')).toBe(`--sizes: 0 is out of range; allowed: 1 to ${PLAN_LIMITS.maxSize}`);
    expect(error('--sizes', '100,abc')).toBe(`--sizes: "abc" is not a whole number; allowed: 1 to ${PLAN_LIMITS.maxSize}`);
    expect(error('--iterations', '0')).toBe(`--iterations: 0 is out of range; allowed: 1 to ${PLAN_LIMITS.maxIterations}`);
    expect(error('--warmup', '-1')).toBe(`--warmup: "-1" is not a whole number; allowed: 0 to ${PLAN_LIMITS.maxWarmup}`);
    expect(error('--timeout-ms', '1.5')).toBe(`--timeout-ms: "1.5" is not a whole number; allowed: 1 to ${PLAN_LIMITS.maxTimeoutMs}`);
  });

  it('names unknown suites, adapters and fixtures with the allowed ones', () => {
    expect(error('--suites', 'insert,write')).toBe('--suites: unknown "write"; allowed: insert, read');
    expect(error('--adapters', 'websql')).toBe('--adapters: unknown "websql"; allowed: memory, idb, pouchdb');
    expect(error('--fixture', 'people')).toBe('--fixture: unknown "people"; allowed: person, nested');
    expect(error('--fixture', 'person,nested')).toBe('--fixture: give exactly 1, got 2');
  });

  it('refuses malformed params', () => {
    expect(error('--params', 'pageSize')).toBe('--params: "pageSize" is not name=value; write e.g. chunkSizes=1,10,100;pageSize=10');
  });

  it('refuses unknown flags, suggesting a near one', () => {
    expect(error('--size', '100')).toMatch(/^unknown flag --size \(did you mean --sizes\?\); allowed: --browsers, --suites, .*--no-build, --help$/);
    expect(error('--frobnicate')).toMatch(/^unknown flag --frobnicate; allowed: --browsers/);
  });

  it('refuses a flag without its value, a value on a switch, repeats and stray words', () => {
    expect(error('--sizes')).toBe('--sizes needs a value, e.g. --sizes 100,1000');
    expect(error('--sizes', '--iterations', '3')).toBe('--sizes needs a value, e.g. --sizes 100,1000');
    expect(error('--out=')).toBe('--out needs a value, e.g. --out out');
    expect(error('--no-build=yes')).toBe('--no-build takes no value, got "yes"');
    expect(error('--sizes', '10', '--sizes', '20')).toBe('--sizes is given more than once; give it once (lists are comma-separated)');
    expect(error('chromium')).toBe('unexpected argument "chromium"; flags start with --, e.g. --sizes 100,1000 (see --help)');
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
    expect(() => parseServeArgs(['--port', '70000'], {})).toThrow('--port: "70000" is not a port; allowed: 0 to 65535 (0 picks a free one)');
    expect(() => parseServeArgs([], { PORT: 'x' })).toThrow('PORT: "x" is not a port; allowed: 0 to 65535 (0 picks a free one)');
    expect(() => parseServeArgs(['--host', 'a'], {})).toThrow(/^unknown flag --host; allowed: --port, --help$/);
  });
});
