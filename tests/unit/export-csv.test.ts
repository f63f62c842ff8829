import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, plainNumber, toCsv } from '../../src/export/csv.ts';
import { DEFAULT_PLAN } from '../../src/core/plan.ts';
import { RESULTS_SCHEMA, validateResults, type CaseResult, type ResultsFile } from '../../src/core/results.ts';

/** Stats are written out by hand so the expected text below does not depend on stats.ts. */
function handBuilt(): ResultsFile {
  const cases: CaseResult[] = [
    {
      suite: 'insert', case: 'serial', title: 'insert one at a time (await each)', adapter: 'memory', size: 100, params: {}, operations: 100,
      status: 'ok', reason: null, samples: [2, 4, 6], warmup: [9],
      stats: { n: 3, min: 2, max: 6, mean: 4, median: 4, stddev: 2, ci95: 4.968275 },
    },
    {
      suite: 'insert', case: 'bulk', title: 'insert all in one bulk write', adapter: 'memory', size: 10000, params: { chunkSize: 1000 }, operations: 10000,
      status: 'ok', reason: null, samples: [0.001], warmup: [],
      stats: { n: 1, min: 0.001, max: 0.001, mean: 0.001, median: 0.001, stddev: 0, ci95: null },
    },
    {
      suite: 'insert', case: 'bulk', title: 'insert all in one bulk write', adapter: 'idb', size: 100, params: {}, operations: 100,
      status: 'unsupported', reason: 'needs bulkWrite (write many documents in one call), which "idb" does not declare', samples: [], warmup: [],
    },
    {
      suite: 'insert', case: 'serial', title: '=1+2', adapter: '@evil', size: 100, params: { note: 'a,b' }, operations: 100,
      status: 'error', reason: '=HYPERLINK("http://evil")\nsecond line', samples: [], warmup: [],
    },
    {
      suite: 'insert', case: 'serial', title: 'insert one at a time (await each)', adapter: 'slow', size: 100, params: {}, operations: 100,
      status: 'timeout', reason: 'cut off at the 100 ms time limit after 2 of 3 samples', samples: [5, 7], warmup: [],
    },
  ];
  return {
    schema: RESULTS_SCHEMA,
    harness: { name: 'storebench', version: '0.1.0', commit: 'abc1234' },
    run: {
      id: '2026-11-20T10-00-00Z-ab12',
      startedAt: '2026-11-20T10:00:00.000Z',
      finishedAt: '2026-11-20T10:01:00.000Z',
      browser: 'chromium',
      plan: { ...DEFAULT_PLAN, suites: ['insert'], adapters: ['memory', 'idb'], sizes: [100] },
      cancelled: false,
      order: [],
    },
    environment: {
      browser: { name: 'Chromium', version: '156.0.1', engine: 'Blink' },
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
      os: 'Linux',
      cores: 4,
      deviceMemoryGb: 8,
      crossOriginIsolated: true,
      timerStepMs: 0.005,
      storageEstimate: null,
      context: 'main',
      harness: { version: '0.1.0', commit: 'abc1234' },
    },
    cases,
  };
}

const HEADER =
  'run_id,browser,browser_name,browser_version,engine,os,cross_origin_isolated,timer_step_ms,suite,case,title,adapter,size,operations,status,reason,' +
  'n,min_ms,max_ms,mean_ms,median_ms,stddev_ms,ci95_ms,median_per_op_ms,ops_per_sec,params,harness_version,harness_commit';
const RUN = '2026-11-20T10-00-00Z-ab12,chromium,Chromium,156.0.1,Blink,Linux,true,0.005';

