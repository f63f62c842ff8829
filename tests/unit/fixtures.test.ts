import { describe, expect, it } from 'vitest';
import { FIXTURE_HASHES_SEED42_N1000 } from '../fixture-hashes.ts';
import {
  chunks,
  docId,
  fixtureShape,
  FIXTURE_IDS,
  hashDocs,
  makeDoc,
  makeDocs,
} from '../../fixtures/index.ts';

describe('fixtures - determinism', () => {
  for (const id of FIXTURE_IDS) {
    it(`${id}: the same seed gives the same documents`, () => {
      const shape = fixtureShape(id);
      expect(hashDocs(makeDocs(shape, 42, 500))).toBe(hashDocs(makeDocs(shape, 42, 500)));
      expect(hashDocs(makeDocs(shape, 42, 500))).not.toBe(hashDocs(makeDocs(shape, 43, 500)));
    });

    it(`${id}: chunked generation equals one-shot generation`, () => {
      const shape = fixtureShape(id);
      const whole = makeDocs(shape, 7, 1003);
      const pieces = [...chunks(shape, 7, 1003, 100)];
      expect(pieces.map((c) => c.length)).toEqual([
        100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 3,
      ]);
      expect(pieces.flat()).toEqual(whole);
      // Any document can be made on its own, without its predecessors.
      expect(makeDoc(shape, 7, 777)).toEqual(whole[777]);
    });
  }

  it('pins the exact documents, so a change to the generators is noticed', () => {
    for (const id of FIXTURE_IDS) {
      expect(hashDocs(makeDocs(fixtureShape(id), 42, 1000)), id).toBe(
        FIXTURE_HASHES_SEED42_N1000[id],
      );
    }
  });

  it('ids sort in index order as strings', () => {
    const ids = [0, 9, 10, 99, 100, 999_999, 1_000_000].map(docId);
    expect(ids.slice().sort()).toEqual(ids);
    expect(makeDocs(fixtureShape('person'), 1, 3).map((d) => d._id)).toEqual([
      docId(0),
      docId(1),
      docId(2),
    ]);
  });

  it('a million documents stream in chunks without holding them all', () => {
    const shape = fixtureShape('nested');
    let count = 0;
    let last = '';
    for (const chunk of chunks(shape, 42, 1_000_000, 10_000)) {
      count += chunk.length;
      last = chunk[chunk.length - 1]?._id ?? '';
    }
    expect(count).toBe(1_000_000);
    expect(last).toBe(docId(999_999));
  }, 60_000);

  it('rejects an unknown shape with the allowed names', () => {
    expect(() => fixtureShape('nope')).toThrow(/unknown fixture "nope"; allowed: person, nested/);
  });
});
