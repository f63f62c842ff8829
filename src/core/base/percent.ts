/**
 * Percentages as people write them (`5%`, `5`, `2.5%`, `05%`) and as plans, URLs and files write
 * them back: one grammar for the sweep's flags, the page's URL and its controls, so that a value
 * one side accepts reads the same on the other. A few decimals at most: JavaScript then prints
 * the number without an exponent (never `1e-7`), and text → number → text gives the same number.
 */
import { quoted } from './shown.ts';

/** Where a percentage may lie, both ends included, and how many decimals it may have. */
export interface PercentRange {
  min: number;
  max: number;
  decimals: number;
}

/** The number a percentage's text says, or null when the text is not one or lies outside the range. */
export function parsePercent(text: string, range: PercentRange): number | null {
  const digits = range.decimals > 0 ? `(\\.\\d{1,${range.decimals}})?` : '';
  const m = new RegExp(`^\\s*(\\d{1,15}${digits})\\s*%?\\s*$`).exec(text);
  if (!m) return null;
  const pct = Number(m[1]);
  return pct >= range.min && pct <= range.max ? pct : null;
}

/** A percentage as a plan, a URL or a message writes it: its shortest form, which parsePercent reads back. */
export function formatPercent(pct: number): string {
  return `${pct}%`;
}

/** What a range allows, in words: `from 0.01% to 99.99%, at most 2 decimals`. */
function percentAllowed(range: PercentRange): string {
  const decimals =
    range.decimals === 0
      ? 'a whole number'
      : `at most ${range.decimals} decimal${range.decimals === 1 ? '' : 's'}`;
  return `from ${formatPercent(range.min)} to ${formatPercent(range.max)}, ${decimals}`;
}

/**
 * parsePercent, or a message: `label`, the value, what it is meant to be a percentage `of` (may be
 * empty), what is allowed and an example.
 */
export function percentOrProblem(
  label: string,
  text: string,
  range: PercentRange,
  example: string,
  of = '',
): number | string {
  const pct = parsePercent(text, range);
  if (pct !== null) return pct;
  return `${label} ${quoted(text)} is not a percentage${of} ${percentAllowed(range)}, e.g. ${example}`;
}
