/**
 * The sweep as a user runs it: `npm run sweep -- ...` in a child process, from the repository
 * root. It builds the page, drives Chromium and writes files; the test reads them back.
 */
import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseResults } from '../../src/core/results.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function sweep(args: readonly string[], timeoutMs: number): Promise<Run> {
  return new Promise((ok, fail) => {
    const child = spawn('npm', ['run', '--silent', 'sweep', '--', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      ok({ code, stdout, stderr });
    });
  });
}

test.describe.configure({ mode: 'serial' });

test('sweep - chromium, insert on memory, writes validated results and a CSV', async () => {
  test.setTimeout(300_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-sweep-'));
  try {
    const run = await sweep(['--browsers', 'chromium', '--suites', 'insert', '--adapters', 'memory', '--sizes', '50', '--iterations', '2', '--out', out], 280_000);
    const log = `${run.stdout}\n${run.stderr}`;
    expect(run.code, log).toBe(0);
    expect(run.stdout).toContain('OK: 1 browser completed');

    const files = readdirSync(out);
    const json = files.filter((f) => f.endsWith('-chromium.json'));
    expect(json, files.join(', ')).toHaveLength(1);
    const runId = (json[0] as string).slice(0, -'-chromium.json'.length);
    expect(runId).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-[0-9a-f]{4}$/);
    expect(files.filter((f) => f.includes('.partial.'))).toEqual([]);

    const results = parseResults(readFileSync(join(out, json[0] as string), 'utf8'), json[0]);
    expect(results.run.id).toBe(runId);
    expect(results.run.browser).toBe('chromium');
    expect(results.environment.crossOriginIsolated).toBe(true);
    const ok = results.cases.filter((c) => c.status === 'ok');
    expect(ok.length).toBeGreaterThan(0);
    for (const row of ok) expect(row.samples, `${row.case} ${row.adapter}`).toHaveLength(2);
    expect(results.cases.every((c) => c.adapter === 'memory' && c.size === 50 && c.suite === 'insert')).toBe(true);

    expect(files).toContain(`${runId}.csv`);
    const csv = readFileSync(join(out, `${runId}.csv`), 'utf8').split(/\r?\n/);
    expect(csv[0]).toMatch(/^[a-z_]+(,[a-z0-9_]+)+$/);
    expect(csv[0]).toContain('suite');
    expect(csv.filter((l) => l.startsWith(runId))).toHaveLength(results.cases.length);

    // The table: a header with the browser column, and the legend.
    expect(run.stdout).toMatch(/suite\s+case\s+adapter\s+size\s+chromium/);
    expect(run.stdout).toContain('Cells: median ms per sample');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('sweep - an unknown browser exits 2 and names the allowed ones', async () => {
  const run = await sweep(['--browsers', 'nope'], 60_000);
  expect(run.code, run.stdout + run.stderr).toBe(2);
  expect(run.stderr).toContain('--browsers: unknown "nope"; allowed: chromium, firefox, webkit');
});

test('sweep - size 0 exits 2 and names the allowed range', async () => {
  const run = await sweep(['--sizes', '0'], 60_000);
  expect(run.code, run.stdout + run.stderr).toBe(2);
  expect(run.stderr).toMatch(/--sizes: 0 is out of range; allowed: 1 to 10000000/);
});
