import { lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeCommand, parseMergeArgs } from '../../../../src/cli/commands/merge.ts';
import { MergeError, mergeResults, type MergeInput } from '../../../../src/core/results/merge.ts';
import { parseResultsInput } from '../../../../src/core/results/input.ts';
import type { CaseResult, ResultsFile } from '../../../../src/core/results/results.ts';
import { summarize } from '../../../../src/core/stats/stats.ts';
import { sampleResults } from '../../../sample-results.ts';

const row = (kase: string, adapter = 'idb', size = 100): CaseResult => ({
  suite: 'insert',
  case: kase,
  title: kase,
  adapter,
  size,
  params: {},
  operations: size,
  status: 'ok',
  reason: null,
  samples: [1, 2, 3],
  warmup: [],
  stats: summarize([1, 2, 3]),
});

/** One shard's document of one browser: its own run id, the plan's shard, its rows. */
function doc(
  browser: string,
  shard: { index: number; count: number } | null,
  cases: string[],
  over: { ua?: string; runId?: string } = {},
): ResultsFile {
  const base = sampleResults();
  const plan = { ...base.run.plan, ...(shard ? { shard } : {}) };
  return {
    ...base,
    run: { ...base.run, id: over.runId ?? `run-${browser}-${shard?.index ?? 0}`, browser, plan },
    environment: { ...base.environment, userAgent: over.ua ?? `UA of ${browser}` },
    cases: cases.map((c) => row(c)),
  };
}

const input = (source: string, data: unknown): MergeInput => ({ source, data });
const refusal = (inputs: MergeInput[]): string => {
  try {
    mergeResults(inputs);
  } catch (e) {
    expect(e).toBeInstanceOf(MergeError);
    return (e as Error).message;
  }
  throw new Error('expected the merge to be refused');
};

describe('cli merge - combining', () => {
  it('joins the shards of each browser into one set, one document each, sorted by browser and shard', () => {
    const { documents, notes } = mergeResults([
      input('f2.json', doc('firefox', { index: 2, count: 2 }, ['bulk'])),
      input('c1.json', doc('chromium', { index: 1, count: 2 }, ['serial'])),
      input('f1.json', doc('firefox', { index: 1, count: 2 }, ['serial'])),
      input('c2.json', doc('chromium', { index: 2, count: 2 }, ['bulk'])),
    ]);
    expect(documents.map((d) => `${d.run.browser} ${d.run.plan.shard?.index}`)).toEqual([
      'chromium 1',
      'chromium 2',
      'firefox 1',
      'firefox 2',
    ]);
    expect(notes).toEqual([
      'chromium: 2 documents (1/2, 2/2), 2 rows',
      'firefox: 2 documents (1/2, 2/2), 2 rows',
    ]);
  });

  it('takes browsers from different machines of one plan, and sets as inputs (merging is associative)', () => {
    const first = mergeResults([
      input('a.json', doc('chromium', null, ['serial', 'bulk'])),
      input('b.json', doc('manual-safari', null, ['serial', 'bulk'])),
    ]);
    const again = mergeResults([
      input('set.json', first.documents),
      input('c.json', doc('firefox', null, ['serial'])),
    ]);
    expect(again.documents.map((d) => d.run.browser)).toEqual([
      'chromium',
      'firefox',
      'manual-safari',
    ]);
  });

  it('says which shards are missing, and skips partial files and repeated documents with a note', () => {
    const c1 = doc('chromium', { index: 1, count: 3 }, ['serial']);
    const { documents, notes } = mergeResults([
      input('c1.json', c1),
      input('again/c1.json', structuredClone(c1)),
      input('x.partial.json', {
        schema: 'storebench/partial@1',
        note: '',
        run: {},
        userAgent: null,
        cases: [],
      }),
    ]);
    expect(documents).toHaveLength(1);
    expect(notes).toEqual([
      'skipped x.partial.json: rows of a browser run that did not finish (storebench/partial@1), not a results document',
      'skipped again/c1.json: the same run as c1.json (run run-chromium-1, chromium, 1/3)',
      'chromium: 1 document (1/3), 1 row; MISSING shards 2/3, 3/3: their rows are not in the set',
    ]);
  });

  it('notes documents from different harness commits without refusing them', () => {
    const b = doc('firefox', null, ['serial']);
    b.harness = { ...b.harness, commit: 'def5678' };
    expect(
      mergeResults([input('a.json', doc('chromium', null, ['serial'])), input('b.json', b)]).notes,
    ).toContain(
      'note: the documents come from different harness commits (abc1234, def5678); suites or stores may have changed between them',
    );
  });
});

