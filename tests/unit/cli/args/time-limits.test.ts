// The time limits the environment may set (src/cli/args/time-limits.ts).
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../src/cli/args/config-file.ts';
import { inSeconds, TIME_LIMITS, timeLimitMs } from '../../../../src/cli/args/time-limits.ts';

describe('time limits', () => {
  it('are their defaults when unset or empty', () => {
    expect(timeLimitMs('STOREBENCH_IMPORT_TIMEOUT_MS', {})).toBe(30_000);
    expect(timeLimitMs('STOREBENCH_REMOTE_TIMEOUT_MS', { STOREBENCH_REMOTE_TIMEOUT_MS: '' })).toBe(
      TIME_LIMITS.STOREBENCH_REMOTE_TIMEOUT_MS,
    );
  });

  it('take a whole number of milliseconds from 1 to an hour', () => {
    const env = { STOREBENCH_IMPORT_TIMEOUT_MS: '1' };
    expect(timeLimitMs('STOREBENCH_IMPORT_TIMEOUT_MS', env)).toBe(1);
    env.STOREBENCH_IMPORT_TIMEOUT_MS = '3600000';
    expect(timeLimitMs('STOREBENCH_IMPORT_TIMEOUT_MS', env)).toBe(3_600_000);
  });

  it.each(['0', '3600001', '1.5', '-5', ' 100', '1e3', '10s', 'x'.repeat(300)])(
    'refuse %j as a config error naming the variable and what it takes',
    (value) => {
      const read = () =>
        timeLimitMs('STOREBENCH_REMOTE_TIMEOUT_MS', { STOREBENCH_REMOTE_TIMEOUT_MS: value });
      expect(read).toThrow(ConfigError);
      expect(read).toThrow(
        /^STOREBENCH_REMOTE_TIMEOUT_MS=".*: give a whole number of milliseconds from 1 to 3600000, or leave it unset for 10000$/,
      );
    },
  );

  it('read in seconds in a message', () => {
    expect(inSeconds(30_000)).toBe('30 s');
    expect(inSeconds(1500)).toBe('1.5 s');
  });
});
