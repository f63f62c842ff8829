/**
 * Hostile inputs that wait out a time limit of the product at its default value: one test per
 * limit. hostile-inputs.test.ts checks the same behaviour with each limit set to a second through
 * its environment variable (docs/flags.md, "Time limits"); these check the defaults themselves.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../../src/cli/args/config-file.ts';
import { loadVocabulary } from '../../../src/cli/build/vocabulary.ts';
import { listening, port, sweepAsync } from './endpoints.ts';

const dir = mkdtempSync(join(tmpdir(), 'storebench-hostile-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A project folder with a storebench.config.json holding `data`. */
function project(name: string, data: unknown): string {
  const at = join(dir, name);
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, 'storebench.config.json'), JSON.stringify(data));
  return at;
}

describe('hostile inputs, at the default time limits', () => {
  it('fault 10: a module that never finishes importing is stopped at the default limit, 30 s, blaming it', async () => {
    const at = project('hangs', { adapters: ['./hangs.mts'] });
    writeFileSync(
      join(at, 'hangs.mts'),
      'setInterval(() => {}, 1000);\nawait new Promise(() => {});\n',
    );
    const started = Date.now();
    const e = await loadVocabulary(readConfig(undefined, at)).catch((x: unknown) => x as Error);
    expect(Date.now() - started).toBeLessThan(40_000);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as Error).message).toBe(
      "the config's adapter modules did not finish importing within 30 s: a top-level await that never settles, an endless loop at import, or work at import that takes longer",
    );
  }, 60_000);

  it('fault 3 and 14: a --remote that takes the connection and never answers is refused at the default limit, 10 s, before the build', async () => {
    // A real endpoint: it accepts every connection and never writes a byte.
    const silent = await listening(createServer(() => {}));
    try {
      const r = await sweepAsync([
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
      ]);
      expect(r.code).toBe(2);
      expect(r.out).not.toContain('building the page');
      expect(r.out.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^sweep: --remote http:\/\/127\.0\.0\.1:\d+\/?: the endpoint cannot be reached \(no answer within 10 s\); give the URL/,
        ),
      ]);
      expect(r.ms).toBeLessThan(40_000);
    } finally {
      silent.close();
    }
  }, 90_000);
});
