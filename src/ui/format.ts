/**
 * Number formatting for the page. The page may use the reader's locale; the exporters never do
 * (src/export/), so files read back the same everywhere.
 */
const groupedInt = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const threeSig = new Intl.NumberFormat(undefined, { maximumSignificantDigits: 3 });

/** Milliseconds with about three significant digits, never dropping integer digits. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const abs = Math.abs(ms);
  if (abs === 0) return '0';
  if (abs >= 1000) return groupedInt.format(ms);
  if (abs >= 100) return ms.toFixed(1);
  if (abs >= 10) return ms.toFixed(2);
  if (abs >= 1) return ms.toFixed(3);
  return ms.toPrecision(3);
}

/** A duration in the unit that keeps it readable (ms, µs or ns), with about three significant digits. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms === 0) return '0 ms';
  if (ms >= 1) return `${threeSig.format(ms)} ms`;
  if (ms >= 0.001) return `${threeSig.format(ms * 1000)} µs`;
  return `${threeSig.format(ms * 1e6)} ns`;
}

/** Operations per second with three significant digits; infinite (a 0 ms median) shows a dash. */
export function formatRate(perSecond: number | null | undefined): string {
  if (perSecond === null || perSecond === undefined || !Number.isFinite(perSecond)) return '—';
  return threeSig.format(perSecond);
}

/** The timer step as measured, e.g. `0.005 ms`; rounded to 3 significant digits to drop float noise. */
export function formatStep(ms: number): string {
  if (ms <= 0) return 'unknown';
  return `${Number(ms.toPrecision(3))} ms`;
}

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '—';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${threeSig.format(value)} ${units[unit]}`;
}
