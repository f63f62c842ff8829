/**
 * The SQLite worker the sqlite-opfs adapter starts when it is used from the page: it hands each
 * request to the engine (sqlite-opfs-engine.ts) and posts the answer back.
 */
import { serve } from './sqlite-opfs-engine.ts';
import type { Request } from './sqlite-opfs-protocol.ts';

self.addEventListener('message', (event: MessageEvent<Request>) => {
  void serve(event.data).then((answer) => (self as unknown as Worker).postMessage(answer));
});
