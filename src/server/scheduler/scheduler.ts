import type { Deps } from '../env';
import { checkLedger } from '../ledger/ledger';
import { completeCycle, expireFinalPayment, moveProjectByTime, settleSale } from '../modules/order/transitions';
import { dueReminders, remindFinalPayment, REMINDERS } from '../modules/order/reminders';
import { PUSH_BATCH, sendDuePushes } from '../live/push-sender';
import { createWebhookSender } from '../modules/webhook/sender';
import { runDueOffsets } from '../modules/offset/run';
import { dueExpiries, expireRequest } from '../modules/approval/service';
import { pruneOldRows, RETENTION_EVERY_MS } from './retention';
import { receiptMailLoop } from './receipt-mail';
import { alertOverdueCancellations } from '../modules/retire/cancellation';
import { isConnectionError } from '../db/errors';

// Time-driven work (docs/product.md#states, docs/product.md#settlement): project status by time, cycle
// completions, pre-sale deadline expiries, sale settlements and monthly offsets (docs/product.md#monthly-offset). Due work is always found FROM THE DATABASE
// (never from in-memory timers), so after a restart whatever fell due while the server was down is done on
// the first run, and each transition's conditional status update makes it happen exactly once.

export const SCHEDULER_INTERVAL_MS = 2_000;
/** The first ledger check after start (then every LEDGER_CHECK_INTERVAL_MS). */
const LEDGER_FIRST_CHECK_MS = 60_000;
const BATCH = 200;
/** Batches (of up to BATCH rows of each kind) one scheduler run does before it yields: a backlog after a
 *  long stop is worked off in runs that follow each other at once, so stop() and requests never wait for
 *  the whole of it. */
const RUN_BATCHES = 1;
/** Rows of each kind of the first run, the one startServer waits for: what fell due in a short stop is
 *  done before the first request (as between two runs), a long stop's backlog does not hold the start. */
export const START_BATCH = 50;

export interface DueWorkReport {
  projects: number;
  completed: number;
  expired: number;
  settled: number;
  /** Final-payment reminders sent (docs/product.md#notifications). */
  reminded: number;
  /** Monthly offset plans whose month was decided: an order placed, or refused with a notice. */
  offsets: number;
  /** Approval requests expired, what they held released (docs/product.md#approvals). */
  approvals: number;
  failed: number;
  /** The earliest due time (ms) of the work this run found due, or null when nothing was due: the
   *  scheduler's lag is the run's now minus it. */
  oldestDueAt: number | null;
  /** The run stopped at its batch bound with due work left. */
  more: boolean;
}

/** Runs each due row's transition. Exported for its test. */
export async function each(deps: Deps, ids: number[], run: (id: number) => Promise<unknown>, report: DueWorkReport, field: Exclude<keyof DueWorkReport, 'oldestDueAt'>): Promise<void> {
  for (const id of ids) {
    try {
      if (await run(id)) report[field]++;
    } catch (err) {
      // The database away fails every row alike: the run stops there and is logged once, as a failed run,
      // instead of a line per row it could not reach.
      if (isConnectionError(err)) throw err;
      // One bad row must not stop the rest; it is tried again on the next run and logged each time.
      report.failed++;
      deps.log.error(`scheduler: ${field} #${id} failed`, err);
    }
  }
}

/** Does what is due at the clock's now: everything, or at most `maxBatches` batches (then `more` says
 *  whether work is left). Tests call it directly after advancing a ManualClock. */
