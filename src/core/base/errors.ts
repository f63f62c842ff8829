/**
 * Errors as data: whatever was thrown as an Error and as the one line a case row keeps, the
 * errors a time limit and a cancel throw, and a promise raced against its time limit. Which step
 * is open for the watchdog to see is step-watch.ts's, armed where the run's steps run.
 */

/** Whatever was thrown, as an Error. Errors are data: they end up in a case row, not a crash. */
export function toError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  if (typeof thrown === 'string') return new Error(thrown);
  if (thrown && typeof thrown === 'object') {
    // PouchDB rejects with plain objects such as { status, name, message }; IndexedDB with DOMException.
    const o = thrown as { name?: unknown; message?: unknown; reason?: unknown };
    const message = [o.name, o.message ?? o.reason].filter((x) => typeof x === 'string').join(': ');
    if (message) return new Error(message);
    try {
      return new Error(JSON.stringify(thrown));
    } catch {
      /* fall through */
    }
  }
  return new Error(String(thrown));
}

/** A one-line message for a case row. QuotaExceededError is named plainly so it can be filtered. */
export function errorMessage(thrown: unknown): string {
  const err = toError(thrown);
  // PouchDB's errors keep the cause in `reason`, behind a message as plain as 'unknown'.
  const reason = (thrown as { reason?: unknown } | null)?.reason;
  const message = err.message || err.name || 'unknown error';
  const text =
    typeof reason === 'string' && reason !== '' && !message.includes(reason)
      ? `${message} (${reason})`
      : message;
  if (/quota/i.test(`${err.name} ${text}`)) return `quota exceeded: ${text}`;
  return text.split('\n')[0] ?? text;
}

export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

export class CancelledError extends Error {
  override readonly name = 'CancelledError';
}

/**
 * Settle with the promise, or reject with TimeoutError after `ms`. The timer is cleared either
 * way, and a late rejection of the losing promise is swallowed so nothing goes unhandled.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  if (!Number.isFinite(ms)) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    // A case whose time limit is already used up reaches here with ms <= 0: say so, not "-128 ms".
    const text =
      ms > 0
        ? `${what} did not finish within ${Math.round(ms)} ms`
        : `no time was left for ${what}`;
    timer = setTimeout(() => reject(new TimeoutError(text)), Math.max(0, ms));
  });
  promise.catch(() => {});
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}
