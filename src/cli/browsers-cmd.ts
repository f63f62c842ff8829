/**
 * `npm run browsers`: the browsers this machine has, how the sweep will drive each, and for
 * each one missing, why and how to get it. The same discovery the sweep uses.
 */
import { findBrowsers } from './browsers.ts';

const candidates = findBrowsers();
for (const b of candidates) {
  if (b.found) process.stdout.write(`${b.id.padEnd(9)} found: ${b.label} ${b.version}; ${b.how}\n`);
  else process.stdout.write(`${b.id.padEnd(9)} not found: ${b.why}\n`);
}
const found = candidates.filter((b) => b.found).map((b) => b.id);
process.stdout.write(found.length > 0 ? `\nnpm run sweep runs ${found.join(', ')} unless --browsers says otherwise.\n` : '\nNo browser found; npm run sweep cannot run.\n');
process.exitCode = found.length > 0 ? 0 : 1;
