/**
 * Phase 2 of a sweep: the variants the plan names (core/variant.ts). An npm version is installed
 * into the cache once (or found there), a local folder is checked, and each says what identifies
 * its build; instruments (`@+N%`) need nothing. A missing version, an unreachable registry or a
 * folder that is not the package stops the sweep here with exit 2, before any build or browser.
 */
import { resolve } from 'node:path';
import { parseVariant, type ParsedVariant } from '../../core/variant.ts';
import { builtVariants, folderSource, npmSource, variantCache, VariantSourceError, type VariantSource } from '../variant-sources.ts';
import type { InputsRefused } from './inputs.ts';
import type { SweepInputs } from './run.ts';

type Io = { out: (line?: string) => void; fail: (line: string) => void };

/** The plan's variants that are builds of a package: an npm version or a folder. */
export function packageVariants(inputs: Pick<SweepInputs, 'plan' | 'vocab'>): ParsedVariant[] {
  const { adapters, wraps } = inputs.vocab;
  return inputs.plan.adapters
    .filter((id) => !adapters.includes(id) && id.includes('@'))
    .map((id) => parseVariant(id, adapters, wraps ?? {}))
    .filter((v) => v.spec.kind !== 'instrument');
}

export async function prepareVariants(inputs: SweepInputs, io: Io): Promise<VariantSource[] | InputsRefused> {
  const wanted = packageVariants(inputs);
  if (wanted.length === 0) return [];
  const { args } = inputs;
  if (args.page !== null) {
    const missing = wanted.filter((v) => !builtVariants(resolve(args.page as string)).includes(v.id));
    if (missing.length === 0) return [];
    return refuse(io, `--page: ${resolve(args.page)} was built without ${missing.map((v) => v.id).join(', ')}; leave out --page so that the sweep builds the page with them`);
  }
  const sources: VariantSource[] = [];
  for (const v of wanted) {
    try {
      sources.push(await sourceOf(v, inputs, (line) => io.out(`  ${v.id}: ${line}`)));
    } catch (e) {
      if (!(e instanceof VariantSourceError)) throw e;
      return refuse(io, `${v.id}: ${e.message}`);
    }
    io.out(`  ${v.id}: ${describeSource(sources.at(-1) as VariantSource)}`);
  }
  return sources;
}

function sourceOf(v: ParsedVariant, inputs: SweepInputs, note: (line: string) => void): Promise<VariantSource> | VariantSource {
  const wraps = inputs.vocab.wraps?.[v.base];
  if (!wraps) throw new VariantSourceError(`${v.base} wraps no npm package`);
  if (v.spec.kind === 'version') return npmSource({ ...v, spec: v.spec }, wraps, variantCache(), note);
  if (v.spec.kind === 'folder') return folderSource({ ...v, spec: v.spec }, wraps);
  throw new VariantSourceError('an instrument is no build');
}

/** One line: what the variant is built from and what identifies that build. */
export function describeSource(s: VariantSource): string {
  const identity = s.facts.integrity ?? `commit ${s.facts.commit ?? 'unknown'}`;
  const from = s.facts.folder ?? 'npm';
  return `${s.what}${s.legacy ? ' (CommonJS for browserify, with Node shims)' : ''}, ${from === 'npm' ? 'from npm' : `folder ${from}`}, ${identity}`;
}

function refuse(io: Io, line: string): InputsRefused {
  io.fail(line);
  return { exit: 2 };
}
