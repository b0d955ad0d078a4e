import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { listen } from '../db/listen';
import type { Logger } from '../lib/log';
import { LIVE_CHANNEL, liveBus } from './events';

// What tells the event feed (live/feed.ts) to read: this process's writes signal at once (liveBus); on
// PostgreSQL every instance's and the CLI's commits arrive by LISTEN; on SQLite another process's commit
// (the operator CLI) changes the database's WAL file, which a watch on its directory sees. The poll
// (LIVE_POLL_MS) only catches what no signal announced (a LISTEN connection being made again, a file
// system without change events).

/** After a change to the SQLite database's WAL file by any process, the new rows are read at once, then again
 *  this long after, and every this long while changes go on (at most one read per period for a burst; a
 *  commit's frames are written, and seen here, a moment before the commit is visible to a reader: every
 *  change is followed by a read at least this long after it). */
const FILE_SIGNAL_MS = 5;

export interface WakeUps {
  close(): Promise<void>;
}

interface Stoppable {
  stop(): void;
}

/** Watches the SQLite database's WAL file for other processes' commits; null where it cannot. */
function watchWal(dbFile: string, signal: () => void, log: Logger): Stoppable | null {
  const walName = `${path.basename(dbFile)}-wal`;
  let pending: NodeJS.Timeout | null = null;
  let again = false;
  function arm() {
    pending = setTimeout(() => {
      signal();
      if (again) {
        again = false;
        arm();
      } else pending = null;
    }, FILE_SIGNAL_MS);
  }
  try {
    const watch = fs.watch(path.dirname(dbFile), { persistent: false }, (_event, name) => {
      if (name !== walName) return;
      if (pending) {
        again = true;
        return;
      }
      signal();
      arm();
    });
    watch.on('error', () => watch.close());
    return {
      stop() {
        watch.close();
        if (pending) clearTimeout(pending);
      },
    };
  } catch (err) {
    log.info("live hub: no file watch on the database directory; other processes' events arrive by the poll", err);
    return null;
  }
}

/** Runs `poll` every `ms`, counted from the end of the previous run. */
function startPoll(ms: number, poll: () => Promise<void>): Stoppable {
  let timer: NodeJS.Timeout | null = null;
  function schedule() {
    timer = setTimeout(() => {
      void poll().finally(() => {
        if (timer) schedule();
      });
    }, ms);
    timer.unref();
  }
  schedule();
  return {
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/** Starts every source: `signal` on a push, `poll` on the fallback timer (neither throws). */
export function startWakeUps(deps: { config: Config; log: Logger }, feed: { signal: () => void; poll: () => Promise<void> }): WakeUps {
  const { config, log } = deps;
  liveBus.on('published', feed.signal);
  const wal = config.DATABASE_URL ? null : watchWal(config.DB_FILE, feed.signal, log);
  const listener = config.DATABASE_URL ? listen(config.DATABASE_URL, LIVE_CHANNEL, feed.signal, log) : null;
  const poll = startPoll(config.LIVE_POLL_MS, feed.poll);
  return {
    async close() {
      liveBus.off('published', feed.signal);
      await listener?.close();
      wal?.stop();
      poll.stop();
    },
  };
}
