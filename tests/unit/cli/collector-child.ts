/**
 * The sweep's collector in a process of its own, so a test can post to it and read that process's
 * peak memory: prints `port N` once it listens, one line of JSON per message it refused, and
 * closes when its standard input ends. Argument: the run token. Not a test file itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../../src/cli/server/page-server.ts';

const root = mkdtempSync(join(tmpdir(), 'storebench-collector-'));
const server = await startServer({
  root,
  collector: {
    token: process.argv[2] ?? '',
    onMessage: (m) => void process.stdout.write(`${JSON.stringify({ accepted: m.type })}\n`),
    onRejected: (r) => void process.stdout.write(`${JSON.stringify(r)}\n`),
  },
});
process.stdout.write(`port ${server.port}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void server.close().then(() => {
    rmSync(root, { recursive: true, force: true });
    process.exit(0);
  });
});
