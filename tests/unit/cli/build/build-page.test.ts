// A failed build said in one line (src/cli/build/build-page.ts buildProblem): the bundler's own
// error, from a real Vite build of a file that does not parse, without colours, frame or stack.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildProblem } from '../../../../src/cli/build/build-page.ts';
import { SHOWN_CHARS } from '../../../../src/core/base/shown.ts';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'storebench-build-problem-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('build problem - one line', () => {
  it("says the bundler's first error and where it is, in one line without escape codes", async () => {
    const entry = join(tmp, 'index.js');
    writeFileSync(entry, 'root:x:0:0:root:/root:/bin/bash\nexport const a = 1;\n');
    const { build } = await import('vite');
    let thrown: unknown = null;
    try {
      await build({
        root: tmp,
        configFile: false,
        logLevel: 'silent',
        build: { lib: { entry, formats: ['es'] }, outDir: join(tmp, 'dist'), write: false },
      });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).not.toBeNull();
    const line = buildProblem(thrown);
    expect(line).not.toContain('\n');
    // eslint-disable-next-line no-control-regex
    expect(line).not.toMatch(/[\u0000-\u001f]/);
    expect(line).toMatch(/^\[PARSE_ERROR\] .+ \(at .*index\.js:1:\d+\)/);
    expect(line).not.toContain('/root:/bin/bash');
    expect(line.length).toBeLessThanOrEqual(SHOWN_CHARS + 30);
  }, 60_000);
});
