/**
 * What the page offers as A and B: every registered store, and for B also the calibration
 * instrument over A (`A@+N%`, A slowed down by N%) when the registry knows instruments. Asking
 * the registry rather than writing the ids here keeps the list right whatever it can build.
 */

export interface AbChoice {
  value: string;
  text: string;
  group: 'stores' | 'instrument';
}

/** The slowdowns the instrument is offered at: at, around and above the default 5% threshold. */
export const INSTRUMENT_PERCENTS: readonly number[] = [5, 10, 20];

/**
 * The choices for A (`a` null) or for B (`a` the store chosen as A). `accepts(id)` says whether
 * the registry builds that id; `also` are ids a link named, kept even when not offered.
 */
export function abChoices(
  stores: readonly { id: string; label: string }[],
  a: string | null,
  accepts: (id: string) => boolean,
  also: readonly string[] = [],
): AbChoice[] {
  const out: AbChoice[] = stores.map((s) => ({
    value: s.id,
    text: s.label === s.id ? s.id : `${s.id}: ${s.label}`,
    group: 'stores',
  }));
  if (a !== null) {
    for (const n of INSTRUMENT_PERCENTS) {
      const id = `${a}@+${n}%`;
      if (!out.some((c) => c.value === id) && accepts(id))
        out.push({ value: id, text: `${id}: ${a} slowed by ${n}%`, group: 'instrument' });
    }
  }
  for (const id of also)
    if (!out.some((c) => c.value === id))
      out.push({ value: id, text: id, group: id.includes('@+') ? 'instrument' : 'stores' });
  return out;
}
