/**
 * Results files as an attacker or a crash would leave them, fed to the three commands that read
 * them (compare, merge, export) as separate processes, the way a user runs them. The starting
 * point is a real file: the committed sweep in results/. Each hostile file gets exit 2 and a
 * one-line reason, and no byte below 0x20 but newline reaches the terminal from file text.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const REAL = join(
  ROOT,
  'results',
  readdirSync(join(ROOT, 'results')).find((f) => f.endsWith('-chromium.json'))!,
);
const dir = mkdtempSync(join(tmpdir(), 'storebench-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** ESC/OSC that would set the title, BEL, clear-screen, a carriage return, and a C1 CSI. */
const ESCAPES = '\u001b]0;pwned\u0007\u001b[2J\r\u009b31m';

const real = () =>
  JSON.parse(readFileSync(REAL, 'utf8')) as {
    run: { browser: string };
    cases: {
      adapter: string;
      status: string;
      params: unknown;
      samples: number[];
      stats?: { median: number };
    }[];
  };
const file = (name: string, data: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
  return path;
};
const command = (name: 'compare' | 'merge' | 'export', ...args: string[]) => {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src', 'cli', 'commands', `${name}.ts`), ...args],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('hostile results files', () => {
  const hostile = real();
  hostile.run.browser = `chromium${ESCAPES}`;
  for (const row of hostile.cases) row.adapter = `${row.adapter}${ESCAPES}`;
  const named = file('named.json', hostile);

  it('compare and merge print names holding terminal escapes as visible text', () => {
    for (const r of [
      command('compare', named, named),
      command('merge', named, '--out', join(dir, 'merged.json')),
    ]) {
      expect(r.stdout + r.stderr).not.toMatch(CONTROL);
      expect(r.stdout + r.stderr).toContain('\\u001b]0;pwned\\u0007');
    }
  });

  it('export writes them as data to a file, and its messages stay clean', () => {
    const r = command('export', named, '--format', 'csv', '--out', join(dir, 'named.csv'));
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(CONTROL);
    expect(readFileSync(join(dir, 'named.csv'), 'utf8')).toContain('\u001b]0;pwned');
  });

  const refused: [string, (doc: ReturnType<typeof real>) => unknown, RegExp][] = [
    // Written as text: building the object here would overflow this test's own stack first.
    [
      'params nested 5,000 levels deep',
      (d) => (
        (d.cases[0]!.params = 'DEEP'),
        JSON.stringify(d).replace('"DEEP"', `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`)
      ),
      /: \$\.cases\[0\]\.params(\.a)+: nested deeper than 32 levels; a results document is far shallower$/,
    ],
    [
      'a size holding escapes',
      (d) => (((d.cases[0] as unknown as { size: string }).size = ESCAPES), d),
      /: \$\.cases\[0\]\.size: expected a whole number >= 1, got "\\u001b\]0;pwned\\u0007\\u001b\[2J\\r\\u009b31m"$/,
    ],
    ['text that is not JSON', () => `{"schema": "${ESCAPES}`, /: not JSON \(/],
  ];
  for (const [what, make, message] of refused) {
    it(`refuses ${what} with exit 2 and one line, in compare, merge and export`, () => {
      const bad = file(`${what.replace(/\W+/g, '-')}.json`, make(real()));
      for (const r of [
        command('compare', REAL, bad),
        command('merge', bad, '--out', join(dir, 'm.json')),
        command('export', bad, '--format', 'csv'),
      ]) {
        expect(r.code, r.stderr).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(r.stderr.trimEnd()).toMatch(message);
        expect(r.stderr).not.toMatch(CONTROL);
      }
    });
  }

  it('shows statistics recomputed from the samples, not what the file claims', () => {
    const lying = real();
    const row = lying.cases.find((c) => c.status === 'ok')!;
    row.samples = [517.9, 96.5, 300, 310, 305, 298];
    // What lines up with the samples goes with them (a driven row's metrics and notes).
    for (const perSample of ['metrics', 'notes', 'series', 'samplesPerPass'])
      delete (row as Record<string, unknown>)[perSample];
    row.stats = { ...row.stats!, median: 0.001 };
    const r = command('export', file('lying.json', lying), '--format', 'tsv');
    expect(r.code).toBe(0);
    const [head, ...rows] = r.stdout.trimEnd().split('\r\n');
    const col = head!.split('\t').indexOf('median_ms');
    expect(rows.map((l) => l.split('\t')[col])).toContain('302.5');
    expect(rows.map((l) => l.split('\t')[col])).not.toContain('0.001');
  });
});
