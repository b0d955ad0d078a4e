import type { Config } from '../config';
import { checkPassword, hashPassword, type Argon2Params } from './crypto';
import { AppError, throttled } from './app-error';

// Password hashing is the one expensive thing a request can ask for, so it runs in bounded lanes:
// - "anon": login, register and reset (anyone on the internet can ask for these);
// - "user": the payment and login-password checks of signed-in users.
// Each lane runs at most its configured number of hashes at once and queues the rest; anonymous floods
// fill only their own lane, so a buyer's payment check never waits behind them. Within a lane one client
// (a signed-in user, or an address for anonymous work) has at most HASH_JOBS_PER_CLIENT jobs running or
// queued, so one account or one address cannot starve the others. A job that would not
// start within HASH_MAX_WAIT_MS is refused with the throttle message (HTTP 429, Retry-After) instead of
// hanging: at once when the queue ahead (from the lane's recent hash times) is longer than that, and by a
// timer at three times that as a safety net.

export type HashLane = 'anon' | 'user';

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
}

const QUEUE_CAP = 10_000;

class Lane {
  private active = 0;
  private readonly queue: Waiter[] = [];
  /** Recent time of one hash (the work itself, not the wait for a slot or the checks around it). */
  private avgMs = 25;
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

  /** The duration of one hash, for the wait estimate. */
  note(ms: number): void {
    this.avgMs = this.avgMs * 0.8 + ms * 0.2;
  }

  private async runQueued<T>(fn: () => Promise<T>, precheck?: () => Promise<void> | void): Promise<T> {
    if (this.active >= this.max) {
      // A job that would wait longer than HASH_MAX_WAIT_MS (queue ahead x recent hash time) is refused at
      // once: with its own cheap refusal if it has one by now (sold out), else "too many requests". The
      // estimate uses hash times only, so a busy event loop does not inflate it; the timer below is a
      // safety net at three times the bound.
      const expectedWait = ((this.queue.length + 1) / this.max) * this.avgMs;
      if (expectedWait > this.maxWaitMs || this.queue.length >= QUEUE_CAP) {
        await precheck?.();
        throw throttled(expectedWait);
      }
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
          }, 3 * this.maxWaitMs),
        };
        this.queue.push(waiter);
      });
    } else {
      this.active++;
    }
    try {
      // What the caller checks once the slot is theirs (sold out meanwhile? locked meanwhile?).
      await precheck?.();
      return await fn();
    } finally {
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

async function timed<T>(lane: Lane, work: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await work();
  } finally {
    lane.note(performance.now() - t0);
  }
}

/** A new argon2id hash of `password`, in `lane`, counted for `owner` (user or address). */
export function hashIn(config: Config, lane: HashLane, password: string, owner?: string): Promise<string> {
  const work = workFor(config);
  return work[lane].run(() => timed(work[lane], () => hashPassword(password, work.params)), undefined, owner);
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
      const result = await timed(work[lane], () => checkPassword(password, typeof stored === 'function' ? stored() : stored, work.params));
      // An old-format hash is replaced in the same slot: the upgrade never queues (nor fails) on its own.
      const upgraded = result.ok && result.rehash ? await hashPassword(password, work.params) : null;
      return { ok: result.ok, upgraded };
    },
    opts.precheck,
    opts.owner,
  );
}
