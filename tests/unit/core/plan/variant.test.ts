import { describe, expect, it } from 'vitest';
import { PlanError } from '../../../../src/core/plan/plan.ts';
import { parsePlan } from '../../../../src/core/plan/fields.ts';
import { planFieldsFromQuery, planToQuery } from '../../../../src/core/plan/url.ts';
import {
  compareVersions,
  packagesFor,
  parseVariant,
  VariantError,
  type Wraps,
} from '../../../../src/core/plan/variant.ts';

const REGISTERED = ['pouchdb-idb', 'idb', 'memory', 'pouchdb-idb@7.3.1', 'idb@write-behind'];
const WRAPS: Record<string, Wraps> = {
  'pouchdb-idb': {
    packages: ['pouchdb-browser', 'pouchdb-find'],
    before: { version: '6.2.0', packages: ['pouchdb'] },
  },
  idb: { packages: ['idb'] },
};
const vocab = { suites: ['insert'], adapters: REGISTERED, fixtures: ['person'], wraps: WRAPS };
const parse = (id: string) => parseVariant(id, REGISTERED, WRAPS);

describe('parseVariant', () => {
  it('reads an exact npm version, with or without a prerelease', () => {
    expect(parse('idb@8.0.4')).toEqual({
      id: 'idb@8.0.4',
      base: 'idb',
      spec: { kind: 'version', version: '8.0.4' },
    });
    expect(parse('pouchdb-idb@9.0.0-beta.1').spec).toEqual({
      kind: 'version',
      version: '9.0.0-beta.1',
    });
  });

  it('reads a folder, relative or absolute, as written', () => {
    expect(parse('pouchdb-idb@file:../pouchdb/packages/node_modules/pouchdb-browser')).toEqual({
      id: 'pouchdb-idb@file:../pouchdb/packages/node_modules/pouchdb-browser',
      base: 'pouchdb-idb',
      spec: { kind: 'folder', path: '../pouchdb/packages/node_modules/pouchdb-browser' },
    });
    expect(parse('idb@file:/srv/builds/idb@next').spec).toEqual({
      kind: 'folder',
      path: '/srv/builds/idb@next',
    });
  });

  it('reads a git ref, and refuses what git would not take', () => {
    expect(parse('memory@git:origin/main')).toEqual({
      id: 'memory@git:origin/main',
      base: 'memory',
      spec: { kind: 'git', ref: 'origin/main' },
    });
    expect(parse('idb@git:HEAD~1').spec).toEqual({ kind: 'git', ref: 'HEAD~1' });
    expect(parse('idb@git:v1.2.0').spec).toEqual({ kind: 'git', ref: 'v1.2.0' });
    for (const bad of [
      'idb@git:',
      'idb@git:-x',
      'idb@git:a..b',
      'idb@git:a b',
      'idb@git:a^{}',
      'idb@git:HEAD:src',
    ])
      expect(() => parse(bad), bad).toThrow(
        /git: needs a ref of the adapter's repository, e\.g\. idb@git:origin\/main or idb@git:v1\.2\.0$/,
      );
  });

  it('reads an instrument from +0.1% to +100%', () => {
    expect(parse('idb@+10%')).toEqual({
      id: 'idb@+10%',
      base: 'idb',
      spec: { kind: 'instrument', percent: 10 },
    });
    expect(parse('memory@+0.1%').spec).toEqual({ kind: 'instrument', percent: 0.1 });
    expect(parse('memory@+100%').spec).toEqual({ kind: 'instrument', percent: 100 });
    expect(parse('idb@+10.0%').id).toBe('idb@+10%');
    // The longest registered id before an @ is the base, so a registered variant takes an instrument too.
    expect(parse('pouchdb-idb@7.3.1@+5%')).toMatchObject({
      base: 'pouchdb-idb@7.3.1',
      spec: { kind: 'instrument', percent: 5 },
    });
  });

  const refused: [string, RegExp][] = [
    [
      'idb@+0%',
      /"idb@\+0%": an instrument is \+N% with N from 0.1 to 100 \(one decimal at most\), e.g. idb@\+10%/,
    ],
    ['idb@+100.1%', /an instrument is \+N% with N from 0.1 to 100/],
    ['idb@+0.05%', /an instrument is \+N% with N from 0.1 to 100/],
    ['idb@+10', /an instrument is \+N%/],
    [
      'idb@8.0',
      /"idb@8.0": "8.0" is not an exact version \(1.2.3 or 1.2.3-beta.1\), a folder \(file:DIR\) or an instrument \(\+N%\)/,
    ],
    ['idb@^8.0.4', /"\^8.0.4" is not an exact version/],
    ['idb@latest', /"latest" is not an exact version/],
    ['idb@file:', /"idb@file:": file: needs a folder, e.g. idb@file:..\/idb/],
    [
      'memory@1.0.0',
      /"memory@1.0.0": memory wraps no npm package, so it takes only an instrument, memory@\+N% \(e.g. memory@\+10%\)/,
    ],
    ['memory@file:../x', /memory wraps no npm package/],
    [
      'nope@1.0.0',
      /"nope@1.0.0" names no registered adapter before its "@"; variants are ADAPTER@VERSION/,
    ],
  ];
  for (const [id, message] of refused) {
    it(`refuses ${id} with what is allowed`, () => {
      expect(() => parse(id)).toThrow(VariantError);
      expect(() => parse(id)).toThrow(message);
    });
  }

  it('names the packages of an older PouchDB release', () => {
    const pouch = WRAPS['pouchdb-idb'] as Wraps;
    expect(packagesFor(pouch, '9.0.0')).toEqual({
      packages: ['pouchdb-browser', 'pouchdb-find'],
      legacy: false,
    });
    expect(packagesFor(pouch, '6.2.0')).toEqual({
      packages: ['pouchdb-browser', 'pouchdb-find'],
      legacy: false,
    });
    expect(packagesFor(pouch, '2.2.0')).toEqual({ packages: ['pouchdb'], legacy: true });
    expect(packagesFor(pouch, '6.2.0-beta.1').legacy).toBe(true);
    expect(compareVersions('2.10.0', '2.9.9')).toBeGreaterThan(0);
    expect(compareVersions('1.0.0-alpha', '1.0.0-beta')).toBeLessThan(0);
  });
});

