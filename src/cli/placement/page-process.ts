/**
 * Which of a browser's processes runs the page, by what each engine names its processes: the
 * page's JavaScript, its IndexedDB calls and its Workers' threads all run there. Every other
 * process (the browser's own, its network, storage and GPU helpers, the driver) is not the page's.
 */
import { basename } from 'node:path';
import type { ProcessFacts } from './process-tree.ts';

/**
 * Firefox names a content process for what it hosts (`comm`, cut to 15 characters): web pages
 * run in `Isolated Web Co(ntent)` with Fission, `WebCOOP+COEP Co(ntent)` for a cross-origin
 * isolated site where Fission is off, `Web Content` otherwise (and in the spare processes Firefox
 * starts ahead). WebExtensions, privileged pages and the socket, RDD and utility processes are not
 * the page's.
 */
const FIREFOX_PAGE_NAMES = ['Isolated Web Co', 'WebCOOP+COEP Co', 'Web Content'];

/**
 * The engine whose page this process runs, or null for any other process:
 * - Chromium's renderers (`--type=renderer`), except the full browser's own UI (`--top-chrome-webui`,
 *   which `--headless` keeps) and extensions'; a spare renderer Chromium starts ahead idles there too;
 * - Firefox's web content processes (`-contentproc` with `-isForBrowser`, named as above);
 * - WebKit's web process (`WebKitWebProcess`; its name is cut to `WebKitWebProces`).
 */
export function pageEngineOf(p: ProcessFacts): 'chromium' | 'firefox' | 'webkit' | null {
  const has = (flag: string) => p.words.includes(flag);
  if (has('--type=renderer'))
    return has('--top-chrome-webui') || has('--extension-process') ? null : 'chromium';
  if (has('-contentproc'))
    return has('-isForBrowser') && FIREFOX_PAGE_NAMES.includes(p.comm) ? 'firefox' : null;
  const program = p.words[0] === undefined ? '' : basename(p.words[0]);
  if (program === 'WebKitWebProcess' || p.comm === 'WebKitWebProces') return 'webkit';
  return null;
}
