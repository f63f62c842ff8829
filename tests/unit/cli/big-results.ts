/**
 * Results files too big to build as objects in a test: written to disk piece by piece around a
 * real document from results/, so a 62 MB file of 31 M samples costs the test a few MB. Each row
 * is an ok row with its samples written as text, compact, as a hostile file would be. And the
 * peak memory of a child process, from /usr/bin/time. Not a test file itself.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const REAL = join(
  ROOT,
  'results',
  readdirSync(join(ROOT, 'results')).find((f) => f.endsWith('-chromium.json'))!,
);

type Doc = Record<string, unknown> & { run: Record<string, unknown>; cases: unknown[] };
export const realDoc = (): Doc => JSON.parse(readFileSync(REAL, 'utf8')) as Doc;

export interface BigRow {
  /** The case id; rows of one document differ by it unless a test wants them not to. */
  case: string;
  samples: number;
  /** The text of sample i; a digit by default (2 bytes a sample with its comma, as in the probe). */
  sample?: (i: number) => string;
}

const digit = (i: number) => String(1 + ((i * 7919) % 9));

/** One document (or, with `documents` > 1, an array of that many copies) with these rows, written to `path`. */
export function writeBigResults(
  path: string,
  rows: readonly BigRow[],
  options: { doc?: Doc; documents?: number } = {},
): void {
  const doc = options.doc ?? realDoc();
  const [head, tail] = JSON.stringify({ ...doc, cases: '\u0000' }).split('"\\u0000"') as [
    string,
    string,
  ];
  const fd = openSync(path, 'w');
  try {
    const copies = options.documents ?? 1;
    if (copies > 1) writeSync(fd, '[');
    for (let d = 0; d < copies; d++) {
      writeSync(fd, `${d > 0 ? ',' : ''}${head}[`);
      rows.forEach((row, r) => writeRow(fd, row, r > 0));
      writeSync(fd, `]${tail}`);
    }
    if (copies > 1) writeSync(fd, ']');
  } finally {
    closeSync(fd);
  }
}

function writeRow(fd: number, row: BigRow, comma: boolean): void {
  const identity = {
    suite: 'insert',
    case: row.case,
    title: row.case,
    adapter: 'idb',
    size: 100,
    params: {},
    operations: 100,
    status: 'ok',
    reason: null,
    warmup: [],
  };
  writeSync(fd, `${comma ? ',' : ''}${JSON.stringify(identity).slice(0, -1)},"samples":[`);
  const text = row.sample ?? digit;
  const CHUNK = 1 << 16;
  for (let at = 0; at < row.samples; at += CHUNK) {
    const parts: string[] = [];
    for (let i = at; i < Math.min(row.samples, at + CHUNK); i++) parts.push(text(i));
    writeSync(fd, `${at > 0 ? ',' : ''}${parts.join(',')}`);
  }
  writeSync(fd, ']}');
}

/** Not-ok rows, many of them: the smallest rows a file can hold. */
export function writeManyRows(path: string, count: number): void {
  const doc = realDoc();
  const [head, tail] = JSON.stringify({ ...doc, cases: '\u0000' }).split('"\\u0000"') as [
    string,
    string,
  ];
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, `${head}[`);
    const CHUNK = 4096;
    for (let at = 0; at < count; at += CHUNK) {
      const parts: string[] = [];
      for (let i = at; i < Math.min(count, at + CHUNK); i++) {
        parts.push(
          JSON.stringify({
            suite: 'insert',
            case: `c${i}`,
            title: 't',
            adapter: 'idb',
            size: 100,
            params: {},
            operations: 100,
            status: 'unsupported',
            reason: 'r',
            samples: [],
            warmup: [],
          }),
        );
      }
      writeSync(fd, `${at > 0 ? ',' : ''}${parts.join(',')}`);
    }
    writeSync(fd, `]${tail}`);
  } finally {
    closeSync(fd);
  }
}

export interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The child's peak resident memory in MB, as the kernel counted it (getrusage ru_maxrss via /usr/bin/time). */
  peakMb: number;
}

/** A CLI command as a user runs it, with its peak memory: a bound on memory, which load on the machine does not move. */
export function measured(
  name: 'compare' | 'merge' | 'export',
  args: readonly string[],
  scratch: string,
): Outcome {
  const rss = join(scratch, `rss-${process.pid}-${Date.now()}.txt`);
  const r = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%M',
      '-o',
      rss,
      process.execPath,
      '--import',
      'tsx',
      join(ROOT, 'src', 'cli', 'commands', `${name}.ts`),
      ...args,
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 300_000,
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  return {
    code: r.status,
    signal: r.signal,
    stdout: r.stdout,
    stderr: r.stderr,
    peakMb: peakOf(rss),
  };
}

/** The peak memory /usr/bin/time wrote to `path` for a child that has ended, in MB. */
export function peakOf(path: string): number {
  const kb = Number(readFileSync(path, 'utf8').trim().split('\n').at(-1));
  rmSync(path, { force: true });
  return kb / 1024;
}
