/**
 * Reads that cost the database much and depend only on what their key names, kept outside the
 * process so that the next process finds them instead of reading again (the catalog's goods:
 * docs/design/architecture.md#the-catalogs-read-is-saved). The key names the data's identity; a
 * save under a key of the same `kind` replaces the one before it, which no key reaches any more.
 * The store lives outside the domain (`storage/saved-read-files.ts`); without one, every process
 * reads for itself.
 */
export interface SavedReads {
  /** What was saved under `kind` and `key`, or undefined when nothing (readable) was. */
  load(kind: string, key: string): Promise<unknown>;
  /** Saves `value` (plain data: objects, arrays, maps, strings, numbers) under `kind` and `key`. */
  save(kind: string, key: string, value: unknown): Promise<void>;
}
