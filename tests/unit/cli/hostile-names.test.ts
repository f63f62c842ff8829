/**
 * Names a results file gives (store, suite, case, browser) that are also the names of
 * Object.prototype's members. Looked up in a plain object, `constructor` found a
 * function and a +50% slowdown read "±NaN% same". Each command here runs on real committed runs
 * with every kind of name renamed to each such word, and must give the verdicts it gives with a
 * plain name.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compareCommand } from '../../../src/cli/commands/compare.ts';
import { exportCommand } from '../../../src/cli/commands/export.ts';
import { historyCommand } from '../../../src/cli/commands/history.ts';
import { mergeCommand } from '../../../src/cli/commands/merge.ts';
import { findingsText } from '../../../src/cli/terminal/findings.ts';
import type { ResultsFile } from '../../../src/core/results/results.ts';

const RESULTS = fileURLToPath(new URL('../../../results/', import.meta.url));
/** Two runs of the default plan, small enough to read quickly. */
const RUNS = ['2026-11-25T21-11-42Z-a0ba-chromium.json', '2026-11-25T21-31-59Z-5fea-chromium.json'];
const TEXTS = RUNS.map((n) => readFileSync(join(RESULTS, n), 'utf8'));
const HOSTILE = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
/** Each kind of name, and the plain name in the committed runs that it replaces. */
const KINDS = { store: 'idb', suite: 'read', case: 'bulk', browser: 'chromium' } as const;

const dir = mkdtempSync(join(tmpdir(), 'storebench-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A run with `plain` renamed to `name` wherever it is a whole JSON string, and its rows ×factor. */
function renamed(text: string, plain: string, name: string, factor = 1): ResultsFile {
  const doc = JSON.parse(
    text.replaceAll(JSON.stringify(plain), JSON.stringify(name)),
  ) as ResultsFile;
  const named = (c: ResultsFile['cases'][number]) =>
    [c.adapter, c.suite, c.case, doc.run.browser].includes(name);
  for (const c of doc.cases)
    if (named(c) && c.status === 'ok') c.samples = c.samples.map((x) => x * factor);
  return doc;
}

const io = () => {
  const out = { text: '' };
  return {
    out,
    io: {
      stdout: (t: string) => (out.text += t),
      stderr: (t: string) => (out.text += t),
      data: (t: string) => (out.text += t),
    },
  };
};
/** The output with the hostile name put back to the plain one, and padding collapsed. */
const asPlain = (text: string, name: string, plain: string) =>
  text
    .replaceAll(name, plain)
    .replace(/ +/g, ' ')
    .replace(/-{3,}/g, '---')
    .split('\n')
    .sort()
    .join('\n');

function compare(plain: string, name: string) {
  const files = new Map([
    ['base', JSON.stringify(renamed(TEXTS[0]!, plain, name))],
    ['new', JSON.stringify(renamed(TEXTS[0]!, plain, name, 1.5))],
  ]);
  const { out, io: sink } = io();
  const code = compareCommand(['base', 'new'], sink, (p) => files.get(p)!);
  return { code, text: asPlain(out.text, name, plain) };
}

async function history(plain: string, name: string) {
  const files = new Map(
    [0, 1, 0, 1, 0, 1].map((k, i) => [
      `run${i}`,
      JSON.stringify({
        ...renamed(TEXTS[k]!, plain, name, i >= 3 ? 1.5 : 1),
        run: { ...renamed(TEXTS[k]!, plain, name).run, id: `2026-11-2${i}T00-00-00Z-000${i}` },
      }),
    ]),
  );
  const { out, io: sink } = io();
  const code = await historyCommand([...files.keys()], sink, (p) => files.get(p)!);
  return { code, text: asPlain(out.text, name, plain) };
}

function merge(plain: string, name: string) {
  const paths = TEXTS.map((t, i) => {
    const p = join(dir, `${name}-${plain}-${i}.json`);
    writeFileSync(p, JSON.stringify(renamed(t, plain, name)));
    return p;
  });
  const outFile = join(dir, `${name}-${plain}-merged.json`);
  const { out, io: sink } = io();
  const code = mergeCommand([...paths, '--out', outFile], sink);
  const merged = code === 0 ? readFileSync(outFile, 'utf8') : '';
  return {
    code,
    text: asPlain(out.text.replaceAll(dir, ''), name, plain),
    merged: asPlain(merged, name, plain),
  };
}

async function exported(plain: string, name: string, ...how: string[]) {
  const p = join(dir, `${name}-${plain}-export.json`);
  writeFileSync(p, JSON.stringify(renamed(TEXTS[0]!, plain, name)));
  const { out, io: sink } = io();
  const code = await exportCommand([p, '--format', 'csv', ...how], sink);
  return { code, text: asPlain(out.text, name, plain) };
}

const findings = (plain: string, name: string) =>
  asPlain(findingsText([renamed(TEXTS[0]!, plain, name)]).join('\n'), name, plain);

describe('fault 1: names that are Object.prototype members give the verdicts a plain name gives', () => {
  for (const [kind, plain] of Object.entries(KINDS)) {
    it(`compare: a +50% step on a ${kind} named like a prototype member exits 1, as with ${plain}`, () => {
      const want = compare(plain, `${plain}x`);
      if (kind === 'store') expect(want.code).toBe(1);
      for (const name of HOSTILE) {
        const got = compare(plain, name);
        expect(got.text, name).not.toContain('NaN');
        // want is compare(plain, `${plain}x`): computed once, a pure function of its files.
        expect({ name, ...got }).toEqual({ name, ...want, text: got.text });
        expect(got.text).toBe(want.text.replaceAll(`${plain}x`, plain));
      }
    });

    it(`history, merge, export and findings: a ${kind} named like a prototype member`, async () => {
      const want = {
        history: await history(plain, `${plain}x`),
        merge: merge(plain, `${plain}x`),
        cases: await exported(plain, `${plain}x`),
        findings: await exported(plain, `${plain}x`, '--findings'),
        text: findings(plain, `${plain}x`),
      };
      const back = (v: unknown) =>
        JSON.parse(JSON.stringify(v).replaceAll(`${plain}x`, plain)) as unknown;
      for (const name of HOSTILE) {
        const got = {
          history: await history(plain, name),
          merge: merge(plain, name),
          cases: await exported(plain, name),
          findings: await exported(plain, name, '--findings'),
          text: findings(plain, name),
        };
        expect(got, name).toEqual(back(want));
      }
    });
  }
});
