import type { Study } from './study.ts';

const ADAPTERS = 'idb,dexie,pouchdb-idb,localforage-indexeddb';

export const persevere: Study = {
  id: 'persevere',
  title: 'Persevere JavaScriptDB against CouchDB and MySQL',
  source: {
    title: "JavaScriptDB: Persevere's New High-Performance Storage Engine",
    author: 'Kris Zyp, SitePen blog',
    date: '2009-04-20',
    url: 'https://www.sitepen.com/blog/2009/04/20/javascriptdb-perseveres-new-high-performance-storage-engine/',
    setup: 'Mac OS X, 2 GHz dual-core Intel, 1 GB RAM; MAMP 1.7.2 (PHP 5.2.6, MySQL 5.0.41), CouchDBX 0.8 (CouchDB 0.8.1), Persevere nightly of late March 2009; operations over HTTP from concurrent clients',
  },
  summary:
    'Insert, update and query by an indexed field over HTTP from 10 concurrent clients, with fast commits against high-integrity commits forced to disk. In a browser the analogues are IndexedDB transaction durability (relaxed against strict) and concurrent writers in one page or in Workers.',
  parts: [
    { id: 'durability', title: 'writes with relaxed, strict and default durability', full: ['--suites', 'durability', '--sizes', '1000', '--adapters', ADAPTERS, '--budget', '4m'], quick: ['--suites', 'durability', '--sizes', '200', '--adapters', 'idb,dexie', '--iterations', '6', '--warmup', '1'] },
    {
      id: 'clients',
      title: '1 against 10 concurrent writers, in the page and in Workers',
      full: ['--suites', 'concurrency', '--cases', 'page-writers-1,page-writers-10,worker-writers-1,worker-writers-10', '--params', 'ks=1,10', '--sizes', '1000', '--adapters', ADAPTERS, '--budget', '4m'],
      quick: ['--suites', 'concurrency', '--cases', 'page-writers-1,page-writers-10', '--params', 'ks=1,10', '--sizes', '200', '--adapters', 'idb,dexie', '--iterations', '6', '--warmup', '1'],
    },
    { id: 'crud', title: 'update, and query by an indexed field', full: ['--suites', 'update,find', '--cases', 'replace-serial,eq-indexed', '--sizes', '1000', '--adapters', ADAPTERS, '--budget', '4m'], quick: ['--suites', 'update,find', '--cases', 'replace-serial,eq-indexed', '--sizes', '200', '--adapters', 'idb,dexie', '--iterations', '6', '--warmup', '1'] },
  ],
  findings: [
    {
      id: 'fast-commits',
      says: 'Fast commits beat high-integrity commits forced to disk (one at a time).',
      part: 'durability',
      slower: { suite: 'durability', case: 'serial-strict', size: 'largest' },
      faster: { suite: 'durability', case: 'serial-relaxed', size: 'largest' },
      claim: { kind: 'faster' },
      published: [],
    },
    {
      id: 'fast-commits-bulk',
      says: 'Batching many writes into one durable commit removes most of that cost (bulk writes, strict against relaxed).',
      part: 'durability',
      slower: { suite: 'durability', case: 'bulk-strict', size: 'largest' },
      faster: { suite: 'durability', case: 'bulk-relaxed', size: 'largest' },
      claim: { kind: 'about', value: 1, tolerance: 1.25 },
      published: [],
    },
    {
      id: 'concurrent-clients',
      says: '10 concurrent clients get the same writes done sooner than one.',
      part: 'clients',
      slower: { suite: 'concurrency', case: 'page-writers-1', size: 'largest' },
      faster: { suite: 'concurrency', case: 'page-writers-10', size: 'largest' },
      claim: { kind: 'faster' },
      published: [],
    },
    {
      id: 'against-servers',
      says: 'Persevere outperforms PHP with MySQL by about 40% and CouchDB by 249% over HTTP.',
      part: 'crud',
      slower: { suite: 'update', case: 'replace-serial', size: 'largest' },
      faster: { suite: 'update', case: 'replace-serial', size: 'largest' },
      claim: { kind: 'faster' },
      published: [
        { value: 1.4, unit: '×', where: 'first paragraph: "outperforms the common PHP and MySQL combination ... by about 40%"', measuredIn: 'Persevere against PHP/MySQL over HTTP' },
        { value: 3.49, unit: '×', where: 'first paragraph: "outperforms CouchDB by 249%"', measuredIn: 'Persevere against CouchDB over HTTP' },
      ],
      notMeasurable: 'it compares server databases over HTTP; a browser has no MySQL or CouchDB to run beside its stores',
    },
  ],
  references: [],
};
