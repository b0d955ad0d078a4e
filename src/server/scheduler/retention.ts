import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../env';
import { avatarDir, avatarUrl } from '../modules/avatar/service';

// Retention (docs/product.md#limits): rows that only serve a short while are pruned; money tables (ledger
// entries, fund logs, orders, top-ups, withdrawals) and the operator log never are. Run by the scheduler
// every RETENTION_EVERY_MS; what it pruned is logged.
//   live_events           delivered within seconds; kept RETENTION_EVENTS_HOURS (24)
//   idempotency_keys      a retry comes within minutes; kept RETENTION_IDEMPOTENCY_HOURS (24) - their effects stay
//   sessions              expired, or revoked, more than a day ago
//   verification_codes    expired more than a day ago
//   outbox                sent more than RETENTION_OUTBOX_DAYS (30) ago (unsent mail stays)
//   rate_events           a throttle log nothing writes; rows an older database holds
//   webhook_deliveries    settled (delivered, or failed for good) more than RETENTION_WEBHOOK_DAYS (30) ago,
//   and their attempts    with their tries; a pending delivery stays whatever its age
//   webhook_events        older than that and no delivery left to carry them
//   avatar files          a picture no user has any more (replaced), a day after it was written (so an
//                         upload between its file and its row is never taken); content-addressed, so a
//                         picture two users share stays while either has it

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
  webhook_deliveries: number;
  webhook_events: number;
  avatar_files: number;
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
    ...(await pruneWebhookLog(deps, now - config.RETENTION_WEBHOOK_DAYS * DAY)),
    avatar_files: await pruneAvatarFiles(deps, now),
  };
  const total = Object.values(report).reduce((a, b) => a + b, 0);
  if (total > 0) deps.log.info(`retention: pruned ${JSON.stringify(report)}`);
  return report;
}

/** The delivery log's settled rows before the cutoff: tries first, then their deliveries, then events no
 *  delivery refers to any more. Each step stands alone, so a run cut short leaves nothing dangling that the
 *  next run does not take. */
async function pruneWebhookLog(deps: Deps, cutoff: number): Promise<{ webhook_deliveries: number; webhook_events: number }> {
  const { db } = deps;
  const settled = () => db.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'pending').where('settled_at', '<', cutoff);
  await db.deleteFrom('webhook_attempts').where('delivery_id', 'in', settled()).execute();
  const deliveries = await db.deleteFrom('webhook_deliveries').where('id', 'in', settled()).executeTakeFirst();
  const events = await db
    .deleteFrom('webhook_events')
    .where('created_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'webhook_events.id'))))
    .executeTakeFirst();
  return { webhook_deliveries: Number(deliveries.numDeletedRows), webhook_events: Number(events.numDeletedRows) };
}

/** Deletes stored avatar pictures that no user row points at any more and that are older than a day. */
async function pruneAvatarFiles(deps: Deps, now: number): Promise<number> {
  const dir = avatarDir(deps.config);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((f) => /^[0-9a-f]{64}\.webp$/.test(f));
  } catch {
    return 0; // no avatars yet
  }
  const old = names.filter((f) => {
    try {
      return fs.statSync(path.join(dir, f)).mtimeMs < now - DAY;
    } catch {
      return false;
    }
  });
  if (!old.length) return 0;
  const used = new Set<string>();
  for (let i = 0; i < old.length; i += 500) {
    const urls = old.slice(i, i + 500).map(avatarUrl);
    const rows = await deps.db.selectFrom('users').select('avatar').where('avatar', 'in', urls).execute();
    for (const r of rows) used.add(r.avatar);
  }
  let removed = 0;
  for (const f of old) {
    if (used.has(avatarUrl(f))) continue;
    try {
      const file = path.join(dir, f);
      if (fs.statSync(file).mtimeMs >= now - DAY) continue; // uploaded again meanwhile (the upload touches it)
      fs.unlinkSync(file);
      removed++;
    } catch {
      // gone already (another instance sharing DATA_DIR pruned it)
    }
  }
  return removed;
}
