import type { Deps } from '../env';

// Retention (issue 9): rows that only serve a short while are pruned; money tables (ledger entries, fund
// logs, orders, top-ups, withdrawals) and the operator log never are. Run by the scheduler every
// RETENTION_EVERY_MS; what it pruned is logged.
//   live_events           delivered within seconds; kept RETENTION_EVENTS_HOURS (24)
//   idempotency_keys      a retry comes within minutes; kept RETENTION_IDEMPOTENCY_HOURS (24) - their effects stay
//   sessions              expired, or revoked, more than a day ago
//   verification_codes    expired more than a day ago
//   outbox                sent more than RETENTION_OUTBOX_DAYS (30) ago (unsent mail stays)
//   rate_events           the first version's throttle log (no longer written)

export const RETENTION_EVERY_MS = 10 * 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface RetentionReport {
  live_events: number;
  idempotency_keys: number;
  sessions: number;
  verification_codes: number;
  outbox: number;
  rate_events: number;
}

export async function pruneOldRows(deps: Deps): Promise<RetentionReport> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const n = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);
  const report: RetentionReport = {
    live_events: n(await db.deleteFrom('live_events').where('created_at', '<', now - config.RETENTION_EVENTS_HOURS * HOUR).executeTakeFirst()),
    idempotency_keys: n(await db.deleteFrom('idempotency_keys').where('created_at', '<', now - config.RETENTION_IDEMPOTENCY_HOURS * HOUR).executeTakeFirst()),
    sessions: n(
      await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<', now - DAY), eb('revoked_at', '<', now - DAY)]))
        .executeTakeFirst(),
    ),
    verification_codes: n(await db.deleteFrom('verification_codes').where('expires_at', '<', now - DAY).executeTakeFirst()),
    outbox: n(await db.deleteFrom('outbox').where('sent_at', 'is not', null).where('sent_at', '<', now - config.RETENTION_OUTBOX_DAYS * DAY).executeTakeFirst()),
    rate_events: n(await db.deleteFrom('rate_events').where('created_at', '<', now - DAY).executeTakeFirst()),
  };
  const total = Object.values(report).reduce((a, b) => a + b, 0);
  if (total > 0) deps.log.info(`retention: pruned ${JSON.stringify(report)}`);
  return report;
}
