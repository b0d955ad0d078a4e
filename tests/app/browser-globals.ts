// The browser globals the app's modules read when they load (localStorage, navigator.onLine,
// document.documentElement.lang), for client tests that run in Node. Import it FIRST in a test file
// (`import './browser-globals';`): ES modules run in import order, so it is in place before the app's
// modules load. IndexedDB comes from fake-indexeddb where a test needs it.

function memoryStorage(): Storage {
  const store = new Map<string, string>();
  return {
    getItem: (k: string) => (store.has(k) ? store.get(k)! : null),
    setItem: (k: string, v: string) => void store.set(k, String(v)),
    removeItem: (k: string) => void store.delete(k),
    clear: () => store.clear(),
    key: (i: number) => [...store.keys()][i] ?? null,
    get length() {
      return store.size;
    },
  };
}

/** The localStorage every app module in this test file sees. */
export const storage = memoryStorage();
Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
Object.defineProperty(globalThis, 'navigator', { value: { onLine: true }, configurable: true, writable: true });
Object.defineProperty(globalThis, 'document', { value: { documentElement: { lang: 'en' } }, configurable: true, writable: true });
