/**
 * The placer on real processes, checked by the affinity Linux reports for them. The "page" here
 * is a sleeping child named like Chromium's renderer (`--type=renderer` on its command line),
 * which is all the placer reads of a process; tests/e2e/sweep-placement.spec.ts checks real pages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { allowedCpus, formatCpuList } from '../../../../src/cli/placement/cpu-sets.ts';
import { CorePlacement, placementPlan } from '../../../../src/cli/placement/placer.ts';

const cpusOf = (pid: number) => formatCpuList(allowedCpus(`/proc/${pid}/status`) ?? []);
const children: ChildProcess[] = [];
const child = (...words: string[]) => {
  const c = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', '--', ...words]);
  children.push(c);
  return c.pid as number;
};

afterEach(() => {
  for (const c of children.splice(0)) c.kill();
});

describe('placementPlan', () => {
  it('refuses browsers the sweep does not start, saying which', () => {
    expect(placementPlan('--manual: a browser someone opens')).toMatch(/--manual/);
  });

  it('splits the CPUs this process may use, or says why it cannot', () => {
    const plan = placementPlan(null);
    const mine = allowedCpus(`/proc/${process.pid}/status`) ?? [];
    if (mine.length < 2) expect(plan).toMatch(/one CPU/);
    else
      expect(plan).toMatchObject({ split: { page: expect.any(Array), rest: expect.any(Array) } });
  });
});

describe('CorePlacement', () => {
  const plan = placementPlan(null);
  const placer = () => {
    if (typeof plan === 'string') throw new Error(plan);
    return new CorePlacement(plan.split, plan.taskset, (line) => {
      throw new Error(line);
    });
  };

  it.runIf(typeof plan !== 'string')(
    "moves a page's process to the page's CPUs, and every other child and the sweep to the rest",
    async () => {
      const p = placer();
      const before = cpusOf(process.pid);
      const page = child('--type=renderer');
      const other = child('--type=utility');
      try {
        await p.placeNow();
        const { page: pageCpus, rest } = p.split;
        expect(cpusOf(page)).toBe(formatCpuList(pageCpus));
        expect(cpusOf(other)).toBe(formatCpuList(rest));
        expect(cpusOf(process.pid)).toBe(formatCpuList(rest));
        expect(p.record()).toMatchObject({ applied: true, pageProcesses: 1, otherProcesses: 1 });
      } finally {
        await p.stop();
      }
      expect(cpusOf(process.pid)).toBe(before);
    },
  );

  it.runIf(typeof plan !== 'string')(
    'places a process that starts after the first look at the next',
    async () => {
      const p = placer();
      try {
        await p.placeNow();
        const late = child('--type=renderer');
        await p.placeNow();
        expect(cpusOf(late)).toBe(formatCpuList(p.split.page));
      } finally {
        await p.stop();
      }
    },
  );

  it.runIf(typeof plan !== 'string')('counts each browser apart', async () => {
    const p = placer();
    try {
      child('--type=renderer');
      await p.placeNow();
      p.nextBrowser();
      for (const c of children.splice(0)) c.kill();
      await new Promise((ok) => setTimeout(ok, 100));
      await p.placeNow();
      expect(p.record()).toMatchObject({ applied: true, pageProcesses: 0 });
    } finally {
      await p.stop();
    }
  });
});
