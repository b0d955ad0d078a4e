import type { Deps } from '../env';
import { receiptForMail } from '../modules/receipt/service';
import { receiptMail } from '../modules/receipt/text';

// The receipts' mail (docs/product.md#receipts): the outbox rows the ledger wrote with each receipt, in the
// event's transaction, sent by whichever instance claims each. At most once (docs/decisions/0036-receipts.md):
// the claim (attempted_at, with the mail's text) commits before the send, so a crash after the claim never
// sends the mail again; a crash before it leaves the row unclaimed, and the next run after the restart
// sends it. A mail the SMTP server refused keeps its error for the operator (`ops outbox`).

/** Rows one run sends at most; a larger queue is worked off over the following runs. */
const RUN_MAX = 50;

/** Sends what is queued, up to RUN_MAX rows; the number of rows claimed by this instance. */
export async function sendReceiptMail(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'log' | 'mailer'>, max = RUN_MAX): Promise<number> {
  let sent = 0;
  for (let n = 0; n < max; n++) {
    const outcome = await sendNext(deps);
    if (outcome === 'empty') break;
    if (outcome === 'claimed') sent++;
  }
  return sent;
}

async function sendNext(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'log' | 'mailer'>): Promise<'empty' | 'claimed' | 'taken'> {
  const { db, clock } = deps;
  const next = await db
    .selectFrom('outbox')
    .select(['id', 'to_email', 'receipt_id'])
    .where('receipt_id', 'is not', null)
    .where('attempted_at', 'is', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!next) return 'empty';
  const found = await receiptForMail(db, deps, next.receipt_id!);
  const { subject, body } = found ? receiptMail(found.receipt, found.lang) : { subject: '', body: '' };
  const claim = await db.updateTable('outbox').set({ attempted_at: clock.now(), subject, body }).where('id', '=', next.id).where('attempted_at', 'is', null).executeTakeFirst();
  if (Number(claim.numUpdatedRows) !== 1) return 'taken'; // another instance claimed it first
  if (!found) return 'claimed';
  try {
    if (await deps.mailer.deliver(next.to_email, subject, body, `<receipt-${next.receipt_id}.${next.id}@canopy>`)) {
      await db.updateTable('outbox').set({ sent_at: clock.now() }).where('id', '=', next.id).execute();
    }
  } catch (err) {
    deps.log.error(`receipt mail #${next.id} not sent`, err);
    await db.updateTable('outbox').set({ error: String(err) }).where('id', '=', next.id).execute();
  }
  return 'claimed';
}

/** The mail job: a run at start, then every RECEIPT_MAIL_EVERY_MS; a failed run is logged, never thrown. */
export function receiptMailLoop(deps: Deps) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;
  const run = () => {
    running ??= sendReceiptMail(deps)
      .then(() => undefined)
      .catch((err: unknown) => deps.log.error('receipt mail run failed', err))
      .finally(() => {
        running = null;
        if (!stopped) timer = setTimeout(() => void run(), deps.config.RECEIPT_MAIL_EVERY_MS).unref();
      });
    return running;
  };
  return {
    start(): void {
      if (!stopped) return;
      stopped = false;
      void run();
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
