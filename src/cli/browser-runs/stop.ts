/**
 * Ctrl-C and SIGTERM in two stages, heard from the sweep's first moment. The first asks the page
 * in flight to stop as its Cancel does and hand back its rows (`asking`), then closes the browser
 * (`closing`): at once when no page runs, else after STOP_GRACE_MS. Before any browser starts,
 * `closing` stops what runs then (a variant's npm install, which removes its partial folder) and
 * the sweep starts nothing more. A second signal quits at once.
 */

/**
 * How long Ctrl-C waits for the page to stop and send its rows before it closes the browser: the
 * page hears it at its next message, after the sample in flight (under a second in the default
 * plan, where the slowest sample is a temporary view's), and then deletes its databases.
 */
const STOP_GRACE_MS = 15_000;

export class SweepStop {
  /** Asks the page to stop and send its rows; the collector answers its next message with it. */
  readonly asking = new AbortController();
  /** Closes the browser. */
  readonly closing = new AbortController();
  signalled: NodeJS.Signals | null = null;
  /** Set when the browsers' phase begins: before it, a signal has no rows to keep. */
  browsersStarted = false;
  private signalledAt = 0;
  private grace: ReturnType<typeof setTimeout> | undefined;
  private readonly onSignal = (sig: NodeJS.Signals) => this.heard(sig);

  /** `pageRunning`: whether a page said hello and has not ended, so it can be asked to stop. */
  constructor(private readonly pageRunning: () => boolean) {}

  get requested(): boolean {
    return this.asking.signal.aborted;
  }

  listen(): void {
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
  }

  close(): void {
    clearTimeout(this.grace);
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
  }

  private heard(sig: NodeJS.Signals): void {
    if (this.signalled) {
      // One Ctrl-C can arrive twice within milliseconds: from the terminal, and relayed by a
      // wrapper such as the tsx CLI. Only a later one is the user asking to quit at once; exit
      // handlers still stop the WebDriver process groups, and Playwright its browsers.
      if (Date.now() - this.signalledAt < 1_000) return;
      process.exit(1);
    }
    this.signalled = sig;
    this.signalledAt = Date.now();
    this.asking.abort();
    if (!this.pageRunning()) {
      this.closing.abort();
      process.stderr.write(
        this.browsersStarted
          ? `sweep: ${sig}: stopping; the browser is closed and the rows so far are kept (again to quit at once)\n`
          : `sweep: ${sig}: stopping before any browser starts: an install in progress is stopped and its partial folder removed, and nothing more starts (again to quit at once)\n`,
      );
      return;
    }
    this.grace = setTimeout(() => this.closing.abort(), STOP_GRACE_MS);
    process.stderr.write(
      `sweep: ${sig}: stopping; the page is asked to hand back the rows it has, and the browser is closed within ${STOP_GRACE_MS / 1000} s (again to quit at once)\n`,
    );
  }
}
