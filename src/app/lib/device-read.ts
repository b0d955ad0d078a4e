// Reads of the offline store (the IndexedDB database lib/db.ts keeps with Dexie) without Dexie's code, for
// what home's first screen draws before the store loads (lib/store.ts). Read only, by the stores and
// indexes Dexie made (a table is an object store, an index is named by its key path); a database that does
// not exist yet is left for Dexie to create, and the connection closes as soon as the read is done, so it
// never holds up the store's upgrade to a new schema version.

/** The database's name (lib/db.ts CanopyDb's default). */
export const STORE_NAME = 'canopy';

/** The answer of one request. */
export const answer = <T>(request: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });

/** The database as it is on this device, or null when there is none (nothing kept yet). */
function openExisting(name: string): Promise<IDBDatabase | null> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') return resolve(null);
    const request = indexedDB.open(name);
    let absent = false;
    // No version asked: an upgrade means the database did not exist. Aborted, it is not created.
    request.onupgradeneeded = () => {
      absent = true;
      request.transaction?.abort();
    };
    request.onsuccess = () => {
      const database = request.result;
      database.onversionchange = () => database.close();
      resolve(database);
    };
    request.onerror = (event) => {
      event.preventDefault();
      if (absent) resolve(null);
      else reject(request.error ?? new Error('IndexedDB open failed'));
    };
  });
}

/**
 * Reads `stores` in one read-only transaction; undefined when the device keeps nothing yet or the read
 * fails (the screen then draws what it draws without the device's data, as a failed early read does).
 */
export async function readDevice<T>(stores: string[], read: (tx: IDBTransaction) => Promise<T>, name = STORE_NAME): Promise<T | undefined> {
  let database: IDBDatabase | null = null;
  try {
    database = await openExisting(name);
    if (!database) return undefined;
    return await read(database.transaction(stores, 'readonly'));
  } catch {
    return undefined;
  } finally {
    database?.close();
  }
}

/** Up to `limit` rows of `index` from the highest key down (Dexie's orderBy(index).reverse().limit(n)). */
export function newestRows<T>(index: IDBIndex | IDBObjectStore, limit: number, range: IDBKeyRange | null = null): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const rows: T[] = [];
    const request = index.openCursor(range, 'prev');
    request.onsuccess = () => {
      const cursor = request.result;
      if (!cursor || rows.length >= limit) return resolve(rows);
      rows.push(cursor.value as T);
      cursor.continue();
    };
    request.onerror = () => reject(request.error ?? new Error('IndexedDB cursor failed'));
  });
}
