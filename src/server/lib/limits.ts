import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes, RateLimiterSQLite, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config';
import type { Logger } from './log';
import type { Metrics } from './metrics';
import { ipKey } from './address';
import { throttled } from './app-error';
import type { ErrorKey } from '../../shared/errors';

// Throttles (rate-limiter-flexible), per address and per account, on the anonymous doors: login, register,
// verification codes, reset; and per address and minute on the public API (public_ip). On SQLite the counters live in their own file (DATA_DIR/limits.db): they
// survive a restart and are shared by every process on the data directory, and a counter's write never
// joins a money transaction of the main database's connection. On PostgreSQL they live in the table
// rate_limits of the same database, through their own small pool, so limits hold across instances. A refusal is HTTP 429 with Retry-After
// and the catalogue message; each one is logged as "throttled <limit> <key>" for the operator.

export type LimitName =
  | 'login_ip'
  | 'login_account'
  | 'code_ip'
  | 'code_account'
  | 'register_ip'
  | 'reset_ip'
  | 'reset_account'
  | 'password_change_account'
  | 'avatar_account'
  | 'org_invite_account'
  | 'webhook_send_account'
  | 'public_ip';

const HOUR_S = 3600;
const MINUTE_S = 60;

/** The limit, its config key (README, docs/operations.md), the message of its refusal and its window in
 *  seconds (an hour unless said). */
export function limitTable(config: Config): Record<LimitName, { points: number; configKey: keyof Config; message: ErrorKey; duration?: number }> {
  return {
    login_ip: { points: config.LOGINS_PER_IP_PER_HOUR, configKey: 'LOGINS_PER_IP_PER_HOUR', message: 'too_many_requests' },
    login_account: { points: config.LOGINS_PER_ACCOUNT_PER_HOUR, configKey: 'LOGINS_PER_ACCOUNT_PER_HOUR', message: 'too_many_requests' },
    code_ip: { points: config.CODES_PER_IP_PER_HOUR, configKey: 'CODES_PER_IP_PER_HOUR', message: 'bulk_registration' },
    code_account: { points: config.CODES_PER_ACCOUNT_PER_HOUR, configKey: 'CODES_PER_ACCOUNT_PER_HOUR', message: 'too_many_requests' },
    register_ip: { points: config.REGISTRATIONS_PER_IP_PER_HOUR, configKey: 'REGISTRATIONS_PER_IP_PER_HOUR', message: 'bulk_registration' },
    reset_ip: { points: config.RESETS_PER_IP_PER_HOUR, configKey: 'RESETS_PER_IP_PER_HOUR', message: 'too_many_requests' },
    reset_account: { points: config.RESETS_PER_ACCOUNT_PER_HOUR, configKey: 'RESETS_PER_ACCOUNT_PER_HOUR', message: 'too_many_requests' },
    password_change_account: { points: config.PASSWORD_CHANGES_PER_ACCOUNT_PER_HOUR, configKey: 'PASSWORD_CHANGES_PER_ACCOUNT_PER_HOUR', message: 'too_many_requests' },
    avatar_account: { points: config.AVATAR_UPLOADS_PER_ACCOUNT_PER_HOUR, configKey: 'AVATAR_UPLOADS_PER_ACCOUNT_PER_HOUR', message: 'too_many_requests' },
    org_invite_account: { points: config.ORG_INVITES_PER_ACCOUNT_PER_HOUR, configKey: 'ORG_INVITES_PER_ACCOUNT_PER_HOUR', message: 'too_many_requests' },
    webhook_send_account: { points: config.WEBHOOK_MANUAL_SENDS_PER_HOUR, configKey: 'WEBHOOK_MANUAL_SENDS_PER_HOUR', message: 'too_many_requests' },
    public_ip: { points: config.PUBLIC_REQUESTS_PER_IP_PER_MINUTE, configKey: 'PUBLIC_REQUESTS_PER_IP_PER_MINUTE', message: 'too_many_requests', duration: MINUTE_S },
  };
}

export interface Limits {
  /** Takes `points` (one unless said) of each named limit for its key, or throws the throttle refusal
   *  (nothing taken from the others). */
  consume(checks: Array<[LimitName, string]>, points?: number): Promise<void>;
  /** Gives the points back (a successful login does not count against the failure budget). */
  reward(checks: Array<[LimitName, string]>): Promise<void>;
  close(): Promise<void>;
}

export const LIMITS_TABLE = 'rate_limits';

export function limitsFile(config: Pick<Config, 'DATA_DIR'>): string {
  return path.resolve(config.DATA_DIR, 'limits.db');
}

type LimitTable = ReturnType<typeof limitTable>;

