/**
 * How a child Node process runs storebench's TypeScript: with tsx's loader, named by its path, so
 * that it is found from wherever storebench is installed (a store's node_modules), not from the
 * working directory.
 */
export function tsxImport(): string[] {
  return ['--import', import.meta.resolve('tsx')];
}
