/**
 * Headers that make the page cross-origin isolated. Without them Firefox and WebKit quantise
 * performance.now() to 1 ms (docs/browsers.md, "Browsers on this kind of machine"); with them the step is 5 to 20 µs. The dev server,
 * the preview server and the sweep's server all send them.
 */
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};