/** The limiters of every named limit over their store, and how to close that store. */
interface LimitStore {
  limiters: Map<LimitName, RateLimiterAbstract>;
  close: () => Promise<void>;
}

/** PostgreSQL: the table rate_limits of the same database, through a small pool of its own, so limits hold
 *  across instances. */
async function postgresLimiters(config: Config, databaseUrl: string, table: LimitTable): Promise<LimitStore> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4, connectionTimeoutMillis: config.DB_CONNECT_TIMEOUT_MS });
  pool.on('error', () => undefined);
  // Created here (not by the library in the background), so the first request finds it.
  await pool.query(`create table if not exists ${LIMITS_TABLE} (key varchar(255) primary key, points integer not null default 0, expire bigint)`).catch((err: { code?: string }) => {
    if (err.code !== '23505') throw err; // another instance created it at the same moment
  });
  const limiters = new Map<LimitName, RateLimiterAbstract>();
  for (const [name, spec] of Object.entries(table) as Array<[LimitName, LimitTable[LimitName]]>) {
    limiters.set(name, new RateLimiterPostgres({ storeClient: pool, storeType: 'pool', tableName: LIMITS_TABLE, tableCreated: true, keyPrefix: name, points: spec.points, duration: spec.duration ?? HOUR_S, clearExpiredByTimeout: true }));
  }
  return { limiters, close: () => pool.end() };
}

/** SQLite: their own file (DATA_DIR/limits.db), never the main database's connection. */
function sqliteLimiters(config: Config, table: LimitTable): LimitStore {
  const sqlite = new SQLite(limitsFile(config));
  sqlite.pragma('journal_mode = WAL');
  // Counters, not money: a crash may lose the last moments of them, never corrupt them (WAL).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 2000');
  const limiters = new Map<LimitName, RateLimiterAbstract>();
  for (const [name, spec] of Object.entries(table) as Array<[LimitName, LimitTable[LimitName]]>) {
    limiters.set(
      name,
      new RateLimiterSQLite({ storeClient: sqlite, storeType: 'better-sqlite3', tableName: LIMITS_TABLE, keyPrefix: name, points: spec.points, duration: spec.duration ?? HOUR_S, clearExpiredByTimeout: true }),
    );
  }
  const close = () => {
    sqlite.close();
    return Promise.resolve();
  };
  return { limiters, close };
}

/** Accounts by their trimmed lower-case email; addresses by ipKey (an IPv6 /64 is one address). */
const normalise = (name: LimitName, key: string) => (name.endsWith('_ip') ? ipKey(key) : key.trim().toLowerCase()).slice(0, 200); // the store's key column holds 255

/** `metrics`: each refusal counts in canopy_throttle_refusals_total{limiter=<LimitName>}. */
export async function createLimits(config: Config, log: Logger, metrics?: Pick<Metrics, 'throttleRefusals'>): Promise<Limits> {
  const table = limitTable(config);
  const { limiters, close } = config.DATABASE_URL ? await postgresLimiters(config, config.DATABASE_URL, table) : sqliteLimiters(config, table);
  const giveBack = (name: LimitName, key: string, points = 1) => limiters.get(name)!.reward(normalise(name, key), points).catch(() => undefined);

  /** A refused point: it does not count, nor do the ones `taken` before it in this call; logged, counted. */
  async function refuse(name: LimitName, key: string, taken: Array<[LimitName, string]>, res: RateLimiterRes, points: number): Promise<never> {
    await giveBack(name, key, points);
    for (const [n, k] of taken) await giveBack(n, k, points);
    metrics?.throttleRefusals.inc({ limiter: name });
    log.info(`throttled ${name} ${JSON.stringify(normalise(name, key))}: over ${table[name].points}/${table[name].duration === MINUTE_S ? 'minute' : 'hour'} (${String(table[name].configKey)}), retry in ${Math.ceil(res.msBeforeNext / 1000)} s`);
    throw throttled(res.msBeforeNext, table[name].message);
  }

  return {
    async consume(checks, points = 1) {
      const taken: Array<[LimitName, string]> = [];
      for (const [name, key] of checks) {
        try {
          await limiters.get(name)!.consume(normalise(name, key), points);
          taken.push([name, key]);
        } catch (err) {
          if (!(err instanceof RateLimiterRes)) throw err;
          await refuse(name, key, taken, err, points);
        }
      }
    },
    async reward(checks) {
      for (const [name, key] of checks) await giveBack(name, key);
    },
    async close() {
      // The limiters' hourly clean-up timers (unref'd) must not run against a closed store.
      for (const l of limiters.values()) clearTimeout((l as unknown as { _clearExpiredTimeoutId?: NodeJS.Timeout })._clearExpiredTimeoutId);
      await close();
    },
  };
}