describe('parseVariant - the sides of an A/A or an A/B', () => {
  it('reads X@twin and X@installed', () => {
    expect(parse('memory@twin')).toEqual({
      id: 'memory@twin',
      base: 'memory',
      spec: { kind: 'twin' },
    });
    expect(parse('idb@installed')).toEqual({
      id: 'idb@installed',
      base: 'idb',
      spec: { kind: 'installed' },
    });
    expect(() => parse('memory@installed')).toThrow(VariantError);
  });

  it('reads --ab X,X as an A/A on one build: X against X@twin', () => {
    const plan = parsePlan({ adapters: 'idb, idb', ab: '5%' }, vocab);
    expect(plan.adapters).toEqual(['idb', 'idb@twin']);
    expect(
      parsePlan(planFieldsFromQuery(new URLSearchParams(planToQuery(plan).toString())), vocab),
    ).toEqual(plan);
    // Named once, or outside an A/B, the store is one store.
    expect(parsePlan({ adapters: 'idb,idb' }, vocab).adapters).toEqual(['idb']);
    expect(() => parsePlan({ adapters: 'idb@+5%,idb@+05%', ab: '5%' }, vocab)).toThrow(
      /are one store, "idb@\+5%" \(an A\/A names a registered store twice/,
    );
  });
});

describe('parsePlan - variants', () => {
  it('accepts variants beside their stores, through the URL', () => {
    const plan = parsePlan(
      {
        adapters:
          'idb,idb@8.0.4,idb@+10.0%,pouchdb-idb@file:../p/pouchdb-browser,pouchdb-idb@7.3.1',
        iterations: '3',
      },
      vocab,
    );
    expect(plan.adapters).toEqual([
      'idb',
      'idb@8.0.4',
      'idb@+10%',
      'pouchdb-idb@file:../p/pouchdb-browser',
      'pouchdb-idb@7.3.1',
    ]);
    expect(parsePlan(planFieldsFromQuery(planToQuery(plan)), vocab)).toEqual(plan);
  });

  it('leaves every id with an @ out of the default plan', () => {
    expect(parsePlan({}, vocab).adapters).toEqual(['pouchdb-idb', 'idb', 'memory']);
  });

  it('refuses a bad variant in one line, with the forms allowed', () => {
    expect(() => parsePlan({ adapters: 'idb,memory@2.0.0' }, vocab)).toThrow(PlanError);
    expect(() => parsePlan({ adapters: 'idb,memory@2.0.0' }, vocab)).toThrow(
      /^adapters: "memory@2.0.0": memory wraps no npm package, so it takes only an instrument, memory@\+N% \(e.g. memory@\+10%\); registered: pouchdb-idb, idb, memory, pouchdb-idb@7.3.1, idb@write-behind$/,
    );
    expect(() => parsePlan({ adapters: 'dexie@4.0.11' }, vocab)).toThrow(
      /^adapters: "dexie@4.0.11" names no registered adapter before its "@"; variants are ADAPTER@VERSION \(e.g. idb@8.0.4\), ADAPTER@file:DIR \(a local build of its package\), ADAPTER@\+N% \(an instrument, N from 0.1 to 100\), ADAPTER@git:REF \(an adapter of your config, from a commit of its repository\), ADAPTER@installed \(the installed package, built as a variant\), ADAPTER@twin \(the same store again, for an A\/A\); registered: /,
    );
    // A vocabulary without wraps (an older page) takes only instruments.
    expect(() => parsePlan({ adapters: 'idb@8.0.4' }, { ...vocab, wraps: undefined })).toThrow(
      /idb wraps no npm package/,
    );
    // A name without an @ is refused as before.
    expect(() => parsePlan({ adapters: 'websql,idb@8.0.4' }, vocab)).toThrow(
      /^adapters: unknown "websql"; allowed: pouchdb-idb, idb, memory, pouchdb-idb@7.3.1, idb@write-behind$/,
    );
  });
});
