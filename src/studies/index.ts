import { insertionProfile } from './insertion-profile.ts';
import { jofti } from './jofti.ts';
import { jsonstore } from './jsonstore.ts';
import { persevere } from './persevere.ts';
import { pouchdb22 } from './pouchdb-2.2.ts';
import type { Study } from './study.ts';

/** Every study `npm run study` reruns. Adding one is a file in src/studies/ and a line here. */
export const STUDIES: readonly Study[] = [pouchdb22, jsonstore, insertionProfile, jofti, persevere];

export const STUDY_IDS: readonly string[] = STUDIES.map((s) => s.id);

export function studyById(id: string): Study | undefined {
  return STUDIES.find((s) => s.id === id);
}
