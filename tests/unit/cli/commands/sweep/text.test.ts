// What the sweep prints of a file it reads is escaped: a hostile --baseline cannot move the
// terminal's cursor, set its title or turn text right to left. The real sweep, in this process,
// up to where it waits for a --manual browser that never comes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROCESS_IO } from '../../../../../src/cli/args/command-io.ts';
import { sweepCommand } from '../../../../../src/cli/commands/sweep/main.ts';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('sweep - terminal text', () => {
  it("escapes a baseline's control and bidi characters everywhere it prints them", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storebench-sweep-text-'));
    dirs.push(dir);
    const doc = JSON.parse(
      readFileSync('results/2026-11-25T06-13-31Z-73a2-chromium.json', 'utf8'),
    ) as { run: { browser: string } };
    doc.run.browser = 'chro\u001b]0;PWNED\u0007mium\u202e';
    writeFileSync(join(dir, 'base.json'), JSON.stringify(doc));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>page</title>');
    let printed = '';
    const capture = (chunk: string | Uint8Array) => ((printed += String(chunk)), true);
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    const code = await sweepCommand(
      [
        '--manual',
        '--wait-ms',
        '1000',
        '--page',
        dir,
        '--baseline',
        join(dir, 'base.json'),
        '--suites',
        'insert',
        '--cases',
        'bulk',
        '--adapters',
        'memory',
        '--out',
        join(dir, 'out'),
      ],
      PROCESS_IO,
    );
    vi.restoreAllMocks();
    expect(code).toBe(1);
    expect(printed).toContain('chro\\u001b]0;PWNED\\u0007mium\\u202e');
    // Nothing below 0x20 but newlines, no DEL or C1, no bidi control reaches the terminal.
    expect(
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      printed.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g),
    ).toBeNull();
  }, 60_000);
});
