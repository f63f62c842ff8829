import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, plainNumber, toCsv, toSamplesCsv } from '../../../src/export/csv.ts';
import type { CaseResult, ResultsFile } from '../../../src/core/results/results.ts';
import { validateResults } from '../../../src/core/results/recompute.ts';
import { parseCsv } from './csv-reader.ts';
import { handBuilt } from '../helpers/export-fixture.ts';

const HEADER =
  'run_id,browser,browser_name,browser_version,engine,os,cores,context,cross_origin_isolated,timer_step_ms,suite,case,title,adapter,size,operations,status,reason,' +
  'n,min_ms,max_ms,mean_ms,median_ms,stddev_ms,mean_ci95_ms,median_ci95_lo_ms,median_ci95_hi_ms,median_precision,median_per_op_ms,ops_per_sec,outliers,stopped,db,repeats,' +
  'blocking,footprint,params,harness_version,harness_commit';
const RUN = '2026-11-20T10-00-00Z-ab12,chromium,Chromium,156.0.1,Blink,Linux,4,main,true,0.005';

describe('export csv - exact output', () => {
  it('writes the header and one row per case, of every status', () => {
    const results = handBuilt();
    expect(() => validateResults(results)).not.toThrow();
    const expected = [
      HEADER,
      `${RUN},insert,serial,insert one at a time (await each),memory,100,100,ok,,3,2,6,4,4,2,4.968275,,,,0.04,25000,1,iterations,fresh,1,,,{},0.1.0,abc1234`,
      `${RUN},insert,bulk,insert all in one bulk write,memory,10000,10000,ok,,1,0.001,0.001,0.001,0.001,0,,,,,0.0000001,10000000000,,,,,,,"{""chunkSize"":1000}",0.1.0,abc1234`,
      `${RUN},insert,bulk,insert all in one bulk write,idb,100,100,unsupported,"needs bulkWrite (write many documents in one call), which ""idb"" does not declare",0,,,,,,,,,,,,,,,,,,{},0.1.0,abc1234`,
      `${RUN},insert,serial,'=1+2,'@evil,100,100,error,"'=HYPERLINK(""http://evil"")\nsecond line",0,,,,,,,,,,,,,,,,,,"{""note"":""a,b""}",0.1.0,abc1234`,
      `${RUN},insert,serial,insert one at a time (await each),slow,100,100,timeout,cut off at the 100 ms time limit after 2 of 3 samples,2,,,,,,,,,,,,,,fresh,1,,,{},0.1.0,abc1234`,
    ]
      .map((line) => `${line}\r\n`)
      .join('');
    expect(toCsv(results)).toBe(expected);
  });

  it("writes the median's interval as its two ends, its precision, and how the row sampled", () => {
    const r = handBuilt();
    const ok = r.cases[0] as Extract<CaseResult, { status: 'ok' }>;
    ok.samples = [2, 3, 4, 4, 5, 6];
    ok.stats = {
      n: 6,
      min: 2,
      max: 6,
      mean: 4,
      median: 4,
      stddev: 1.4142,
      ci95: 1.4841,
      medianCi: { lo: 3.5, hi: 4.75 },
    };
    ok.precision = 0.1875;
    ok.db = 'shared';
    ok.repeats = 40;
    ok.stopped = 'budget';
    r.cases = [ok];
    expect(toCsv(r).split('\r\n')[1]).toBe(
      `${RUN},insert,serial,insert one at a time (await each),memory,100,100,ok,,6,2,6,4,4,1.4142,1.4841,3.5,4.75,0.1875,0.04,25000,1,budget,shared,40,,,{},0.1.0,abc1234`,
    );
    // A file with the interval but not the precision: the precision is worked out from the interval.
    delete ok.precision;
    const [header, row] = parseCsv(toCsv(r));
    expect(row?.[header!.indexOf('median_precision')]).toBe('0.1875');
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
    expect(
      oneCell((r) => ((r.cases[0] as CaseResult).reason = 'a "b", c'), 'reason'),
    ).toMatchObject({ value: 'a "b", c' });
    expect(
      oneCell((r) => ((r.cases[0] as CaseResult).reason = 'a "b", c'), 'reason').raw,
    ).toContain(',"a ""b"", c",');
    expect(oneCell((r) => ((r.cases[0] as CaseResult).reason = 'one\r\ntwo'), 'reason').value).toBe(
      'one\r\ntwo',
    );
    expect(
      oneCell((r) => ((r.cases[0] as CaseResult).reason = 'lone\rcr'), 'reason').raw,
    ).toContain(',"lone\rcr",');
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
    expect(row).toContain(',main,true,0.00002,insert,');
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
        expect(get('mean_ci95_ms')).toBe(c.stats.ci95 === null ? '' : String(c.stats.ci95));
        expect(get('median_ci95_lo_ms')).toBe(c.stats.medianCi ? String(c.stats.medianCi.lo) : '');
        expect(get('median_ci95_hi_ms')).toBe(c.stats.medianCi ? String(c.stats.medianCi.hi) : '');
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

const SAMPLES_HEADER =
  'run_id,browser,suite,case,adapter,size,operations,status,phase,index,ms,per_op_ms,outlier';
const S = '2026-11-20T10-00-00Z-ab12,chromium,insert';

describe('export csv - raw samples', () => {
  it('writes one row per warm-up and timed sample, of every status, with outlier flags', () => {
    const expected = [
      SAMPLES_HEADER,
      `${S},serial,memory,100,100,ok,warmup,1,9,0.09,`,
      `${S},serial,memory,100,100,ok,timed,1,2,0.02,false`,
      `${S},serial,memory,100,100,ok,timed,2,4,0.04,false`,
      `${S},serial,memory,100,100,ok,timed,3,6,0.06,true`,
      `${S},bulk,memory,10000,10000,ok,timed,1,0.001,0.0000001,`,
      `${S},serial,slow,100,100,timeout,timed,1,5,0.05,`,
      `${S},serial,slow,100,100,timeout,timed,2,7,0.07,`,
    ]
      .map((line) => `${line}\r\n`)
      .join('');
    expect(toSamplesCsv(handBuilt())).toBe(expected);
  });

  it('adds a column per metric, empty where a row has none; the prefix keeps a name from starting a formula', () => {
    const r = handBuilt();
    const ok = r.cases[0] as Extract<CaseResult, { status: 'ok' }>;
    ok.metrics = { latencyP95Ms: [1.5, 2.5, 3.5], '=cmd': [0, 0, 1] };
    const lines = toSamplesCsv(r).split('\r\n');
    expect(lines[0]).toBe(`${SAMPLES_HEADER},metric_=cmd,metric_latencyP95Ms`);
    expect(lines[1]).toBe(`${S},serial,memory,100,100,ok,warmup,1,9,0.09,,,`);
    expect(lines[4]).toBe(`${S},serial,memory,100,100,ok,timed,3,6,0.06,true,1,3.5`);
    expect(lines[5]).toBe(`${S},bulk,memory,10000,10000,ok,timed,1,0.001,0.0000001,,,`);
  });

  it("adds a note column where a row has per-sample notes, quoted as CSV, a formula's lead defused", () => {
    const r = handBuilt();
    const ok = r.cases[0] as Extract<CaseResult, { status: 'ok' }>;
    ok.notes = ['QuotaExceededError: full, "really"', '=HYPERLINK("x")', 'ok'];
    const rows = parseCsv(toSamplesCsv(r));
    expect(rows[0]?.at(-1)).toBe('note');
    expect(rows[1]?.at(-1)).toBe(''); // warm-up samples have no note
    expect(rows[2]?.at(-1)).toBe('QuotaExceededError: full, "really"');
    expect(rows[3]?.at(-1)).not.toMatch(/^=/);
    expect(rows[5]?.at(-1)).toBe(''); // a row without notes
  });

  it('adds a pass column where a row was sampled in passes: the pass of each timed sample', () => {
    const r = handBuilt();
    (r.cases[0] as Extract<CaseResult, { status: 'ok' }>).samplesPerPass = [2, 0, 1];
    const rows = parseCsv(toSamplesCsv(r));
    expect(rows[0]?.at(-1)).toBe('pass');
    expect(rows.slice(1, 5).map((row) => [row[rows[0]!.indexOf('phase')], row.at(-1)])).toEqual([
      ['warmup', ''],
      ['timed', '1'],
      ['timed', '1'],
      ['timed', '3'],
    ]);
    expect(rows[5]?.at(-1)).toBe(''); // a row of one pass
  });

  it('round-trips every sample exactly', () => {
    const r = handBuilt();
    (r.cases[0] as CaseResult).samples = [0.1 + 0.2, 1 / 3, 123456.789, 5e-7];
    (r.cases[0] as Extract<CaseResult, { status: 'ok' }>).outliers = undefined;
    const [header, ...rows] = parseCsv(toSamplesCsv(r));
    const at = (row: string[], col: string) => row[header!.indexOf(col)] as string;
    const timed = rows.filter((row) => at(row, 'phase') === 'timed');
    const expected = r.cases.flatMap((c) => c.samples);
    expect(timed.map((row) => Number(at(row, 'ms')))).toEqual(expected);
  });

  it('writes only the header for no runs', () => {
    expect(toSamplesCsv([])).toBe(`${SAMPLES_HEADER}\r\n`);
  });
});

describe('export csv - measurement pass', () => {
  it('writes what the pass measured (blocking, footprint) as JSON, one column each, so the header never changes', () => {
    const r = handBuilt();
    const ok = r.cases[0] as Extract<CaseResult, { status: 'ok' }>;
    ok.footprint = { storageBytes: 123456, heapBytes: 789 };
    ok.blocking = { maxFrameGapMs: 16.7, longTasks: 2, longTaskMs: 130.5 };
    const [header, ...rows] = parseCsv(toCsv(r));
    expect(header).toEqual([...CSV_COLUMNS]);
    expect(rows.map((row) => row[header!.indexOf('footprint')])).toEqual([
      '{"storageBytes":123456,"heapBytes":789}',
      '',
      '',
      '',
      '',
    ]);
    expect(rows.map((row) => row[header!.indexOf('blocking')])).toEqual([
      '{"maxFrameGapMs":16.7,"longTasks":2,"longTaskMs":130.5}',
      '',
      '',
      '',
      '',
    ]);
  });
});
