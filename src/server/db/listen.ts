import pg from 'pg';
import type { Logger } from '../lib/log';

/** A PostgreSQL LISTEN that stays on: `close()` ends it for good. */
export interface Listener {
  close(): Promise<void>;
}

const MAX_RETRY_MS = 5000;

/**
 * LISTENs on `channel` over a connection of its own (a pooled connection cannot hold a LISTEN: it returns
 * to the pool) and calls `onNotify` for every NOTIFY on it. A lost connection is made again, 100 ms after
 * the first failure and up to MAX_RETRY_MS apart; `onNotify` is also called once each time the LISTEN is
 * in place, since whatever committed while nobody listened raised no notification here.
 */
export function listen(connectionString: string, channel: string, onNotify: () => void, log: Logger): Listener {
  let current: pg.Client | null = null;
  let closing = false;

  function retry(attempt: number) {
    if (!closing) setTimeout(() => void connect(attempt + 1), Math.min(MAX_RETRY_MS, 100 * 2 ** attempt)).unref();
  }

  async function connect(attempt: number): Promise<void> {
    if (closing) return;
    const client = new pg.Client({ connectionString });
    client.on('notification', onNotify);
    client.on('error', () => {
      if (current === client) current = null;
      client.end().catch(() => undefined);
      retry(attempt);
    });
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
      current = client;
      onNotify();
    } catch (err) {
      log.error(`LISTEN ${channel} failed; retrying`, err);
      client.end().catch(() => undefined);
      retry(attempt);
    }
  }

  const first = connect(0);
  return {
    async close() {
      closing = true;
      await first;
      await current?.end().catch(() => undefined);
      current = null;
    },
  };
}
