import sqlite3InitModule, { type Database } from '@sqlite.org/sqlite-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Doc, FieldCondition, Scalar } from '../../../../src/core/store/adapter.ts';
import { applyFind } from '../../../../src/core/store/query.ts';
import { extractSql, orderById, sqlWhere } from '../../../../src/adapters/sqlite/sqlite-query.ts';
import { fixtureShape, makeDocs } from '../../../../fixtures/index.ts';

/**
 * The SQL that sqlite-opfs runs for a FindQuery must find exactly what applyFind finds. SQLite
 * Wasm runs in Node with an in-memory database, so every condition is checked against the
 * reference here, with and without expression indexes, over documents whose queried fields are
 * missing, null, booleans, numeric strings, arrays and objects.
 */

const odd: Doc[] = [
  { _id: 'Odd-first', age: 18, lastName: 'Aaberg', city: 'Cork' },
  { _id: 'odd-missing', firstName: 'Nobody' },
  { _id: 'odd-true', age: true, lastName: false },
  { _id: 'odd-false', age: false, lastName: true },
  { _id: 'odd-null', age: null, lastName: null },
  { _id: 'odd-string', age: '42', lastName: 'Berg' },
  { _id: 'odd-empty', age: '', lastName: '' },
  { _id: 'odd-array', age: [30, 40], lastName: ['Berg'] },
  { _id: 'odd-object', age: { years: 30 }, lastName: { name: 'Berg' } },
  { _id: 'odd-fraction', age: 30.5, lastName: 'Zz' },
  { _id: 'odd-zero', age: 0, lastName: '0' },
  { _id: 'odd-one', age: 1, lastName: '1' },
  { _id: 'odd-negative', age: -3, lastName: '-3' },
  { _id: 'odd-big', age: 1e20, lastName: 'ü' },
  { _id: 'odd-json-text', age: '[30,40]', lastName: '{"name":"Berg"}' },
];
const docs = [...makeDocs(fixtureShape('person'), 7, 150), ...odd];

const values: Scalar[] = [
  true,
  false,
  0,
  1,
  0.5,
  18,
  30,
  30.5,
  45,
  1e20,
  -5,
  '',
  '0',
  '42',
  'Berg',
  'M',
  'Zz',
  'ü',
  '[30,40]',
  '{"name":"Berg"}',
];
const ops = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'] as const;

const conditions: FieldCondition[] = [
  ...['age', 'lastName'].flatMap((field) =>
    ops.flatMap((op) => values.map((v) => ({ field, [op]: v }))),
  ),
  { field: 'age' },
  { field: 'age', gte: 30, lt: 40 },
  { field: 'age', gt: 50, lt: 40 },
  { field: 'lastName', gte: 'C', lt: 'H' },
  { field: 'age', gt: false, lt: 18 },
  { field: 'nowhere', eq: 1 },
];

let db: Database;

beforeAll(async () => {
  const sqlite3 = await sqlite3InitModule();
  db = new sqlite3.oo1.DB(':memory:');
  db.exec('CREATE TABLE docs (id TEXT PRIMARY KEY NOT NULL, json TEXT NOT NULL)');
  for (const d of docs)
    db.exec({ sql: 'INSERT INTO docs (id, json) VALUES (?, ?)', bind: [d._id, JSON.stringify(d)] });
});

const ids = (where: readonly FieldCondition[]) => {
  const filter = sqlWhere(where);
  expect(filter.complete).toBe(true);
  return db.selectValues(
    `SELECT id FROM docs WHERE ${filter.sql} ORDER BY id`,
    filter.params.length > 0 ? filter.params : undefined,
  ) as string[];
};
const expected = (where: readonly FieldCondition[]) => applyFind(docs, { where }).map((d) => d._id);

describe('adapters - sqlite-query', () => {
  it('one condition finds what applyFind finds, without an index', () => {
    for (const c of conditions) expect(ids([c]), JSON.stringify(c)).toEqual(expected([c]));
  });

  it('two conditions on two fields, with single and compound expression indexes', () => {
    const pairs: FieldCondition[][] = [
      [
        { field: 'age', gte: 30 },
        { field: 'lastName', eq: 'Berg' },
      ],
      [
        { field: 'age', gt: 40 },
        { field: 'lastName', lt: 'M' },
      ],
      [
        { field: 'lastName', gte: 'K' },
        { field: 'age', lt: 50 },
      ],
      [
        { field: 'age', ne: 30 },
        { field: 'lastName', ne: 'Berg' },
      ],
    ];
    const check = () => {
      for (const c of conditions) expect(ids([c]), JSON.stringify(c)).toEqual(expected([c]));
      for (const p of pairs) expect(ids(p), JSON.stringify(p)).toEqual(expected(p));
    };
    db.exec(`CREATE INDEX ix_pair ON docs (${extractSql('age')}, ${extractSql('lastName')})`);
    check();
    db.exec(`CREATE INDEX ix_age ON docs (${extractSql('age')})`);
    db.exec(`CREATE INDEX ix_last ON docs (${extractSql('lastName')})`);
    check();
    // The planner must be able to use the index, or createIndex would buy nothing.
    const plan = (where: FieldCondition[], leading: string[]) => {
      const filter = sqlWhere(where);
      const sql = `EXPLAIN QUERY PLAN SELECT json FROM docs WHERE ${filter.sql} ORDER BY ${orderById(where, new Set(leading))} LIMIT ? OFFSET ?`;
      return db
        .selectArrays(sql, [...filter.params, -1, 0])
        .map(([, , , detail]) => (typeof detail === 'string' ? detail : ''))
        .join('; ');
    };
    expect(plan([{ field: 'age', gt: 60 }], ['age', 'lastName'])).toMatch(/USING INDEX ix_age/);
    expect(plan([{ field: 'lastName', eq: 'Berg' }], ['age', 'lastName'])).toMatch(
      /USING INDEX ix_last/,
    );
    expect(
      plan(
        [
          { field: 'age', gte: 30 },
          { field: 'lastName', eq: 'Berg' },
        ],
        ['age', 'lastName'],
      ),
    ).toMatch(/USING INDEX ix_(last|pair)/);
    // Without an index on the field, the primary key gives the order and no sort is needed.
    expect(plan([{ field: 'city', eq: 'Cork' }], ['age', 'lastName'])).toMatch(
      /SCAN docs USING INDEX sqlite_autoindex/,
    );
  });

  it('values are bound, never spliced into the SQL', () => {
    const filter = sqlWhere([{ field: 'lastName', eq: "O'Brien); DROP TABLE docs; --" }]);
    expect(filter.sql).not.toContain('Brien');
    expect(filter.params).toEqual(["O'Brien); DROP TABLE docs; --"]);
  });

  it('what SQL cannot say exactly is left to the caller', () => {
    expect(sqlWhere([{ field: 'age', eq: Number.NaN }]).complete).toBe(false);
    expect(sqlWhere([{ field: 'first name', eq: 'x' }]).complete).toBe(false);
    expect(sqlWhere([]).sql).toBe('1');
  });
});
