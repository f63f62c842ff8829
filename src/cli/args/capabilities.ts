/**
 * `--capabilities JSON`: what to ask a WebDriver endpoint for on top of the sweep's defaults
 * (drivers/remote.ts merges it over them). Checked here, before anything starts: a JSON object,
 * the W3C fields the sweep relies on of the type W3C gives them, each fault named by its JSON path.
 */
import { ArgsError } from './flags.ts';
import { jsonDepth, jsonWhere } from '../../core/base/json-where.ts';

/** Capabilities are a few levels deep; far more is a mistake or an attack on the stack. */
const MAX_CAPABILITIES_DEPTH = 32;

export const CAPABILITIES_EXAMPLE = `'{"browserName":"chrome","goog:chromeOptions":{"binary":"/usr/bin/chromium"}}'`;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `$.browserName`, `$["goog:chromeOptions"].args[1]`: a JSON path a reader can paste. */
function step(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

const fault = (path: string, v: unknown, allowed: string) =>
  new ArgsError(`--capabilities: ${path} is ${kindOf(v)}; allowed: ${allowed}`);

/** A browser's options object (goog:chromeOptions and its kin): binary a string, args strings. */
function checkOptions(path: string, options: unknown): void {
  if (options === null) return;
  if (!isObj(options))
    throw fault(
      path,
      options,
      'an object of the browser\'s options, e.g. {"args":["--headless=new"]}, or null to drop the default',
    );
  const { binary, args } = options;
  if (binary !== undefined && binary !== null && typeof binary !== 'string')
    throw fault(step(path, 'binary'), binary, "a string: the browser's path on the node");
  if (args === undefined || args === null) return;
  if (!Array.isArray(args))
    throw fault(
      step(path, 'args'),
      args,
      'an array of strings (it replaces the default arguments)',
    );
  args.forEach((a, i) => {
    if (typeof a !== 'string') throw fault(step(step(path, 'args'), i), a, 'a string');
  });
}

/** Parse and check `--capabilities`. Throws ArgsError naming the JSON path at fault. */
export function parseCapabilities(text: string): Obj {
  // Counted on the text: a 20,000-deep object overflowed the stack of the checks after parsing.
  if (jsonDepth(text) > MAX_CAPABILITIES_DEPTH)
    throw new ArgsError(
      `--capabilities: nested deeper than ${MAX_CAPABILITIES_DEPTH} levels; give a JSON object of W3C capabilities, e.g. ${CAPABILITIES_EXAMPLE}`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    throw new ArgsError(
      `--capabilities: not JSON ${jsonWhere(e, text)}; give a JSON object, e.g. ${CAPABILITIES_EXAMPLE}`,
    );
  }
  if (!isObj(value))
    throw fault('$', value, `a JSON object of W3C capabilities, e.g. ${CAPABILITIES_EXAMPLE}`);
  for (const wrapper of ['capabilities', 'alwaysMatch', 'firstMatch', 'desiredCapabilities'])
    if (wrapper in value)
      throw new ArgsError(
        `--capabilities: ${step('$', wrapper)}: give the capabilities themselves, not a new-session request; the sweep puts them in alwaysMatch. E.g. ${CAPABILITIES_EXAMPLE}`,
      );
  if (value.browserName !== undefined && typeof value.browserName !== 'string')
    throw fault(
      '$.browserName',
      value.browserName,
      'a string, e.g. "chrome" (it replaces the name --browsers gives)',
    );
  for (const key of ['browserVersion', 'platformName'])
    if (value[key] !== undefined && value[key] !== null && typeof value[key] !== 'string')
      throw fault(step('$', key), value[key], 'a string, or null to drop it');
  for (const [key, options] of Object.entries(value))
    if (/^[^:]+:\w*Options$/.test(key)) checkOptions(step('$', key), options);
  return value;
}