describe('cli merge - refusing', () => {
  it('refuses files from different plans, naming both files and the fields that differ', () => {
    const other = doc('firefox', null, ['serial']);
    other.run.plan = { ...other.run.plan, sizes: [100, 1000], iterations: 9 };
    expect(
      refusal([input('a.json', doc('chromium', null, ['serial'])), input('b.json', other)]),
    ).toBe(
      'a.json and b.json come from different plans (iterations: 5 in a.json, 9 in b.json; sizes: 100 in a.json, 100,1000 in b.json); ' +
        'a results set holds the shards and browsers of one plan: run every machine and shard with the same flags',
    );
  });

  it('compares plans without their shard and without caring for key order', () => {
    const a = doc('chromium', { index: 1, count: 2 }, ['serial']);
    const b = doc('chromium', { index: 2, count: 2 }, ['bulk']);
    b.run.plan = Object.fromEntries(
      Object.entries(b.run.plan).reverse(),
    ) as ResultsFile['run']['plan'];
    expect(mergeResults([input('a.json', a), input('b.json', b)]).documents).toHaveLength(2);
  });

  it('refuses files of another schema version, naming the files', () => {
    const future = { ...doc('firefox', null, ['serial']), schema: 'storebench/results@2' };
    expect(
      refusal([input('a.json', doc('chromium', null, ['serial'])), input('b.json', future)]),
    ).toBe(
      'the files are of different schema versions (storebench/results@1 in a.json; storebench/results@2 in b.json); a results set holds one version, and this build reads storebench/results@1',
    );
    expect(refusal([input('b.json', future)])).toBe(
      'b.json: schema storebench/results@2; this build reads and merges only storebench/results@1',
    );
  });

  it('refuses the same row of the same browser from the same machine twice', () => {
    const a = doc('chromium', null, ['serial', 'bulk'], { runId: 'r1' });
    const b = doc('chromium', null, ['bulk'], { runId: 'r2' });
    expect(refusal([input('a.json', a), input('b.json', b)])).toBe(
      "a.json and b.json both hold chromium's row insert/bulk idb size 100 from the same machine (run r1, chromium, whole plan; run r2, chromium, whole plan); " +
        'a results set holds each row of a browser once: leave one of them out, or rerun the one that is wrong',
    );
    // The same browser label on another machine (another user agent) is another column of the set.
    expect(
      mergeResults([
        input('a.json', a),
        input('b.json', doc('chromium', null, ['bulk'], { ua: 'UA of a Mac', runId: 'r2' })),
      ]).documents,
    ).toHaveLength(2);
  });

  it('refuses an invalid document with its JSON path, and an empty input', () => {
    const bad = doc('chromium', null, ['serial']) as unknown as { cases: { samples: unknown }[] };
    (bad.cases[0] as { samples: unknown }).samples = 'x';
    expect(refusal([input('bad.json', bad)])).toBe(
      'bad.json: $.cases[0].samples: expected an array, got "x"',
    );
    expect(refusal([])).toBe('no files to merge; give one or more results files');
  });
});

describe('cli merge - command', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'storebench-merge-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = mergeCommand(argv, {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
    });
    return { code, stdout, stderr };
  };
  const write = (name: string, data: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(data));
    return path;
  };

  it('writes a JSON array of the documents that every results reader takes', () => {
    const a = write('a.json', doc('chromium', { index: 1, count: 2 }, ['serial']));
    const b = write('b.json', doc('chromium', { index: 2, count: 2 }, ['bulk']));
    const out = join(dir, 'merged.json');
    const { code, stdout, stderr } = run(a, b, '--out', out);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`merge: wrote ${out}: 2 documents, 2 rows, from 2 files`);
    const set = parseResultsInput(readFileSync(out, 'utf8'), out);
    expect(set.map((d) => d.cases.map((c) => c.case))).toEqual([['serial'], ['bulk']]);
  });

  it('exits 2 with the reason when refusing, and writes nothing', () => {
    const a = write('a.json', doc('chromium', null, ['serial']));
    const other = doc('firefox', null, ['serial']);
    other.run.plan = { ...other.run.plan, seed: 7 };
    const b = write('b.json', other);
    const out = join(dir, 'merged.json');
    const { code, stderr } = run(a, b, `--out=${out}`);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `merge: refused: ${a} and ${b} come from different plans (seed: 42 in ${a}, 7 in ${b}); a results set holds the shards and browsers of one plan: run every machine and shard with the same flags\n`,
    );
    expect(() => readFileSync(out)).toThrow();
  });

  it('exits 2 on a file that is missing or not JSON, on bad flags, and on an output it will not replace', () => {
    const out = join(dir, 'merged.json');
    expect(run(join(dir, 'nope.json'), '--out', out)).toMatchObject({
      code: 2,
      stderr: `merge: ${join(dir, 'nope.json')}: no such file\n`,
    });
    const text = join(dir, 'text.json');
    writeFileSync(text, 'not json');
    const notJson = run(text, '--out', out);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/^merge: .*text\.json: not JSON \(/);
    expect(run(text).code).toBe(2);
    expect(() => parseMergeArgs(['a.json'])).toThrow(
      '--out FILE is required: where to write the merged set',
    );
    expect(() => parseMergeArgs(['--out', 'x.json'])).toThrow(
      'no files given; e.g. npm run merge -- out/*-chromium.json out/*-firefox.json --out merged.json',
    );
    expect(() => parseMergeArgs(['a.json', '--out'])).toThrow(
      '--out needs a value, e.g. --out merged.json',
    );
    expect(() => parseMergeArgs(['a.json', '--frob', '--out', 'x'])).toThrow(
      'unknown flag --frob; allowed: --out, --help',
    );
    // A symbolic link at --out would be replaced by a file, not written through: refused, and left as it was.
    const good = write('good.json', doc('chromium', null, ['serial']));
    const target = join(dir, 'target.json');
    writeFileSync(target, 'keep');
    const link = join(dir, 'link.json');
    symlinkSync(target, link);
    expect(run(good, '--out', link)).toMatchObject({
      code: 2,
      stderr: `merge: --out: cannot write ${link} is a symbolic link; give the path of a regular file, or of one that does not exist yet\n`,
    });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('keep');
  });
});
