/**
 * Variants of a store in one run, `ADAPTER@SPEC`: a registered adapter on another build of the
 * package it wraps (`idb@8.0.4`, `pouchdb-idb@file:../pouchdb/packages/node_modules/pouchdb-browser`),
 * or the same store made N% slower on purpose (`idb@+10%`, an instrument for testing the gate).
 * One parser for the page, the plan and the sweep; the page builds the adapters
 * (src/adapters/variants/variants.ts), the sweep installs and bundles the packages (src/cli/browser-runs/variants.ts).
 */

import { formatPercent, parsePercent, type PercentRange } from '../base/percent.ts';
import { quoted } from '../base/shown.ts';

export type VariantSpec =
  /** An exact npm version, x.y.z with an optional prerelease. */
  | { kind: 'version'; version: string }
  /** A local folder holding the package, as given: relative to the working directory, or absolute. */
  | { kind: 'folder'; path: string }
  /** Every handle call followed by a busy wait of `percent`% of the call's own time. */
  | { kind: 'instrument'; percent: number }
  /** A config adapter built from this ref of the git repository its module is in (a worktree). */
  | { kind: 'git'; ref: string }
  /** The same store under a second name, for an A/A on one build: `--ab X,X` reads as X, X@twin. */
  | { kind: 'twin' }
  /** The installed package, built as a variant is (from its folder, into a chunk of its own), so an A/B against a variant differs only in the code. */
  | { kind: 'installed' };

export interface ParsedVariant {
  /** The id as the plan keeps it (an instrument's percentage written in its shortest form). */
  id: string;
  /** The registered adapter it is a variant of. */
  base: string;
  spec: VariantSpec;
}

/** The npm packages a store is a build of, as its adapter declares them (StoreAdapter.wraps). */
export interface Wraps {
  /** The store's own package first, then companions released with it at the same version. */
  packages: readonly string[];
  /**
   * Releases older than `version` came as other packages (PouchDB before 6.2 was one `pouchdb`
   * package), CommonJS for browserify: the sweep bundles them with Node's shims (`legacy`).
   */
  before?: { version: string; packages: readonly string[] };
}

/**
 * What the page needs to build a variant's adapter: the sweep writes one per variant into the page.
 * `Modules` is what `load` gives, one module per package of `wraps.packages`, so an adapter can
 * name their types (`VariantBuild<[typeof import('idb-keyval')]>`) instead of casting.
 */
export interface BuiltVariant<Modules extends readonly unknown[] = unknown[]> {
  base: string;
  /** The store package's version, as its package.json says. */
  version: string;
  /** `idb 8.0.4` or `pouchdb-browser 9.0.0 from ../pouchdb/...`: for labels. */
  what: string;
  /** CommonJS for browserify, bundled with Node's shims (Wraps.before): the adapter may offer less. */
  legacy: boolean;
  /** What identifies the build (package, version, folder or integrity, commit): its describe() facts. */
  facts: Readonly<Record<string, string>>;
  /** The packages' modules, in the order of the packages. */
  load(): Promise<Modules>;
}

/** A variant as its adapter's factory receives it. */
export interface VariantBuild<
  Modules extends readonly unknown[] = unknown[],
> extends BuiltVariant<Modules> {
  id: string;
}

export class VariantError extends Error {
  override readonly name = 'VariantError';
}

/** The spec forms, for messages. */
const VARIANT_FORMS =
  'ADAPTER@VERSION (e.g. idb@8.0.4), ADAPTER@file:DIR (a local build of its package), ADAPTER@+N% (an instrument, N from 0.1 to 100), ADAPTER@git:REF (an adapter of your config, from a commit of its repository), ADAPTER@installed (the installed package, built as a variant), ADAPTER@twin (the same store again, for an A/A)';

