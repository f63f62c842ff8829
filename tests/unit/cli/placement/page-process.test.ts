/**
 * The engines' process names and flags, as /proc showed them for Debian's Chromium 156, Firefox
 * ESR 153 and WebKitGTK 2.50 running the sweep's page (docs/method.md, "The page's own core").
 */
import { describe, expect, it } from 'vitest';
import { pageEngineOf } from '../../../../src/cli/placement/page-process.ts';

const chromium = (...flags: string[]) => ({
  pid: 1,
  comm: 'chromium',
  words: ['/usr/lib/chromium/chromium', ...flags, '--no-sandbox'],
});
const firefox = (comm: string, ...flags: string[]) => ({
  pid: 1,
  comm,
  words: ['/usr/lib/firefox-esr/firefox-esr', '-contentproc', ...flags, '8721', 'true', 'tab'],
});

describe('pageEngineOf', () => {
  it("takes Chromium's renderers for the page's", () => {
    expect(pageEngineOf(chromium('--type=renderer'))).toBe('chromium');
  });

  it("leaves Chromium's own UI renderer, extensions and helpers to the rest", () => {
    expect(pageEngineOf(chromium('--type=renderer', '--top-chrome-webui'))).toBeNull();
    expect(pageEngineOf(chromium('--type=renderer', '--extension-process'))).toBeNull();
    for (const type of ['--type=zygote', '--type=gpu-process', '--type=utility'])
      expect(pageEngineOf(chromium(type)), type).toBeNull();
    expect(pageEngineOf(chromium())).toBeNull();
  });

  it("takes Firefox's web content processes for the page's", () => {
    for (const comm of ['Isolated Web Co', 'Web Content', 'WebCOOP+COEP Co'])
      expect(pageEngineOf(firefox(comm, '-isForBrowser')), comm).toBe('firefox');
  });

  it("leaves Firefox's extension, socket, media and utility processes to the rest", () => {
    expect(pageEngineOf(firefox('WebExtensions', '-isForBrowser'))).toBeNull();
    for (const comm of ['Socket Process', 'RDD Process', 'Utility Process', 'forkserver'])
      expect(pageEngineOf(firefox(comm)), comm).toBeNull();
    expect(
      pageEngineOf({ pid: 1, comm: 'firefox-esr', words: ['/usr/bin/firefox-esr', '--headless'] }),
    ).toBeNull();
  });

  it("takes WebKit's web process for the page's, and not its network process or the browser", () => {
    const webkit = (program: string, comm: string) => ({
      pid: 1,
      comm,
      words: [`/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/${program}`, '14', '20'],
    });
    expect(pageEngineOf(webkit('WebKitWebProcess', 'WebKitWebProces'))).toBe('webkit');
    expect(pageEngineOf(webkit('WebKitNetworkProcess', 'WebKitNetworkPr'))).toBeNull();
    expect(pageEngineOf(webkit('MiniBrowser', 'MiniBrowser'))).toBeNull();
  });
});
