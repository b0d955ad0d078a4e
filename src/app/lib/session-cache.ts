import type { CanopyDb } from './db';
import { reportDbError } from './db-health';
import { loadStore } from './store';
import { getSession, subscribeSession } from './storage';

// Another user's data must not stay in the cache after a sign-out or a new sign-in: whenever the signed-in
// member changes (log out, session ended by the server, another account logs in), every user table is wiped.
// Only a guest's own footprints (computed before signing in) pass to the member who signs in on this device.
// The wipe loads the store at once if it has not loaded yet (lib/store.ts).

/** Watches the session; returns the unsubscribe. `onChange` runs after each change of member (e.g. the socket). */
export function wipeOnMemberChange(database?: CanopyDb, onChange?: () => void): () => void {
  let lastMem = getSession().login.mem_id;
  return subscribeSession(() => {
    const mem = getSession().login.mem_id;
    if (mem !== lastMem) {
      const fromGuest = lastMem <= 0;
      lastMem = mem;
      void loadStore()
        .then((m) => m.clearPrivateCache(database ?? m.db, { adoptGuestFootprintsAs: fromGuest && mem > 0 ? mem : 0 }))
        .catch((err: unknown) => {
          if (!reportDbError(err)) throw err;
        });
    }
    onChange?.();
  });
}
