/**
 * hashDocs of the first 1,000 documents of each shape at seed 42. The contract with results
 * already published: same seed, same data. The unit test checks Node against these; the e2e test
 * checks each browser against them. Change them only together with the generators, on purpose.
 */
export const FIXTURE_HASHES_SEED42_N1000: Readonly<Record<string, string>> = {
  person: '7cb0deec',
  nested: 'e51b8c97',
};