/** A git ref as a variant takes it (a branch, tag or commit, `HEAD~1` too): no option look-alike, no space or control character, none of git's forbidden sequences. */
const GIT_REF =
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  /^(?!-)(?!.*(\.\.|@\{|\^\{|\/\/|\/\.|\.lock$|\/$|\.$))[^\s\u0000-\u001f\u007f:?*[\\]{1,200}$/u;

const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;
/** An instrument's slowdown: +0.1% to +100%, in tenths, as the instrument's busy wait resolves it. */
const INSTRUMENT_RANGE: PercentRange = { min: 0.1, max: 100, decimals: 1 };

/**
 * The registered adapter `id` names a variant of, the longest that fits (so an id with an `@`
 * of its own, like `pouchdb-idb@7.3.1`, can take an instrument too), or undefined.
 */
export function variantBase(id: string, registered: readonly string[]): string | undefined {
  return registered.filter((r) => id.startsWith(`${r}@`)).sort((a, b) => b.length - a.length)[0];
}

/**
 * Parse `ADAPTER@SPEC` against the registered ids and what each wraps. Registered ids (those with
 * an `@` included) are not variants: check them before. Throws VariantError saying what is wrong
 * and what is allowed.
 */
export function parseVariant(
  id: string,
  registered: readonly string[],
  wraps: Readonly<Record<string, Wraps>>,
): ParsedVariant {
  const base = variantBase(id, registered);
  if (base === undefined)
    throw new VariantError(
      `${quoted(id)} names no registered adapter before its "@"; variants are ${VARIANT_FORMS}`,
    );
  const text = id.slice(base.length + 1);
  if (text.startsWith('+')) {
    const percent = /^\+[^+\s]*%$/.test(text)
      ? parsePercent(text.slice(1), INSTRUMENT_RANGE)
      : null;
    if (percent === null)
      throw new VariantError(
        `${quoted(id)}: an instrument is +N% with N from 0.1 to 100 (one decimal at most), e.g. ${base}@+10%`,
      );
    return {
      id: `${base}@+${formatPercent(percent)}`,
      base,
      spec: { kind: 'instrument', percent },
    };
  }
  if (text.startsWith('git:')) {
    const ref = text.slice('git:'.length);
    if (!GIT_REF.test(ref))
      throw new VariantError(
        `"${id}": git: needs a ref of the adapter's repository, e.g. ${base}@git:origin/main or ${base}@git:v1.2.0`,
      );
    return { id, base, spec: { kind: 'git', ref } };
  }
  if (text === 'twin') return { id, base, spec: { kind: 'twin' } };
  const spec = specOf(id, base, text);
  if (!wraps[base])
    throw new VariantError(
      `${quoted(id)}: ${base} wraps no npm package, so it takes only an instrument, ${base}@+N% (e.g. ${base}@+10%)`,
    );
  return { id, base, spec };
}

function specOf(id: string, base: string, text: string): VariantSpec {
  if (text === 'installed') return { kind: 'installed' };
  if (text.startsWith('file:')) {
    const path = text.slice('file:'.length);
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    if (path === '' || /[\u0000-\u001f\u007f]/.test(path))
      throw new VariantError(`${quoted(id)}: file: needs a folder, e.g. ${base}@file:../${base}`);
    return { kind: 'folder', path };
  }
  if (VERSION.test(text)) return { kind: 'version', version: text };
  throw new VariantError(
    `${quoted(id)}: ${quoted(text)} is not an exact version (1.2.3 or 1.2.3-beta.1), a folder (file:DIR) or an instrument (+N%)`,
  );
}

/** The packages a version of the store is made of, and whether it is a legacy CommonJS build. */
export function packagesFor(
  wraps: Wraps,
  version: string,
): { packages: readonly string[]; legacy: boolean } {
  if (wraps.before && compareVersions(version, wraps.before.version) < 0)
    return { packages: wraps.before.packages, legacy: true };
  return { packages: wraps.packages, legacy: false };
}

/** Semver order of x.y.z[-pre]: a prerelease sorts before its release; prereleases compare as text. */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const dash = v.indexOf('-');
    return {
      nums: (dash < 0 ? v : v.slice(0, dash)).split('.').map(Number),
      pre: dash < 0 ? null : v.slice(dash + 1),
    };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < 3; i++)
    if ((x.nums[i] ?? 0) !== (y.nums[i] ?? 0)) return (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
  if (x.pre === y.pre) return 0;
  if (x.pre === null) return 1;
  if (y.pre === null) return -1;
  return x.pre < y.pre ? -1 : 1;
}
