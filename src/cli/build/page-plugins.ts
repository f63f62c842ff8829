/**
 * The plugins a page is built with for a run: the variants of registered stores it names
 * (variants-plugin.ts), and a store author's adapters with their builds from git refs
 * (user-adapters-plugin.ts). None when the run names neither, so the page is storebench's own.
 */
import type { Plugin } from 'vite';
import type { VariantSource } from './variant-sources.ts';
import { variantsPlugin } from './variants-plugin.ts';
import type { GitBuild, UserAdapter } from './user-adapters.ts';
import { userAdaptersPlugin } from './user-adapters-plugin.ts';

export interface PageAdditions {
  variants: readonly VariantSource[];
  user: readonly UserAdapter[];
  git: readonly GitBuild[];
}

export const NO_ADDITIONS: PageAdditions = { variants: [], user: [], git: [] };

export function hasAdditions(a: PageAdditions): boolean {
  return a.variants.length + a.user.length + a.git.length > 0;
}

/** The plugins for the page and for each of its Workers (each bundle takes plugins of its own). */
export function pagePlugins(a: PageAdditions): () => Plugin[] {
  return () => [
    ...(a.variants.length > 0 ? [variantsPlugin(a.variants)] : []),
    ...(a.user.length + a.git.length > 0 ? [userAdaptersPlugin(a.user, a.git)] : []),
  ];
}