export async function runDueWork(deps: Deps, maxBatches = Infinity, batch = BATCH): Promise<DueWorkReport> {
  const { db, clock, config } = deps;
  const report: DueWorkReport = { projects: 0, completed: 0, expired: 0, settled: 0, reminded: 0, offsets: 0, approvals: 0, failed: 0, oldestDueAt: null, more: false };
  const now = clock.now();
  // Each query below reads in due-time order, so its first row is its earliest.
  const due = (at: number | null | undefined) => {
    if (at !== null && at !== undefined && (report.oldestDueAt === null || at < report.oldestDueAt)) report.oldestDueAt = at;
  };

  // Due projects by the indexed due_at (migration 008: the next time each live project moves by time), so a
  // tick reads only what is due, not every live project.
  const projects = await db.selectFrom('projects').select(['id', 'due_at']).where('due_at', '<=', now).orderBy('due_at').execute();
  due(projects[0]?.due_at);
  // A pre-sale past both its selling and end time moves twice (opened, then closed): loop until quiet.
  for (let pass = 0; pass < 2; pass++) await each(deps, projects.map((p) => p.id), (id) => moveProjectByTime(db, id, now), report, 'projects');

  // Each batch in order of its due time (then id): the time column's index gives that order as it finds the
  // rows (a bare ORDER BY id tempted SQLite to walk the whole table in id order instead, scanning every
  // order in progress on each tick).
  for (let n = 1; ; n++) {
    const before = report.completed + report.expired + report.settled + report.reminded;
    const cycles = await db.selectFrom('orders').select(['id', 'cycle_end']).where('status', 'in', ['in_progress', 'final_payment_made']).where('side', '=', 'buy').where('cycle_end', '<=', now).orderBy('cycle_end').orderBy('id').limit(batch).execute();
    due(cycles[0]?.cycle_end);
    await each(deps, cycles.map((o) => o.id), (id) => completeCycle(db, id, now, config.GRADE_THRESHOLDS_CENTS), report, 'completed');
    const deadlines = await db.selectFrom('orders').select(['id', 'final_deadline']).where('status', '=', 'pending_final_payment').where('final_deadline', '<=', now).orderBy('final_deadline').orderBy('id').limit(batch).execute();
    due(deadlines[0]?.final_deadline);
    await each(deps, deadlines.map((o) => o.id), (id) => expireFinalPayment(db, id, now), report, 'expired');
    const sales = await db.selectFrom('orders').select(['id', 'settle_at']).where('status', '=', 'in_progress').where('side', '=', 'sell').where('settle_at', '<=', now).orderBy('settle_at').orderBy('id').limit(batch).execute();
    due(sales[0]?.settle_at);
    await each(deps, sales.map((o) => o.id), (id) => settleSale(db, id, now), report, 'settled');
    let reminders = 0;
    for (const r of REMINDERS) {
      const rows = await dueReminders(db, r, now, batch);
      reminders = Math.max(reminders, rows.length);
      await each(deps, rows.map((o) => o.id), (id) => remindFinalPayment(db, id, r, now), report, 'reminded');
    }
    // Only successes are progress: a full batch that keeps failing must not be retried in a loop.
    const done = report.completed + report.expired + report.settled + report.reminded - before;
    // Stop when a pass found less than a full batch, or made no progress (only failures left).
    if (cycles.length < batch && deadlines.length < batch && sales.length < batch && reminders < batch) break;
    if (done === 0) break;
    if (n >= maxBatches) {
      report.more = true;
      break;
    }
  }
  await offsetsDue(deps, now, report, due, Number.isFinite(maxBatches) ? maxBatches * batch : Infinity, batch);
  // Each expiry is a conditional update of a waiting request: across instances, once.
  const expiries = await dueExpiries(deps, now, batch);
  due(expiries[0]?.expires_at);
  await each(deps, expiries.map((a) => a.id), (id) => expireRequest(deps, id, now), report, 'approvals');
  if (expiries.length >= batch) report.more = true;
  // Registry cancellations past their due time: the alert, raised once each (docs/product.md#registry-cancellation).
  await alertOverdueCancellations(deps, now).catch((err: unknown) => {
    report.failed++;
    deps.log.error('scheduler: registry cancellation check failed', err);
  });
  return report;
}

/** The monthly offsets due at `now` (modules/offset/run.ts), after the orders' transitions: at most
 *  `limit` plans, in runs of `batch`. */
