/**
 * What a plan may name, read from the same registries the page uses, so the sweep rejects a
 * mistyped suite or store before it starts a browser. The registries import the store
 * libraries, some of which expect a browser at import time, so they are loaded in a child
 * process (vocabulary-probe.ts) and only their ids come back.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PlanVocabulary } from '../core/plan.ts';

const PROBE = fileURLToPath(new URL('./vocabulary-probe.ts', import.meta.url));

export async function loadVocabulary(): Promise<PlanVocabulary> {
  // The probe is TypeScript: reuse this process's module hooks (tsx's), or ask for tsx.
  const hooks = loaderFlags(process.execArgv);
  const loader = hooks.some((a) => a.includes('tsx')) ? hooks : ['--import', 'tsx'];
  const stdout = await new Promise<string>((ok, fail) => {
    execFile(process.execPath, [...loader, PROBE], { timeout: 60_000, maxBuffer: 1024 * 1024 }, (error, out, err) => {
      if (error) {
        const firstLines = String(err).split('\n').filter((l) => l.trim()).slice(0, 3).join(' | ');
        fail(new Error(`could not read the suite, adapter and fixture ids from the registries: ${firstLines || error.message}`));
      } else ok(String(out));
    });
  });
  const data = JSON.parse(stdout) as Record<keyof PlanVocabulary, unknown>;
  const list = (v: unknown, what: string): string[] => {
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new Error(`the ${what} registry gave no list of ids`);
    return v;
  };
  return { suites: list(data.suites, 'suite'), adapters: list(data.adapters, 'adapter'), fixtures: list(data.fixtures, 'fixture') };
}

/** Only the flags that install module hooks (`--import x`, `--require=x`, ...), not --eval etc. */
function loaderFlags(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i] as string;
    if (/^--(import|require|loader|experimental-loader)=/.test(a)) out.push(a);
    else if (/^(--import|--require|-r|--loader|--experimental-loader)$/.test(a) && i + 1 < execArgv.length) out.push(a, execArgv[++i] as string);
  }
  return out;
}
