/**
 * Results files under the 64 MiB byte cap that can take a reader out of memory, out of stack or
 * to a wrong exit code (docs/method.md, "No file is trusted"), fed to the commands as a user runs
 * them, as processes whose peak memory the kernel reports: a bound on memory, which a busy machine
 * does not move. Each is refused with exit 2 and a line naming the cap and the JSON path, or read within
 * 1 GB. The files are generated into a temporary folder (big-results.ts) and removed after.
 */
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import {
  measured,
  peakOf,
  realDoc,
  ROOT,
  writeBigResults,
  writeManyRows,
  type Outcome,
} from './big-results.ts';

const dir = mkdtempSync(join(tmpdir(), 'storebench-sizes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What every reader may take at most, in MB. */
const MEMORY_MB = 1024;

/** Refused as a user sees it: exit 2, nothing on stdout, one line on stderr, within the memory bound. */
function expectRefused(r: Outcome, message: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr.trimEnd()).toMatch(message);
  expect(r.peakMb, `${r.peakMb.toFixed(0)} MB`).toBeLessThan(MEMORY_MB);
}

const rows = (n: number, samples: number) =>
  Array.from({ length: n }, (_, i) => ({ case: `c${i}`, samples }));

describe('results files at and over the caps', () => {
  it('refuses a 62 MB file of 31 M samples in compare, merge and export, before parsing it', () => {
    const big = join(dir, '31m.json');
    writeBigResults(big, rows(31, 1_000_000));
    const message =
      /: \$\.cases\[4\]\.samples\[\d+\]: the 5,000,001st number; a results file holds at most 5,000,000 numbers$/;
    expectRefused(measured('compare', [big, big], dir), message);
    expectRefused(measured('merge', [big, '--out', join(dir, 'merged.json')], dir), message);
    expectRefused(measured('export', [big, '--format', 'csv'], dir), message);
    rmSync(big);
  });

  it('refuses a row of more samples than a list holds', () => {
    const long = join(dir, 'long-row.json');
    writeBigResults(long, rows(1, 1_000_001));
    expectRefused(
      measured('compare', [long, long], dir),
      /: \$\.cases\[0\]\.samples: a list of more than 1,000,000 items; a list in a results file holds at most 1,000,000 \(a row's samples\)$/,
    );
    rmSync(long);
  });

  it('compares 5 M samples within 1 GB: in 5 rows at the list cap, and refuses them in one row', () => {
    const five = join(dir, 'five-rows.json');
    writeBigResults(five, rows(5, 999_990));
    const r = measured('compare', [five, five], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/PASS: no row slower beyond 5%; .*compared 5 of 5 rows/);
    expect(r.peakMb, `${r.peakMb.toFixed(0)} MB`).toBeLessThan(MEMORY_MB);
    writeBigResults(five, rows(1, 5_000_000));
    expectRefused(
      measured('compare', [five, five], dir),
      /: \$\.cases\[0\]\.samples: a list of more than 1,000,000 items/,
    );
    rmSync(five);
  });

  it('refuses a browser name of 50 MB in a CSV export, where it would be written once a row', () => {
    const doc = realDoc();
    doc.run.browser = 'x'.repeat(50_000_000);
    const named = join(dir, 'named.json');
    writeBigResults(named, rows(12, 1), { doc });
    expectRefused(
      measured('export', [named, '--format', 'csv', '--out', join(dir, 'named.csv')], dir),
      /: \$\.run\.browser: a text of 50,000,000 characters; a text in a results file holds at most 10,000$/,
    );
    rmSync(named);
  });

  it('refuses more rows than a file holds, and a workbook of 200,000 rows (exit 2, not a stack overflow)', () => {
    const many = join(dir, 'many-rows.json');
    writeManyRows(many, 200_001);
    expectRefused(
      measured('compare', [many, many], dir),
      /: \$\.cases\[200000\]: the 200,001st row; a results file holds at most 200,000 rows over all its documents$/,
    );
    writeManyRows(many, 200_000);
    const xlsx = measured(
      'export',
      [many, '--format', 'xlsx', '--out', join(dir, 'many.xlsx')],
      dir,
    );
    expectRefused(
      xlsx,
      /^export: xlsx: 200,001 rows \(cases and documents\) is more than the 10,000 a workbook takes here \(it is built in memory\); export csv or tsv instead, or fewer files$/,
    );
    rmSync(many);
  });

  it('refuses a row held twice in one document (exit 2), and pools a row of two documents of 300 k samples each', () => {
    const twice = join(dir, 'twice.json');
    writeBigResults(twice, [
      { case: 'a', samples: 300_000 },
      { case: 'a', samples: 300_000 },
    ]);
    expectRefused(
      measured('compare', [twice, twice], dir),
      /: \$\.cases\[1\]: the same suite, case, adapter, size and parameters as \$\.cases\[0\]; a document holds each row once$/,
    );
    const two = join(dir, 'two-documents.json');
    writeBigResults(two, [{ case: 'a', samples: 300_000 }], { documents: 2 });
    const pooled = measured('compare', [two, two], dir);
    expect(pooled.code, pooled.stderr).toBe(0);
    expect(pooled.stdout).toContain('(n=600000)');
    expect(pooled.stdout).toContain('samples pooled from 2 base and 2 new results');
    expect(pooled.peakMb).toBeLessThan(MEMORY_MB);
    rmSync(twice);
    rmSync(two);
  });
});

describe('the collector at the caps', () => {
  const TOKEN = 'token-of-this-run';

  /** POST a 'done' whose results are the file at `path`, streamed: the test holds none of it. */
  const postDone = (port: number, path: string) =>
    new Promise<{ status: number; body: string }>((ok, fail) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `/collect?token=${TOKEN}`,
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', fail);
      req.write(`{"type":"done","token":"${TOKEN}","browser":"chromium","results":`);
      createReadStream(path)
        .on('end', () => req.end('}'))
        .on('error', fail)
        .pipe(req, { end: false });
    });

  it("refuses a 62 MB 'done' of 31 M samples before parsing it (413), and the sweep's process stays under 1 GB", async () => {
    const results = join(dir, 'done.json');
    writeBigResults(results, rows(31, 1_000_000));
    const rss = join(dir, 'rss-collector.txt');
    const child = spawn(
      '/usr/bin/time',
      [
        '-f',
        '%M',
        '-o',
        rss,
        process.execPath,
        '--import',
        'tsx',
        join(ROOT, 'tests', 'unit', 'cli', 'collector-child.ts'),
        TOKEN,
      ],
      { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const exited = new Promise<number | null>((ok) => child.on('exit', (code) => ok(code)));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const port = Number(/^port (\d+)$/.exec(String((await lines.next()).value))?.[1]);
    const reply = await postDone(port, results);
    const rejected = JSON.parse(String((await lines.next()).value)) as {
      status: number;
      reason: string;
    };
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(reply.status).toBe(413);
    const message =
      /^message: \$\.results\.cases\[4\]\.samples\[\d+\]: the 5,000,001st number; a results file holds at most 5,000,000 numbers$/;
    expect(reply.body.trimEnd()).toMatch(message);
    expect(rejected).toMatchObject({ status: 413, reason: expect.stringMatching(message) });
    const peak = peakOf(rss);
    expect(peak, `${peak.toFixed(0)} MB`).toBeLessThan(MEMORY_MB);
    rmSync(results);
  });
});
