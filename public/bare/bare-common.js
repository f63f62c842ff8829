// What every bare page of `npm run bench:overhead` shares: the gap the harness page leaves
// before a sample, and the loop of warm-up and timed samples. Nothing else of the harness.
'use strict';

// One turn of the event loop (src/ui/host/yield.ts, yieldToEventLoop).
function tick() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(null);
  });
}

// The gap the harness page leaves before a sample when it has rendered progress since the last
// one: two animation frames, then one turn of the event loop (src/ui/host/yield.ts,
// afterNextPaint, capped at 150 ms). The store can finish the last sample's background work in
// that gap, so both pages leave it.
function settle() {
  return new Promise((resolve) => {
    if (document.visibilityState !== 'visible') return resolve();
    const timer = setTimeout(resolve, 150);
    requestAnimationFrame(() =>
      requestAnimationFrame(() =>
        tick().then(() => {
          clearTimeout(timer);
          resolve();
        }),
      ),
    );
  });
}

function deleteIdb(name) {
  return new Promise((resolve) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = req.onerror = req.onblocked = () => resolve();
  });
}

/**
 * The run's options as JSON text, parsed here, and the documents built here by the harness's own
 * generator (storebenchFixtures, added by the bench): nothing the page works with is made by the
 * driver's script, so no object of another realm or wrapper reaches the store.
 */
function bareOptions(json) {
  const o = JSON.parse(json);
  o.makeDocs = () =>
    storebenchFixtures.makeDocs(storebenchFixtures.fixtureShape(o.fixture), o.seed, o.size);
  o.docId = storebenchFixtures.docId;
  return o;
}

let bareSeq = 0;
const freshName = () => `bare-${Date.now()}-${++bareSeq}`;

/**
 * Warm-up samples first, then timed ones, each after the harness's gap; returns the timed ones
 * in ms. `sample()` returns one sample's ms.
 */
async function samplesOf(sample, samples, warmup) {
  const out = [];
  for (let i = 0; i < warmup + samples; i++) {
    await settle();
    await tick();
    const ms = await sample();
    if (i >= warmup) out.push(ms);
  }
  return out;
}

/**
 * A case on a shared database, as the runner takes it: one database filled once (untimed), then
 * every sample on it, each timing `repeats` runs back to back as one and reporting ms per run;
 * `verify` checks the last run's answer after the clock stops.
 */
async function sharedSamplesOf({ open, fill, run, verify, close }, samples, warmup, repeats) {
  const db = await open();
  try {
    await fill(db);
    return await samplesOf(
      async () => {
        let answer;
        const t0 = performance.now();
        for (let r = 0; r < repeats; r++) answer = await run(db);
        const t1 = performance.now();
        verify(answer);
        return (t1 - t0) / repeats;
      },
      samples,
      warmup,
    );
  } finally {
    await close(db);
  }
}

function expectCount(what, got, expected) {
  if (got !== expected) throw new Error(`verify failed: ${what}: got ${got}, expected ${expected}`);
}
