/**
 * A store's library, loaded once: the installed package, imported with its adapter, or a
 * variant's build of it (core/plan/variant.ts), imported when the page first asks whether the store is
 * supported, so the import stays out of every timed sample. A failed load is tried again.
 */
export class Library<T> {
  private loading: Promise<T> | undefined;

  private constructor(private readonly load: () => Promise<T>) {}

  /** The installed package, already imported. */
  static of<T>(module: T): Library<T> {
    const lib = new Library(() => Promise.resolve(module));
    lib.loading = Promise.resolve(module);
    return lib;
  }

  /** A build loaded on first use. */
  static lazy<T>(load: () => Promise<T>): Library<T> {
    return new Library(load);
  }

  get(): Promise<T> {
    return (this.loading ??= this.load().catch((e: unknown) => {
      this.loading = undefined;
      throw e;
    }));
  }
}