/** A small RFC 4180 reader, written independently of the exporter, for the round trip. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '"' && field === '') {
      // A quoted field runs to the next quote that is not doubled.
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new Error(`unterminated quote at ${i}`);
        field += text.slice(i, q);
        if (text[q + 1] === '"') {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      const next = text[i];
      if (next !== ',' && next !== '\r' && next !== undefined) throw new Error(`text after a closing quote at ${i}`);
    } else if (ch === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (ch === '\r') {
      if (text[i + 1] !== '\n') throw new Error(`bare CR at ${i}`);
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else if (ch === '\n') {
      throw new Error(`bare LF outside quotes at ${i}`);
    } else {
      field += ch;
      i++;
    }
  }
  if (field !== '' || row.length > 0) throw new Error('last record has no CRLF');
  return rows;
}

describe('export csv - exact output', () => {
  it('writes the header and one row per case, of every status', () => {
    const results = handBuilt();
    expect(() => validateResults(results)).not.toThrow();
    const expected = [
      HEADER,
      `${RUN},insert,serial,insert one at a time (await each),memory,100,100,ok,,3,2,6,4,4,2,4.968275,0.04,25000,{},0.1.0,abc1234`,
      `${RUN},insert,bulk,insert all in one bulk write,memory,10000,10000,ok,,1,0.001,0.001,0.001,0.001,0,,0.0000001,10000000000,"{""chunkSize"":1000}",0.1.0,abc1234`,
      `${RUN},insert,bulk,insert all in one bulk write,idb,100,100,unsupported,"needs bulkWrite (write many documents in one call), which ""idb"" does not declare",0,,,,,,,,,{},0.1.0,abc1234`,
      `${RUN},insert,serial,'=1+2,'@evil,100,100,error,"'=HYPERLINK(""http://evil"")\nsecond line",0,,,,,,,,,"{""note"":""a,b""}",0.1.0,abc1234`,
      `${RUN},insert,serial,insert one at a time (await each),slow,100,100,timeout,cut off at the 100 ms time limit after 2 of 3 samples,2,,,,,,,,,{},0.1.0,abc1234`,
    ]
      .map((line) => `${line}\r\n`)
      .join('');
    expect(toCsv(results)).toBe(expected);
  });

  it('has the documented columns in order', () => {
    expect(CSV_COLUMNS.join(',')).toBe(HEADER);
  });

  it('puts several runs under one header', () => {
    const a = handBuilt();
    const b = handBuilt();
    b.run.id = 'second';
    b.run.browser = 'firefox';
    const lines = toCsv([a, b]).split('\r\n');
    expect(lines.filter((l) => l === HEADER)).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('second,firefox,'))).toHaveLength(a.cases.length);
  });

  it('writes only the header for no runs', () => {
    expect(toCsv([])).toBe(`${HEADER}\r\n`);
  });
});

describe('export csv - escaping', () => {
  const oneCell = (patch: (r: ResultsFile) => void, column: string) => {
    const r = handBuilt();
    r.cases = [r.cases[2] as CaseResult];
    patch(r);
    const [header, row] = parseCsv(toCsv(r));
    return { raw: toCsv(r).split('\r\n')[1] ?? '', value: row?.[header?.indexOf(column) ?? -1] };
  };

  it('quotes commas, quotes, CR and LF and doubles quotes', () => {
    expect(oneCell((r) => ((r.cases[0] as CaseResult).reason = 'a "b", c'), 'reason')).toMatchObject({ value: 'a "b", c' });
    expect(oneCell((r) => ((r.cases[0] as CaseResult).reason = 'a "b", c'), 'reason').raw).toContain(',"a ""b"", c",');
    expect(oneCell((r) => ((r.cases[0] as CaseResult).reason = 'one\r\ntwo'), 'reason').value).toBe('one\r\ntwo');
    expect(oneCell((r) => ((r.cases[0] as CaseResult).reason = 'lone\rcr'), 'reason').raw).toContain(',"lone\rcr",');
  });

  it('neutralises text that a spreadsheet would run as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      const { value } = oneCell((r) => (r.environment.os = `${start}cmd|' /C calc'!A0`), 'os');
      expect(value).toBe(`'${start}cmd|' /C calc'!A0`);
    }
    expect(oneCell((r) => (r.run.browser = 'safe-name'), 'browser').value).toBe('safe-name');
  });

  it('keeps numeric cells numeric: no quote, no exponent, no locale', () => {
    const r = handBuilt();
    r.environment.timerStepMs = 0.00002;
    const row = toCsv(r).split('\r\n')[1] ?? '';
    expect(row).toContain(',true,0.00002,insert,');
    expect(row).not.toMatch(/'\d/);
  });
});

describe('export csv - round trip', () => {
  it('reads back the same numbers and text', () => {
    const results = handBuilt();
    const [header, ...rows] = parseCsv(toCsv(results));
    expect(header).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(results.cases.length);
    rows.forEach((cells, i) => {
      const c = results.cases[i] as CaseResult;
      const get = (col: string) => cells[header!.indexOf(col)] as string;
      expect(get('adapter').replace(/^'/, '')).toBe(c.adapter);
      expect(Number(get('size'))).toBe(c.size);
      expect(Number(get('operations'))).toBe(c.operations);
      expect(get('status')).toBe(c.status);
      expect(JSON.parse(get('params'))).toEqual(c.params);
      expect(Number(get('n'))).toBe(c.samples.length);
      if (c.status === 'ok') {
        expect(get('reason')).toBe('');
        expect(Number(get('min_ms'))).toBe(c.stats.min);
        expect(Number(get('max_ms'))).toBe(c.stats.max);
        expect(Number(get('mean_ms'))).toBe(c.stats.mean);
        expect(Number(get('median_ms'))).toBe(c.stats.median);
        expect(Number(get('stddev_ms'))).toBe(c.stats.stddev);
        expect(get('ci95_ms')).toBe(c.stats.ci95 === null ? '' : String(c.stats.ci95));
        expect(Number(get('median_per_op_ms'))).toBe(c.stats.median / c.operations);
        expect(Number(get('ops_per_sec'))).toBe((c.operations * 1000) / c.stats.median);
      } else {
        expect(get('reason').replace(/^'/, '')).toBe(c.reason);
        expect(get('median_ms')).toBe('');
      }
    });
  });
});

describe('export csv - plain numbers', () => {
  it('writes numbers without exponents and reads back exactly', () => {
    const cases: [number, string][] = [
      [0, '0'],
      [25000, '25000'],
      [0.04, '0.04'],
      [1e-7, '0.0000001'],
      [1.5e-10, '0.00000000015'],
      [1.0000000000000001e-7, '0.00000010000000000000001'],
      [1e21, '1000000000000000000000'],
      [1.234e22, '12340000000000000000000'],
    ];
    for (const [x, text] of cases) {
      expect(plainNumber(x)).toBe(text);
      expect(Number(text)).toBe(x);
    }
  });

  it('leaves empty the cells that have no finite value', () => {
    const r = handBuilt();
    const ok = r.cases[0] as Extract<CaseResult, { status: 'ok' }>;
    ok.samples = [0];
    ok.stats = { n: 1, min: 0, max: 0, mean: 0, median: 0, stddev: 0, ci95: null };
    ok.operations = 0;
    const [header, row] = parseCsv(toCsv(r));
    const get = (col: string) => row?.[header!.indexOf(col)];
    expect(get('median_ms')).toBe('0');
    expect(get('median_per_op_ms')).toBe('');
    expect(get('ops_per_sec')).toBe('');
  });
});
