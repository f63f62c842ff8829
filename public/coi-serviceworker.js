/*
 * Cross-origin isolation from a service worker, for the published site (npm run site) on a
 * static host that cannot send the headers. After coi-serviceworker by Guido Zuidhof (MIT,
 * https://github.com/gzuidhof/coi-serviceworker): one file, loaded by the page as a classic
 * script, registers itself as the page's service worker and reloads once it controls the page;
 * the worker then adds COOP and COEP to every response, so the reloaded page is isolated.
 * Every file of the site is same-origin, so COEP require-corp needs nothing more. What happened
 * is kept in sessionStorage ('storebench-coi'), where the page reads it to say what is lost.
 */
if (typeof window === 'undefined') {
  self.addEventListener('install', () => self.skipWaiting());
  self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
  self.addEventListener('fetch', (event) => {
    const request = event.request;
    // A request the worker may not refetch (a cross-origin only-if-cached one) goes as it is.
    if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
    event.respondWith(
      fetch(request).then((response) => {
        // An opaque response cannot be copied; it stays as it is.
        if (response.status === 0) return response;
        const headers = new Headers(response.headers);
        headers.set('Cross-Origin-Opener-Policy', 'same-origin');
        headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
        headers.set('Cross-Origin-Resource-Policy', 'same-origin');
        return new Response(response.body, {
          status: response.status,
          statusText: response.statusText,
          headers,
        });
      }),
    );
  });
} else {
  (() => {
    const KEY = 'storebench-coi';
    const note = (text) => {
      try {
        sessionStorage.setItem(KEY, text);
      } catch {
        // Storage refused: the page then says only that no worker was registered.
      }
    };
    if (window.crossOriginIsolated) return note('isolated');
    const controller = navigator.serviceWorker && navigator.serviceWorker.controller;
    let reloaded = null;
    try {
      reloaded = sessionStorage.getItem('storebench-coi-reloaded');
      sessionStorage.removeItem('storebench-coi-reloaded');
    } catch {
      // As above.
    }
    if (controller)
      return note('a service worker controls the page, but the browser did not isolate it');
    if (!window.isSecureContext)
      return note(
        'this page is not in a secure context (HTTPS or localhost), where service workers are not allowed',
      );
    if (!navigator.serviceWorker)
      return note('this browser offers no service workers here (a private window, or a setting)');
    if (reloaded)
      return note('the page reloaded once for the service worker, which still does not control it');
    const reload = () => {
      try {
        sessionStorage.setItem('storebench-coi-reloaded', '1');
      } catch {
        // As above: at worst one more reload.
      }
      window.location.reload();
    };
    navigator.serviceWorker.register(document.currentScript.src).then(
      (registration) => {
        note('registered; reloading to take effect');
        if (registration.active && !navigator.serviceWorker.controller) reload();
        else
          registration.addEventListener('updatefound', () => {
            const worker = registration.installing;
            if (!worker) return;
            worker.addEventListener('statechange', () => {
              if (worker.state === 'activated') reload();
            });
          });
      },
      (error) => note(`the service worker could not be registered: ${String(error)}`),
    );
  })();
}
