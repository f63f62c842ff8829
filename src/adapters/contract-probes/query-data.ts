/**
 * The documents and questions of the adapter contract's queries (queries.ts, views.ts): fixture
 * people with documents whose queried fields are missing or of other types, and the queries,
 * key ranges and view questions asked of them.
 */
import { fixtureShape, makeDocs } from '../../../fixtures/index.ts';
import type { Doc, FindQuery, KeyRange } from '../../core/store/adapter.ts';

/**
 * Fixture people plus documents whose queried fields are missing or of other types; the
 * upper-case id sorts before PouchDB's `_design/` ids and the others after them.
 */
export const ODD: readonly Doc[] = [
  { _id: 'Odd-first', age: 18, lastName: 'Aaberg', city: 'Cork' },
  { _id: 'odd-missing', firstName: 'Nobody' },
  { _id: 'odd-boolean', age: true, lastName: false },
  { _id: 'odd-null', age: null, lastName: null },
  { _id: 'odd-string', age: '42', lastName: 'Berg' },
  { _id: 'odd-array', age: [30, 40], lastName: ['Berg'] },
  { _id: 'odd-object', age: { years: 30 }, lastName: { name: 'Berg' } },
  { _id: 'odd-fraction', age: 30.5, lastName: 'Zz' },
  { _id: 'odd-no-last-name', age: 33 },
];

/** The people, and the documents a query store holds. */
export interface QueryData {
  people: Doc[];
  docs: Doc[];
  /** An age and a last name some person has. */
  age: number;
  last: string;
}

export function queryData(): QueryData {
  const people = makeDocs(fixtureShape('person'), 7, 120);
  const person = (i: number) => people[i] as Doc;
  return {
    people,
    docs: [...people, ...ODD],
    age: person(3).age as number,
    last: person(5).lastName as string,
  };
}

export function queries(d: QueryData): FindQuery[] {
  const { age } = d;
  return [
    { where: [{ field: 'age', eq: age }] },
    { where: [{ field: 'age', gt: 60 }] },
    { where: [{ field: 'age', gte: 30, lt: 40 }] },
    { where: [{ field: 'age', ne: age }] },
    { where: [{ field: 'age', lte: 25 }] },
    { where: [{ field: 'age', gt: 89 }] },
    { where: [{ field: 'age', gte: 45, lte: 45 }] },
    { where: [{ field: 'age', gt: 50, lt: 40 }] },
    { where: [{ field: 'age', gt: 200 }] },
    { where: [{ field: 'age', eq: true }] },
    {
      where: [
        { field: 'age', eq: age },
        { field: 'age', gt: age - 1 },
      ],
    },
    { where: [{ field: 'age', gt: 30 }], fields: ['age', 'city'] },
    { where: [{ field: 'age', gt: 30 }], skip: 5, limit: 7 },
    { where: [{ field: 'age', gte: 20 }], fields: ['lastName'], skip: 3, limit: 4 },
    { where: [{ field: 'age', gte: 30 }], skip: 1000 },
    { where: [{ field: 'age', gte: 30 }], limit: 0 },
    ...lastNameQueries(d),
    { where: [{ field: 'city', eq: (d.people[0] as Doc).city as string }] },
    { where: [], skip: 2, limit: 3 },
  ];
}

function lastNameQueries({ last }: QueryData): FindQuery[] {
  return [
    { where: [{ field: 'lastName', eq: last }] },
    { where: [{ field: 'lastName', gt: 'M' }] },
    { where: [{ field: 'lastName', gte: 'C', lt: 'H' }] },
    { where: [{ field: 'lastName', ne: last }] },
    { where: [{ field: 'lastName', lt: 'D' }] },
    { where: [{ field: 'lastName', gt: 'B' }], fields: ['lastName', 'age'], skip: 2, limit: 3 },
    {
      where: [
        { field: 'age', gte: 30 },
        { field: 'lastName', eq: last },
      ],
    },
    {
      where: [
        { field: 'age', gt: 40 },
        { field: 'lastName', lt: 'M' },
      ],
      fields: ['firstName'],
    },
    {
      where: [
        { field: 'lastName', gte: 'K' },
        { field: 'age', lt: 50 },
      ],
      skip: 1,
      limit: 5,
    },
  ];
}

export const RANGES: KeyRange[] = [
  {},
  { skip: 1, limit: 3 },
  { lte: 'doc-0000000003', descending: true, skip: 1, limit: 3 },
  { gte: 'O', lte: 'p' },
  { skip: 125 },
];
