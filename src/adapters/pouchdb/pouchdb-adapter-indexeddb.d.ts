// pouchdb-adapter-indexeddb ships no types; it is a PouchDB plugin like any other.
declare module 'pouchdb-adapter-indexeddb' {
  const plugin: PouchDB.Plugin;
  export default plugin;
}