async function offsetsDue(deps: Deps, now: number, report: DueWorkReport, due: (at: number | null) => void, limit: number, batch: number): Promise<void> {
  for (let done = 0; done < limit; done += batch) {
    const r = await runDueOffsets(deps, now, Math.min(batch, limit - done));
    due(r.oldestDueAt);
    report.offsets += r.placed + r.refused;
    report.failed += r.failed;
    if (!r.more) return;
    if (r.placed + r.refused === 0) return;
  }
  report.more = true;
}

export interface Scheduler {
  /** Runs once now (the promise ends with that run; at most `firstBatch` rows of each kind) and then every
   *  interval, or at once while a run left due work behind (a backlog). */
  start(firstBatch?: number): Promise<void>;
  /** True from a run that stopped at its bound with due work left until one that did not: the instance
   *  is catching up. */
  catchingUp(): boolean;
  /** Stops the timers and waits for a run or ledger check in progress to finish. */
  stop(): Promise<void>;
  /** Runs the ledger check now (it also runs every LEDGER_CHECK_INTERVAL_MS once started). */
  checkLedger(): Promise<void>;
}

export function createScheduler(deps: Deps, intervalMs = SCHEDULER_INTERVAL_MS): Scheduler {
  const due = dueWorkLoop(deps, intervalMs);
  const ledger = ledgerCheckLoop(deps);
  const push = pushLoop(deps, intervalMs);
  const mail = receiptMailLoop(deps);
  // Webhooks on their own timer (WEBHOOK_POLL_MS), which never waits for a receiver (modules/webhook/sender.ts).
  const webhooks = createWebhookSender(deps);
  return {
    start(firstBatch = BATCH) {
      const first = due.start(firstBatch);
      ledger.start();
      push.start();
      mail.start();
      webhooks.start();
      return first;
    },
    async stop() {
      await Promise.all([due.stop(), ledger.stop(), push.stop(), mail.stop(), webhooks.stop()]);
    },
    checkLedger: ledger.run,
    catchingUp: due.catchingUp,
  };
}

/** What one run of the due work leaves for the next. */
interface DueWorkState {
  /** A backlog is being worked off (a run stopped at its bound with due work left,
   *  docs/operations.md#restarts): readiness says so, and the next run follows at once instead of after
   *  the interval. */
  backlog: boolean;
  /** When the next run starts; after a failed run (database away) the interval even during a backlog. */
  nextDelay: number;
  prunedAt: number;
}

/** One run of the due work, measured and logged; what it leaves (backlog, next delay) goes to `state`, and
 *  the retention prune runs when due. A failed run is logged, never thrown. */
async function dueWorkRun(deps: Deps, state: DueWorkState, intervalMs: number, batch: number): Promise<void> {
  const { metrics } = deps;
  const t0 = performance.now();
  const startedAt = deps.clock.now();
  try {
    const { oldestDueAt, more, ...r } = await runDueWork(deps, RUN_BATCHES, batch);
    state.backlog = more;
    if (deps.lifecycle) deps.lifecycle.catchingUp = more;
    state.nextDelay = more ? 0 : intervalMs;
    // Lag (docs/decisions/0013-metrics.md): how late the oldest due work was when this tick began.
    metrics?.schedulerLag.set(oldestDueAt === null ? 0 : Math.max(0, startedAt - oldestDueAt) / 1000);
    const moved = r.projects + r.completed + r.expired + r.settled + r.reminded + r.offsets + r.approvals;
    if (moved > 0 || r.failed > 0) deps.log.info(`scheduler: ${JSON.stringify(r)}`);
    if (Date.now() - state.prunedAt >= RETENTION_EVERY_MS) {
      state.prunedAt = Date.now();
      await pruneOldRows(deps);
    }
    metrics?.schedulerLastTick.set(deps.clock.now() / 1000);
  } catch (err) {
    state.nextDelay = intervalMs;
    deps.log.error('scheduler run failed', err);
  } finally {
    metrics?.schedulerTick.observe((performance.now() - t0) / 1000);
  }
}

