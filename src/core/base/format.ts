/**
 * The base room (src/core/base/): what every other room uses and none owns: numbers and
 * percentages as text, a value as a message quotes it, errors and time limits, the step watchdog's
 * shared clock, the timer, canonical JSON, the build's version and what names a case (identity).
 * It imports nothing of src/core; every room may import it.
 *
 * Numbers as text, the one definition the page and the CLI share: milliseconds, bytes, rates and
 * the three shapes a duration takes. Locale-free, so the page, a terminal and a file a reader
 * pastes them into all show the same text.
 */

/** What a cell shows for a number that is missing or not finite. */
const NO_NUMBER = '—';

const MS_PER_SECOND = 1000;
const SECONDS_PER_MINUTE = 60;
const SECONDS_PER_HOUR = 3600;

/** Binary units, as storage quotas, the results files' byte caps and the OS's file sizes count. */
const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;
const BYTES_PER_UNIT = 1024;

/** Grouped thousands for counts and rates: `12,300`; en-US so every reader sees the same text. */
const threeSignificant = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });

function missing(x: number | null | undefined): x is null | undefined {
  return x === null || x === undefined || !Number.isFinite(x);
}

/** `x` to three significant digits, without trailing zeros: 3.2, 12.3, 1230. */
function threeDigits(x: number): string {
  return String(Number(x.toPrecision(3)));
}

/**
 * Milliseconds as a bare number, three significant figures and never fewer decimals than needed
 * to tell 0.0412 from 0.0415: `1235`, `12.3`, `4.21`, `0.0412`. The caller names the unit.
 */
export function formatMs(ms: number | null | undefined): string {
  if (missing(ms)) return NO_NUMBER;
  const abs = Math.abs(ms);
  const decimals =
    abs >= 100
      ? 0
      : abs >= 10
        ? 1
        : abs >= 1
          ? 2
          : abs > 0
            ? Math.min(6, 2 - Math.floor(Math.log10(abs)))
            : 3;
  return ms.toFixed(decimals);
}

/** A measured time in the unit that keeps it readable, three significant digits: `3.2 µs`, `41.5 ms`. */
export function formatMeasuredDuration(ms: number | null | undefined): string {
  if (missing(ms)) return NO_NUMBER;
  if (ms === 0) return '0 ms';
  if (ms >= 1) return `${threeDigits(ms)} ms`;
  if (ms >= 0.001) return `${threeDigits(ms * 1000)} µs`;
  return `${threeDigits(ms * 1e6)} ns`;
}

/** Elapsed time as a clock shows it, to the second: `0:07`, `12:34`, `1:02:03`. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.round(ms / MS_PER_SECOND));
  const h = Math.floor(total / SECONDS_PER_HOUR);
  const m = Math.floor((total % SECONDS_PER_HOUR) / SECONDS_PER_MINUTE);
  const s = total % SECONDS_PER_MINUTE;
  const mmss = `${h > 0 ? String(m).padStart(2, '0') : m}:${String(s).padStart(2, '0')}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/**
 * A duration as --budget and the page's budget field are written: the shortest text
 * parseDuration (plan/fields.ts) reads back, `4m`, `1m30s`, `250ms`.
 */
export function formatDuration(ms: number): string {
  if (ms % MS_PER_SECOND !== 0) return `${ms}ms`;
  let s = ms / MS_PER_SECOND;
  const h = Math.floor(s / SECONDS_PER_HOUR);
  s -= h * SECONDS_PER_HOUR;
  const m = Math.floor(s / SECONDS_PER_MINUTE);
  s -= m * SECONDS_PER_MINUTE;
  const text = `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
  return text || '0s';
}

/** Bytes in binary units, three significant digits: `512 B`, `30 KiB`, `3.43 MiB`. */
export function formatBytes(bytes: number | null | undefined): string {
  if (missing(bytes)) return NO_NUMBER;
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= BYTES_PER_UNIT && unit < BYTE_UNITS.length - 1) {
    value /= BYTES_PER_UNIT;
    unit++;
  }
  return `${unit === 0 ? Math.round(value) : threeDigits(value)} ${BYTE_UNITS[unit]}`;
}

/** Operations per second, three significant digits: `12,300`; infinite (a 0 ms median) shows a dash. */
export function formatRate(perSecond: number | null | undefined): string {
  if (missing(perSecond)) return NO_NUMBER;
  return threeSignificant.format(perSecond);
}

/** The timer step as measured, e.g. `0.005 ms`; rounded to 3 significant digits to drop float noise. */
export function formatStep(ms: number): string {
  if (ms <= 0) return 'unknown';
  return `${threeDigits(ms)} ms`;
}

/** Text on one line, whitespace collapsed, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
