// --summary FILE.md whatever the outcome: CI posts the file when it exists, so a run that ends
// before its report (refused input, a broken contract, a crash) still writes one, with its exit
// code and what that code means. The real sweep, in this process, on input it refuses.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sweepCommand } from '../../../../src/cli/commands/sweep/main.ts';
import { CHECK_SUMMARY, endedSummaryMarkdown } from '../../../../src/export/summary-markdown.ts';
import { checkCommand } from '../../../../src/cli/commands/check/main.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function quiet() {
  const printed: string[] = [];
  return {
    printed,
    io: { stdout: (s: string) => printed.push(s), stderr: (s: string) => printed.push(s) },
  };
}

describe('sweep - a summary whatever the outcome', () => {
  it('refused input: the summary says what was refused, exit 2 and what it means', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storebench-ended-'));
    dirs.push(dir);
    const path = join(dir, 'summary.md');
    const { printed, io } = quiet();
    const code = await sweepCommand(['--suites', 'nosuchsuite', '--summary', path], io);
    expect(code).toBe(2);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('**FAILED: exit 2, refused before any timing: bad input');
    expect(text).toContain('nosuchsuite');
    expect(printed.join('')).toContain('Summary: ');
  });

  it('--summary=FILE is read as --summary FILE; --help writes none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storebench-ended-'));
    dirs.push(dir);
    const path = join(dir, 'summary.md');
    expect(await sweepCommand(['--budget', 'soon', `--summary=${path}`], quiet().io)).toBe(2);
    expect(readFileSync(path, 'utf8')).toContain('--budget');
    const help = join(dir, 'help.md');
    expect(await sweepCommand(['--help', '--summary', help], quiet().io)).toBe(0);
    expect(existsSync(help)).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    '--browsers safari on Linux: no apt line, which brings no Safari; the summary says what failed',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'storebench-ended-'));
      dirs.push(dir);
      const path = join(dir, 'summary.md');
      const { printed, io } = quiet();
      const argv = ['--browsers', 'safari', '--suites', 'insert', '--adapters', 'memory'];
      const code = await sweepCommand([...argv, '--out', dir, '--summary', path], io);
      expect(code).not.toBe(0);
      const said = printed.join('');
      expect(said).toContain('Safari runs only on macOS');
      expect(said).not.toContain('apt-get');
      expect(readFileSync(path, 'utf8')).toContain('none of the requested browsers \\(safari\\)');
    },
  );

  it('a broken contract: each failed check under its own heading, by store and browser', () => {
    const text = endedSummaryMarkdown(2, [
      '    FAIL leaky in chromium: destroy: every delete: expected no connection left open, got blocked',
      'leaky broke the adapter contract (above): not timed.',
    ]);
    expect(text).toContain('#### The adapter contract failed');
    expect(text).toContain('- leaky in chromium: destroy: every delete');
    expect(text).toContain('- leaky broke the adapter contract \\(above\\): not timed.');
    expect(text).toContain('exit 2, refused before any timing');
  });
});

describe('sweep - a config value a flag overrides is still checked', () => {
  it('--budget on the command line does not hide a bad $.sweep.budget: exit 2, named by its key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storebench-ended-'));
    dirs.push(dir);
    const config = join(dir, 'storebench.config.json');
    writeFileSync(config, JSON.stringify({ sweep: { budget: 'soon', adapters: 'memory' } }));
    const { printed, io } = quiet();
    const code = await sweepCommand(['--config', config, '--budget', '20s', '--out', dir], io);
    expect(code).toBe(2);
    const said = printed.join('');
    expect(said).toContain('$.sweep.budget');
    expect(said).toContain('--budget overrides it in this run');
  });
});

describe('check - a summary whatever the outcome', () => {
  it('refused input: exit 2 and what it means for a check, with what was refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storebench-check-'));
    dirs.push(dir);
    const path = join(dir, 'check.md');
    const { io } = quiet();
    const code = await checkCommand(['nosuchstore', '--summary', path], io);
    expect(code).toBe(2);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('### storebench check');
    expect(text).toContain('**FAILED: exit 2, a store broke the adapter contract, or bad flags');
    expect(text).toContain('nosuchstore');
    expect(text).not.toContain('Nothing was timed');
  });

  it('--help writes none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storebench-check-'));
    dirs.push(dir);
    const path = join(dir, 'check.md');
    const { io } = quiet();
    expect(await checkCommand(['--help', '--summary', path], io)).toBe(0);
    expect(existsSync(path)).toBe(false);
  });

  it('an OK check says so with each store and browser; a failed one lists its failed checks', () => {
    const ok = endedSummaryMarkdown(0, ['keyval in chromium: keeps the contract'], CHECK_SUMMARY);
    expect(ok).toContain('**OK: exit 0, every store keeps the adapter contract');
    expect(ok).toContain('- keyval in chromium: keeps the contract');
    const failed = endedSummaryMarkdown(
      2,
      ['keyval in chromium: keeps the contract', 'FAIL leaky in chromium: destroy: blocked'],
      CHECK_SUMMARY,
    );
    expect(failed).toContain('#### The adapter contract failed');
    expect(failed).toContain('- leaky in chromium: destroy: blocked');
    expect(failed).toContain('#### What the check said');
  });
});
