import type { Doc } from '../../core/store/adapter.ts';
import { deleteDatabases, type PouchConstructor, type PouchDatabase } from './pouchdb-common.ts';

/** PouchDB 2.x as its CommonJS module exports it, as far as the shim calls it. */
interface OldDatabase extends Omit<PouchDatabase, 'bulkDocs' | 'find' | 'createIndex'> {
  bulkDocs(request: { docs: Doc[] }): ReturnType<PouchDatabase['bulkDocs']>;
}

export interface OldPouch {
  new (name: string, options: { adapter: string }): OldDatabase;
  destroy(name: string): Promise<unknown>;
  version?: string;
}

/**
 * PouchDB 2.x (2014: one `pouchdb` package, CommonJS for browserify, bundled here with Node's
 * shims) under the calls pouchdb-common.ts makes of PouchDB 9. Two calls differ: bulkDocs takes
 * `{ docs }` only, and an instance's destroy() deletes the database named by the instance's id
 * rather than its name (2.0.2), so the shim destroys by name and then the view databases
 * (`<name>-mrview-*`) that 2.x may leave. It has no pouchdb-find: find and createIndex refuse,
 * and the adapter does not declare them.
 */
export function legacyPouch(Old: OldPouch): PouchConstructor & { version?: string } {
  const refuse = (what: string) =>
    Promise.reject(
      new Error(
        `PouchDB ${Old.version ?? '2.x'} has no ${what} (no pouchdb-find was released with it)`,
      ),
    );
  return class LegacyDatabase implements PouchDatabase {
    static version = Old.version;
    private readonly db: OldDatabase;

    constructor(
      private readonly name: string,
      options: { adapter: string },
    ) {
      this.db = new Old(name, options);
    }

    put = (doc: Doc) => this.db.put(doc);
    get = (id: string) => this.db.get(id);
    bulkDocs = (docs: Doc[]) => this.db.bulkDocs({ docs });
    allDocs: PouchDatabase['allDocs'] = (options) => this.db.allDocs(options);
    remove: PouchDatabase['remove'] = (doc) => this.db.remove(doc);
    query: PouchDatabase['query'] = (view, options) => this.db.query(view, options);
    find = () => refuse('find');
    createIndex = () => refuse('createIndex');
    close = () => this.db.close();

    async destroy(): Promise<void> {
      await this.db.close();
      await Old.destroy(this.name);
      await deleteDatabases(this.name);
    }
  };
}
