/**
 * `npm run study -- NAME --report-only` reads every results file below the study's folder. A
 * folder it cannot walk (a loop of symbolic links) is a one-line error with exit 2, run the way a
 * user runs it; a link back up the tree is read once, not followed round.
 */
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../..', import.meta.url));
const STUDY = 'pouchdb-2.2';
let out: string;
beforeEach(() => {
  out = mkdtempSync(join(tmpdir(), 'sb-study-'));
  mkdirSync(join(out, STUDY));
});
afterEach(() => rmSync(out, { recursive: true, force: true }));

const reportOnly = () => {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'src/cli/commands/study/main.ts'),
      STUDY,
      '--report-only',
      '--out',
      out,
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('study --report-only on a folder it cannot walk', () => {
  it('a symbolic link to itself: exit 2 and one line naming it', () => {
    const loop = join(out, STUDY, 'part');
    symlinkSync('part', loop);
    const r = reportOnly();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(`study: cannot read ${loop}: a loop of symbolic links\n`);
  });

  it('a link back up the tree is read once, and the report is written', () => {
    const part = join(out, STUDY, 'paging');
    mkdirSync(part);
    const results = readdirSync(join(ROOT, 'results')).find((f) => f.endsWith('-chromium.json'))!;
    const doc = JSON.parse(readFileSync(join(ROOT, 'results', results), 'utf8')) as {
      run: { plan: { study?: string } };
    };
    doc.run.plan.study = `${STUDY}/paging`; // as the study's own sweep tags it
    writeFileSync(join(part, results), JSON.stringify(doc));
    symlinkSync('..', join(part, 'up'));
    const r = reportOnly();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/\(1 results files, chromium\)/);
    expect(readFileSync(join(out, STUDY, 'report.md'), 'utf8')).toContain('PouchDB 2.2.0');
  });
});
