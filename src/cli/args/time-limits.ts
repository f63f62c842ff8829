/**
 * The product's time limits that the environment may set (docs/flags.md, "Time limits"): a machine
 * slower than their defaults assume can raise one, and a test that checks what happens past a
 * limit sets it low instead of waiting out the default. Each limit is read where it applies.
 */
import { quoted } from '../../core/base/shown.ts';
import { ConfigError } from './config-file.ts';

/** Each limit's environment variable and its default, in milliseconds. */
export const TIME_LIMITS = {
  /** How long the config's adapter modules may take to import, once the registries have. */
  STOREBENCH_IMPORT_TIMEOUT_MS: 30_000,
  /** How long an http(s) --remote may take to answer before the page is built. */
  STOREBENCH_REMOTE_TIMEOUT_MS: 10_000,
} as const;

export type TimeLimit = keyof typeof TIME_LIMITS;

/** An hour: past it a limit no longer bounds anything a person would wait for. */
const MAX_LIMIT_MS = 3_600_000;

/**
 * The limit the environment sets, or its default. A value that is not a whole number of
 * milliseconds from 1 to an hour is refused as a config error is (exit 2), not ignored.
 */
export function timeLimitMs(name: TimeLimit, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return TIME_LIMITS[name];
  const ms = /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
  if (ms >= 1 && ms <= MAX_LIMIT_MS) return ms;
  throw new ConfigError(
    `${name}=${quoted(raw)}: give a whole number of milliseconds from 1 to ${MAX_LIMIT_MS}, or leave it unset for ${TIME_LIMITS[name]}`,
  );
}

/** A limit as a message says it: "30 s", "1.5 s". */
export const inSeconds = (ms: number): string => `${ms / 1000} s`;
