/**
 * `npm run site`'s refusals (exit 2, one line, before anything is built). The build itself is
 * tested end to end (tests/e2e/site.spec.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { siteCommand } from '../../../../src/cli/commands/site.ts';
import { SITE_MARKER } from '../../../../src/cli/build/site.ts';

const RUN = fileURLToPath(
  new URL('../../../../results/2026-11-25T05-53-44Z-0e33-chromium.json', import.meta.url),
);
const dir = mkdtempSync(join(tmpdir(), 'storebench-site-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function site(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await siteCommand(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

describe('npm run site: bad input', () => {
  it('needs --out and files', async () => {
    const noOut = await site(RUN);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/^site: --out DIR is required/);
    expect((await site('--out', join(dir, 'a'))).code).toBe(2);
  });

  it('refuses a file that is not results, naming it', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"schema": "nope"}');
    const r = await site(bad, '--out', join(dir, 'b'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.json');
  });

  it('refuses a folder that holds other things, and the repository itself', async () => {
    const busy = join(dir, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'notes.txt'), 'mine');
    const r = await site(RUN, '--out', busy);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not empty');
    const repo = fileURLToPath(new URL('../../../..', import.meta.url));
    expect((await site(RUN, '--out', repo)).stderr).toContain('cannot replace the repository');
    // A site this command wrote may be replaced: the check passes (nothing is built here).
    const old = join(dir, 'old');
    mkdirSync(old);
    // Its marker lists what it wrote (other files are the user's).
    writeFileSync(join(old, SITE_MARKER), 'Written by npm run site.\nindex.html');
    writeFileSync(join(old, 'index.html'), '');
    const { checkSiteTarget } = await import('../../../../src/cli/build/site.ts');
    expect(() => checkSiteTarget(old)).not.toThrow();
  });
});
