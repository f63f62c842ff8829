/** A download the page offers, as the e2e specs read it. */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

/**
 * Click a download button and read the file the page hands the browser. Over WebDriver BiDi a
 * stock Firefox (channel moz-firefox) reports no download event for blob: URLs (data: URLs it
 * does), so there the test takes the file from the link the page clicks instead.
 */
export async function download(
  page: Page,
  button: string,
  viaLink: boolean,
): Promise<{ name: string; text: string }> {
  if (!viaLink) {
    const [file] = await Promise.all([page.waitForEvent('download'), page.locator(button).click()]);
    return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
  }
  await page.evaluate(() => {
    const w = window as unknown as { __saved?: Promise<{ name: string; text: string }> };
    // Kept to call on the anchor itself (click.call(this)) and to put back: never called unbound.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, which the patch calls with its own `this`
    const click = HTMLAnchorElement.prototype.click;
    w.__saved = new Promise((resolve, reject) => {
      HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
        HTMLAnchorElement.prototype.click = click;
        if (!this.download) return click.call(this);
        // Decoded keeping a byte-order mark, which Response.text() would drop.
        fetch(this.href)
          .then((r) => r.arrayBuffer())
          .then(
            (bytes) =>
              resolve({
                name: this.download,
                text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes),
              }),
            reject,
          );
      };
    });
  });
  await page.locator(button).click();
  return page.evaluate(
    () => (window as unknown as { __saved: Promise<{ name: string; text: string }> }).__saved,
  );
}
