import type { Config } from '../config';
import { checkPassword, hashPassword, type Argon2Params } from './crypto';
import { AppError, throttled } from './http';

// Password hashing is the one expensive thing a request can ask for, so it runs in bounded lanes:
// - "anon": login, register and reset (anyone on the internet can ask for these);
// - "user": the payment and login-password checks of signed-in users.
// Each lane runs at most its configured number of hashes at once and queues the rest; anonymous floods
// fill only their own lane, so a buyer's payment check never waits behind them. Within a lane one client
// (a signed-in user, or an address for anonymous work) has at most HASH_JOBS_PER_CLIENT jobs running or
// queued, so one account or one address cannot starve the others. A job that would not
// start within HASH_MAX_WAIT_MS is refused with the throttle message (HTTP 429, Retry-After) instead of
// hanging; a queue far too long to drain in that time (from the lane's recent hash times) is refused at once.

export type HashLane = 'anon' | 'user';

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
}

const QUEUE_CAP = 10_000;

class Lane {
  private active = 0;
  private readonly queue: Waiter[] = [];
  private avgMs = 50;
  /** Jobs running or queued per owner (a user, or an address): one client cannot fill the lane. */
  private readonly perOwner = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly maxWaitMs: number,
    private readonly maxPerOwner: number,
  ) {}

  /** `precheck`: the request's cheap checks, free of side effects; run when the job gets its slot (and
   *  when it runs out of time waiting). */
  async run<T>(fn: () => Promise<T>, precheck?: () => Promise<void> | void, owner?: string): Promise<T> {
    if (owner !== undefined) {
      const mine = this.perOwner.get(owner) ?? 0;
      if (mine >= this.maxPerOwner) throw throttled(this.avgMs * (mine + 1));
      this.perOwner.set(owner, mine + 1);
    }
    try {
      return await this.runQueued(fn, precheck);
    } finally {
      if (owner !== undefined) {
        const left = (this.perOwner.get(owner) ?? 1) - 1;
        if (left > 0) this.perOwner.set(owner, left);
        else this.perOwner.delete(owner);
      }
    }
  }

  private async runQueued<T>(fn: () => Promise<T>, precheck?: () => Promise<void> | void): Promise<T> {
    if (this.active >= this.max) {
      // Only a queue that could not drain in time even if every job in it hashed is refused up front;
      // queued jobs often end in milliseconds (sold out meanwhile), so the timer below is the real bound.
      const expectedWait = ((this.queue.length + 1) / this.max) * this.avgMs;
      if (expectedWait > 4 * this.maxWaitMs || this.queue.length >= QUEUE_CAP) throw throttled(expectedWait);
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          start: () => {
            clearTimeout(waiter.timer);
            resolve();
          },
          timer: setTimeout(() => {
            const i = this.queue.indexOf(waiter);
            if (i >= 0) this.queue.splice(i, 1);
            const busy = throttled(this.avgMs * (this.queue.length + 1));
            // Out of time: if the request's own cheap checks refuse it by now (sold out meanwhile), that
            // is the better answer; otherwise "too many requests".
            Promise.resolve()
              .then(() => precheck?.())
              .then(
                () => reject(busy),
                (err: unknown) => reject(err instanceof AppError ? err : busy),
              );
          }, this.maxWaitMs),
        };
        this.queue.push(waiter);
      });
    } else {
      this.active++;
    }
    const t0 = performance.now();
    try {
      // What the caller checks once the slot is theirs (sold out meanwhile? locked meanwhile?).
      await precheck?.();
      return await fn();
    } finally {
      this.avgMs = this.avgMs * 0.8 + (performance.now() - t0) * 0.2;
      const next = this.queue.shift();
      if (next) next.start();
      else this.active--;
    }
  }
}

interface Work {
  anon: Lane;
  user: Lane;
  params: Argon2Params;
}

const byConfig = new WeakMap<Config, Work>();

function workFor(config: Config): Work {
  let work = byConfig.get(config);
  if (!work) {
    work = {
      anon: new Lane(config.HASH_CONCURRENCY_ANON, config.HASH_MAX_WAIT_MS, config.HASH_JOBS_PER_CLIENT),
      user: new Lane(config.HASH_CONCURRENCY_USER, config.HASH_MAX_WAIT_MS, config.HASH_JOBS_PER_CLIENT),
      params: { memoryKiB: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST, parallelism: config.ARGON2_PARALLELISM },
    };
    byConfig.set(config, work);
  }
  return work;
}

export function argon2Params(config: Config): Argon2Params {
  return workFor(config).params;
}

/** A new argon2id hash of `password`, in `lane`, counted for `owner` (user or address). */
export function hashIn(config: Config, lane: HashLane, password: string, owner?: string): Promise<string> {
  const work = workFor(config);
  return work[lane].run(() => hashPassword(password, work.params), undefined, owner);
}

/** Checks `password` against `stored` (or what `stored()` gives once `reserve` has run) in `lane`.
 *  `precheck` (the request's cheap checks, no side effects) runs when the lane has a slot, and again if
 *  the job runs out of time waiting (its refusal is then the answer); `reserve` runs in the slot right
 *  before the hash (it may write: an attempt is taken there). A right password whose hash is of an older
 *  kind comes back with its new hash (`upgraded`) to store. */
export function checkIn(
  config: Config,
  lane: HashLane,
  password: string,
  stored: string | (() => string),
  opts: { precheck?: () => Promise<void> | void; reserve?: () => Promise<void>; owner?: string } = {},
): Promise<{ ok: boolean; upgraded: string | null }> {
  const work = workFor(config);
  return work[lane].run(
    async () => {
      await opts.reserve?.();
      const result = await checkPassword(password, typeof stored === 'function' ? stored() : stored, work.params);
      // An old-format hash is replaced in the same slot: the upgrade never queues (nor fails) on its own.
      const upgraded = result.ok && result.rehash ? await hashPassword(password, work.params) : null;
      return { ok: result.ok, upgraded };
    },
    opts.precheck,
    opts.owner,
  );
}