/** The due transitions: a run now, then one every interval, or at once while a run left due work behind. */
function dueWorkLoop(deps: Deps, intervalMs: number) {
  const state: DueWorkState = { backlog: false, nextDelay: 0, prunedAt: -Infinity };
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  function tick(batch = BATCH): Promise<void> {
    running ??= dueWorkRun(deps, state, intervalMs, batch).finally(() => {
      running = null;
    });
    return running;
  }

  function schedule(ms: number) {
    timer = setTimeout(() => {
      void tick().finally(() => {
        if (!stopped) schedule(state.nextDelay);
      });
    }, ms);
    timer.unref();
  }

  return {
    start(firstBatch: number): Promise<void> {
      stopped = false;
      const first = tick(firstBatch);
      // The next run after the first one ends: at once while a backlog is left, else after the interval.
      void first.finally(() => {
        if (!stopped && !timer) schedule(state.nextDelay);
      });
      return first;
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
    catchingUp: () => state.backlog,
  };
}

/** Pushes a full claim leaves behind are sent by the runs that follow at once, up to this many. */
const PUSH_RUNS = 10;

/** The Web Push sender (live/push-sender.ts) on its own timer, every interval: a slow push service never
 *  holds the due transitions, nor the start (whose first run of due work the server waits for). A run sends
 *  until a claim comes back short of full (at most PUSH_RUNS claims); a failure is logged. */
function pushLoop(deps: Deps, intervalMs: number) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  async function run(): Promise<void> {
    for (let i = 0; i < PUSH_RUNS; i++) {
      const r = await sendDuePushes(deps, PUSH_BATCH);
      if (r.dropped + r.removed + r.retried > 0) deps.log.info(`push: ${JSON.stringify(r)}`);
      if (r.sent + r.retried + r.removed + r.dropped < PUSH_BATCH) break;
    }
  }

  return {
    start(): void {
      if (timer) return;
      const next = () => {
        timer = setTimeout(() => {
          running = run()
            .catch((err: unknown) => deps.log.error('push sender run failed', err))
            .finally(() => {
              running = null;
              if (timer) next();
            });
        }, intervalMs);
        timer.unref();
      };
      next();
    },
    async stop(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}

/** The ledger check (every balance equals the sum of its fund logs, every unit sums to zero), on its own
 *  timer so a long check never delays due transitions: a failure is logged, and kept in the metrics
 *  (canopy_ledger_check_ok, _timestamp_seconds, _problems). A check that cannot run (database gone) leaves
 *  them as they were: the timestamp stops moving. */
function ledgerCheckLoop(deps: Deps) {
  const { metrics } = deps;
  let checking: Promise<void> | null = null;
  let ledgerTimer: NodeJS.Timeout | null = null;

  function run(): Promise<void> {
    checking ??= checkLedger(deps.db)
      .then((report) => {
        metrics?.ledgerCheckOk.set(report.ok ? 1 : 0);
        metrics?.ledgerCheckProblems.set(report.problems.length);
        metrics?.ledgerCheckTimestamp.set(deps.clock.now() / 1000);
        if (!report.ok) deps.log.error(`ledger check failed: ${report.problems.length} account(s) differ from their fund logs; totals ${JSON.stringify(report.totals)}; ${[...report.retirement_problems, ...report.holding_problems].join('; ')}`);
      })
      .catch((err: unknown) => deps.log.error('ledger check could not run', err))
      .finally(() => {
        checking = null;
      });
    return checking;
  }

  return {
    run,
    /** The first check a minute after start (not in the way of start-up), then every interval. */
    start(): void {
      const every = deps.config.LEDGER_CHECK_INTERVAL_MS;
      if (every <= 0 || ledgerTimer) return;
      const next = (ms: number) => {
        ledgerTimer = setTimeout(() => {
          void run().finally(() => {
            if (ledgerTimer) next(every);
          });
        }, ms);
        ledgerTimer.unref();
      };
      next(Math.min(LEDGER_FIRST_CHECK_MS, every));
    },
    async stop(): Promise<void> {
      if (ledgerTimer) clearTimeout(ledgerTimer);
      ledgerTimer = null;
      await checking;
    },
  };
}
