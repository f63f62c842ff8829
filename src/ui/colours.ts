/**
 * One colour per adapter, the same in every chart and every run. Registered adapters take the
 * palette in registry order, so the first ten never share a colour; an id the registry does not
 * know (an old results file) gets one from a hash of its name.
 */
import { ADAPTER_IDS } from '../adapters/registry.ts';

/**
 * Tableau 10, which reads on light and dark backgrounds alike, reordered so that neighbours
 * differ in hue: its red and pink, next to each other, were hard to tell apart in one chart.
 */
const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#b07aa1', '#76b7b2', '#edc948', '#9c755f', '#ff9da7', '#bab0ac'] as const;

export function adapterColour(id: string): string {
  const known = ADAPTER_IDS.indexOf(id);
  const index = known >= 0 ? known : hash(id);
  return PALETTE[index % PALETTE.length] as string;
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
