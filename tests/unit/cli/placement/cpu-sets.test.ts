import { describe, expect, it } from 'vitest';
import {
  allowedCpus,
  formatCpuList,
  parseCpuList,
  splitCpus,
} from '../../../../src/cli/placement/cpu-sets.ts';

describe('parseCpuList', () => {
  it('reads single CPUs and ranges as Linux writes them', () => {
    expect(parseCpuList('0-2,5')).toEqual([0, 1, 2, 5]);
    expect(parseCpuList('1')).toEqual([1]);
  });

  it('refuses text that is not a CPU list', () => {
    for (const bad of ['', 'a', '3-1', '1,,2', '0-99999'])
      expect(parseCpuList(bad), bad).toBeNull();
  });
});

describe('formatCpuList', () => {
  it('writes runs of neighbours as ranges, in order, once each', () => {
    expect(formatCpuList([5, 0, 1, 2, 2])).toBe('0-2,5');
  });

  it('reads back what parseCpuList wrote', () => {
    expect(formatCpuList(parseCpuList('0,2-4,7') ?? [])).toBe('0,2-4,7');
  });
});

describe('splitCpus', () => {
  it('gives the page the upper CPU of two and everything else the lower', () => {
    expect(splitCpus([0, 1])).toEqual({ page: [1], rest: [0] });
  });

  it('gives the page the upper half of more CPUs, the rest the lower half and any odd one', () => {
    expect(splitCpus([0, 1, 2, 3])).toEqual({ page: [2, 3], rest: [0, 1] });
    expect(splitCpus([0, 1, 2])).toEqual({ page: [2], rest: [0, 1] });
  });

  it('splits the CPUs the sweep may use, not 0 to n', () => {
    expect(splitCpus([4, 6, 8, 10])).toEqual({ page: [8, 10], rest: [4, 6] });
  });

  it('says why one CPU cannot be split', () => {
    expect(splitCpus([3])).toMatch(/one CPU only/);
  });
});

describe('allowedCpus', () => {
  it("reads this process's CPUs from /proc as the OS reports them", () => {
    const mine = allowedCpus(`/proc/${process.pid}/status`);
    expect(mine?.length).toBeGreaterThanOrEqual(1);
  });

  it('is null for a process that does not exist', () => {
    expect(allowedCpus('/proc/0/status')).toBeNull();
  });
});
