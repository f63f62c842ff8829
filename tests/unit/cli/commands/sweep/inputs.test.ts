/**
 * The sweep's input check (src/cli/commands/sweep/inputs.ts) as a user meets it, the sweep run as
 * a process: inputs it refuses before anything is built or any browser starts, with one line and
 * exit 2, and a time limit the environment sets badly.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listening, port, ROOT, sweepAsync } from '../../endpoints.ts';

const dir = mkdtempSync(join(tmpdir(), 'storebench-sweep-inputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The sweep as a user runs it: its exit, what it printed and how long it took. */
function sweep(cwd: string, ...args: string[]) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'storebench.js'), 'sweep', ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: r.status, out: r.stdout + r.stderr, ms: Date.now() - started };
}

describe('checkInputs - refused before anything runs', () => {
  it('a time limit the environment sets to what is not a number of milliseconds is refused, exit 2', async () => {
    const r = await sweepAsync(['--browsers', 'chromium', '--adapters', 'memory'], {
      STOREBENCH_IMPORT_TIMEOUT_MS: '10s',
    });
    expect(r.code).toBe(2);
    expect(r.out.trim().split('\n')).toEqual([
      'sweep: STOREBENCH_IMPORT_TIMEOUT_MS="10s": give a whole number of milliseconds from 1 to 3600000, or leave it unset for 30000',
    ]);
  }, 90_000);

  it('fault 5: a --summary that cannot be written is refused before any browser starts', () => {
    const r = sweep(
      ROOT,
      '--browsers',
      'chromium',
      '--suites',
      'insert',
      '--adapters',
      'memory',
      '--out',
      join(dir, 'out5'),
      '--summary',
      join(dir, 'no-such-folder', 'summary.md'),
    );
    expect(r.code).toBe(2);
    expect(r.out.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^sweep: --summary: cannot write .*summary\.md: its folder does not exist$/,
      ),
    ]);
    expect(r.ms).toBeLessThan(30_000);
  }, 90_000);

  it('fault 3 and 14: a --remote that takes the connection and never answers is refused at the limit, before the build', async () => {
    // A real endpoint: it accepts every connection and never writes a byte. The limit set low
    // (docs/flags.md, "Time limits"); the slow file checks the default of 10 s.
    const silent = await listening(createServer(() => {}));
    try {
      const r = await sweepAsync(
        [
          '--remote',
          `http://127.0.0.1:${port(silent)}`,
          '--browsers',
          'chromium',
          '--suites',
          'insert',
          '--adapters',
          'memory',
          '--out',
          join(dir, 'out3'),
        ],
        { STOREBENCH_REMOTE_TIMEOUT_MS: '1000' },
      );
      expect(r.code).toBe(2);
      expect(r.out).not.toContain('building the page');
      expect(r.out.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^sweep: --remote http:\/\/127\.0\.0\.1:\d+\/?: the endpoint cannot be reached \(no answer within 1 s\); give the URL/,
        ),
      ]);
      expect(r.ms).toBeLessThan(40_000);
    } finally {
      silent.close();
    }
  }, 90_000);

  it('fault 14: a dead --remote (nothing listening) is refused before the build', async () => {
    const gone = await listening(createServer());
    const at = port(gone);
    await new Promise((ok) => gone.close(ok));
    const r = await sweepAsync([
      '--remote',
      `http://127.0.0.1:${at}`,
      '--browsers',
      'chromium',
      '--suites',
      'insert',
      '--adapters',
      'memory',
      '--out',
      join(dir, 'out14'),
    ]);
    expect(r.code).toBe(2);
    expect(r.out).not.toContain('building the page');
    expect(r.out).toMatch(/the endpoint cannot be reached \(connect ECONNREFUSED/);
  }, 90_000);
});
