// PouchDB 7.3.1 under npm aliases (package.json): the same API as the current packages' types.
declare module 'pouchdb-browser-7' {
  import PouchDB from 'pouchdb-browser';
  export default PouchDB;
}
declare module 'pouchdb-find-7' {
  const plugin: PouchDB.Plugin;
  export default plugin;
}
