/**
 * `npm run history` on the committed runs in results/: real files, and one real series with a
 * synthetic step applied to a copy in memory (the files on disk are not changed, and no series
 * made up here is committed).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { historyCommand } from '../../../../src/cli/commands/history.ts';
import { historyOf } from '../../../../src/core/history/history.ts';
import { parseResultsInput } from '../../../../src/core/results/input.ts';
import type { ResultsFile } from '../../../../src/core/results/results.ts';

const RESULTS = fileURLToPath(new URL('../../../../results/', import.meta.url));
const isRow = (c: ResultsFile['cases'][number]) =>
  c.suite === 'insert' && c.case === 'bulk' && c.adapter === 'idb' && c.size === 100;

/** The committed Chromium runs that hold insert/bulk on idb at 100 documents, in run order. */
function chromiumRuns(): { name: string; text: string }[] {
  return readdirSync(RESULTS)
    .filter((n) => n.endsWith('-chromium.json'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(RESULTS, name), 'utf8') }))
    .filter(({ text }) =>
      (JSON.parse(text) as ResultsFile).cases.some((c) => isRow(c) && c.status === 'ok'),
    );
}

/** The text of a copy of a run with that row's samples times `factor`: the synthetic step. */
function stepped(text: string, factor: number): string {
  const doc = JSON.parse(text) as ResultsFile;
  for (const c of doc.cases) if (isRow(c)) c.samples = c.samples.map((x) => x * factor);
  return JSON.stringify(doc);
}

async function run(files: Map<string, string>, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await historyCommand(
    [...files.keys(), ...args],
    { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) },
    (path) => files.get(path) ?? '',
  );
  return { code, stdout, stderr };
}

describe('history on the committed runs', () => {
  const runs = chromiumRuns();

  it('has the 8 Chromium runs of the default plan that hold the row', () => {
    expect(runs).toHaveLength(8);
  });

  it('finds a synthetic ×1.15 step from the 5th run on at that run, on that row, and exits 1', async () => {
    // Synthetic: the real files, with this one row's samples ×1.15 in copies of runs 5 to 8.
    const files = new Map(runs.map((r, i) => [r.name, i >= 4 ? stepped(r.text, 1.15) : r.text]));
    const { code, stdout } = await run(files);
    expect(code).toBe(1);
    const changes = stdout.slice(stdout.indexOf('Changes:'), stdout.indexOf('Each point:'));
    const lines = changes.split('\n').filter((l) => l.includes('SLOWER !!'));
    expect(lines).toHaveLength(1);
    const started = (JSON.parse(runs[4]!.text) as ResultsFile).run.startedAt;
    const line = lines[0]!;
    expect(line).toContain('chromium insert/bulk idb 100');
    expect(line).toContain(`→ ${started.slice(0, 16).replace('T', ' ')}`);
    // The same through the core: the change is at the 5th point, and its interval excludes +5%.
    const docs = [...files].flatMap(([name, text]) => parseResultsInput(text, name));
    const report = historyOf(
      docs.map((doc, i) => ({ doc, source: String(i) })),
      { by: 'date' },
    );
    const row = report.series.find(
      (s) =>
        s.series.key.case === 'bulk' && s.series.key.adapter === 'idb' && s.series.key.size === 100,
    );
    expect(row?.changes.map((c) => c.index)).toEqual([4]);
    expect(row!.changes[0]!.low).toBeGreaterThan(5);
  });

  it('finds no change in the same runs unchanged', async () => {
    const files = new Map(runs.map((r) => [r.name, r.text]));
    const { code, stdout } = await run(files);
    expect(code).toBe(0);
    expect(stdout).toContain('(no change point in any series)');
  });

  it('over every default run of identical code, each change reported beyond 5% is undecided and says what changed with it', () => {
    const names = readdirSync(RESULTS).filter((n) => n.endsWith('.json') && n !== 'schema.json');
    const docs = names.flatMap((n) => parseResultsInput(readFileSync(join(RESULTS, n), 'utf8'), n));
    const report = historyOf(
      docs.map((doc, i) => ({ doc, source: names[i] ?? '' })),
      { by: 'date' },
    );
    const changes = report.series.flatMap((s) => s.changes);
    for (const c of changes) {
      if (c.verdict === 'undecided') expect(c.environment.length).toBeGreaterThan(0);
      else expect(Math.max(Math.abs(c.low), Math.abs(c.high))).toBeLessThanOrEqual(5);
    }
    expect(report.code).not.toBe(1);
  });

  it('says a folder with no results files, a bad --by and a missing file are bad input (exit 2)', async () => {
    expect((await run(new Map(), '--by', 'week', 'x.json')).code).toBe(2);
    const missing = await run(new Map([['nope.json', '']]));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^history: nope\.json: /);
  });
});
