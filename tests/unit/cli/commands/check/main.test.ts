/**
 * `storebench check`'s outputs, checked before any work. The contract itself runs in real
 * browsers in the end-to-end tests (tests/e2e/adapters-contract.spec.ts, sweep-installed.spec.ts).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCommand } from '../../../../../src/cli/commands/check/main.ts';

const dir = mkdtempSync(join(tmpdir(), 'storebench-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('check - --summary', () => {
  it('a --summary whose folder does not exist is exit 2, one line, before any browser', async () => {
    const summary = join(dir, 'no-such-folder', 'check.md');
    const said = { stdout: '', stderr: '' };
    const code = await checkCommand(['memory', '--browsers', 'chromium', '--summary', summary], {
      stdout: (t) => (said.stdout += t),
      stderr: (t) => (said.stderr += t),
    });
    expect(code).toBe(2);
    expect(said.stderr).toBe(
      `check: --summary: cannot write ${summary}: its folder does not exist\n`,
    );
    // Nothing ran: check names its stores and browsers before it builds the page or starts one.
    expect(said.stdout).toBe('');
    expect(existsSync(join(dir, 'no-such-folder'))).toBe(false);
  });
});
