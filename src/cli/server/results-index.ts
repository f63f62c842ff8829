/**
 * The results/ folder, for the page: a listing (`results/index.json`) and the files themselves.
 * The dev server answers from the folder as it is now; the build copies both into dist/results/,
 * which is all the sweep's server (src/cli/server/page-server.ts) serves. Node only.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import {
  describeForIndex,
  RESULTS_FILE_NAME,
  RESULTS_INDEX_SCHEMA,
  type ResultsIndex,
} from '../../core/results/input.ts';
import { ISOLATION_HEADERS } from './isolation.ts';

export const RESULTS_INDEX_NAME = 'index.json';
/** The published schema of results files (results-schema.ts), which sits beside them. */
export const RESULTS_SCHEMA_NAME = 'schema.json';

/**
 * A regular file, not a link: a link in a results folder may point outside it (its fields would be
 * printed as results), loop or dangle; none of them is a run this folder holds.
 */
function isPlainFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

/** The results files in `dir`: plain `*.json` names, not the index or the schema, not a sweep's partial files. */
export function listResultsFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return names
    .filter(
      (n) =>
        RESULTS_FILE_NAME.test(n) &&
        n !== RESULTS_INDEX_NAME &&
        n !== RESULTS_SCHEMA_NAME &&
        !n.endsWith('.partial.json') &&
        isPlainFile(join(dir, n)),
    )
    .sort();
}

/** Validates each file, so the page can list a bad one with its message instead of failing later. */
export function readResultsIndex(dir: string): ResultsIndex {
  return {
    schema: RESULTS_INDEX_SCHEMA,
    files: listResultsFiles(dir).map((name) => {
      const text = readFileSync(join(dir, name), 'utf8');
      return describeForIndex(name, Buffer.byteLength(text), text);
    }),
  };
}

/** Vite plugin: serve results/ in dev, and copy it with its index into the build. */
export function resultsFolder(dir: string): Plugin {
  return {
    name: 'storebench-results-folder',
    configureServer(server) {
      server.middlewares.use(
        '/results',
        (req: IncomingMessage, res: ServerResponse, next: () => void) => {
          if (req.method !== 'GET' && req.method !== 'HEAD') return next();
          const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
          // The page imports the schema as a module (core/results/results.ts): Vite serves it, not this listing.
          if (name === RESULTS_SCHEMA_NAME) return next();
          let body: string;
          if (name === RESULTS_INDEX_NAME)
            body = `${JSON.stringify(readResultsIndex(dir), null, 1)}\n`;
          else if (listResultsFiles(dir).includes(name))
            body = readFileSync(join(dir, name), 'utf8');
          else {
            // A plain 404, not the dev server's fallback page, which the explorer would report as "not JSON".
            const text = `not found in results/: ${name}\n`;
            res.writeHead(404, {
              ...ISOLATION_HEADERS,
              'Content-Type': 'text/plain; charset=utf-8',
              'Content-Length': String(Buffer.byteLength(text)),
            });
            res.end(req.method === 'HEAD' ? undefined : text);
            return;
          }
          res.writeHead(200, {
            ...ISOLATION_HEADERS,
            'Content-Type': 'application/json; charset=utf-8',
            'Cache-Control': 'no-store',
            'Content-Length': String(Buffer.byteLength(body)),
          });
          res.end(req.method === 'HEAD' ? undefined : body);
        },
      );
    },
    generateBundle() {
      const index = readResultsIndex(dir);
      for (const file of index.files)
        this.emitFile({
          type: 'asset',
          fileName: `results/${file.name}`,
          source: readFileSync(join(dir, file.name), 'utf8'),
        });
      this.emitFile({
        type: 'asset',
        fileName: `results/${RESULTS_INDEX_NAME}`,
        source: `${JSON.stringify(index, null, 1)}\n`,
      });
    },
  };
}
