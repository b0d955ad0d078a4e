import type { Deps } from '../env';
import { receiptForMail } from '../modules/receipt/service';
import { receiptMail } from '../modules/receipt/text';

// The queued mail (docs/decisions/0036-receipts.md): outbox rows a write transaction wrote with its effect
// (a receipt's, written by the ledger; an organisation's invitation, docs/product.md#organisations), sent
// by whichever instance claims each. A receipt's text is written at the claim, in its owner's language; any
// other row carries its text. At most once: the claim (attempted_at, with the mail's text) commits before
// the send, so a crash after the claim never sends the mail again; a crash before it leaves the row
// unclaimed, and the next run after the restart sends it. A mail the SMTP server refused keeps its error for
// the operator (`ops outbox`). Mail sent at once by the mailer (codes) is claimed when it is written.

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

type Mail = { subject: string; body: string };

/** A queued row's text: a receipt's written now (null when the receipt is gone), any other row's its own. */
async function textOf(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'log' | 'mailer'>, row: Mail & { receipt_id: number | null }): Promise<Mail | null> {
  if (row.receipt_id === null) return { subject: row.subject, body: row.body };
  const found = await receiptForMail(deps.db, deps, row.receipt_id);
  return found ? receiptMail(found.receipt, found.lang) : null;
}

async function sendNext(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'log' | 'mailer'>): Promise<'empty' | 'claimed' | 'taken'> {
  const { db, clock } = deps;
  const next = await db
    .selectFrom('outbox')
    .select(['id', 'to_email', 'receipt_id', 'subject', 'body'])
    .where('attempted_at', 'is', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!next) return 'empty';
  const text = await textOf(deps, next);
  const { subject, body } = text ?? { subject: '', body: '' };
  const claim = await db.updateTable('outbox').set({ attempted_at: clock.now(), subject, body }).where('id', '=', next.id).where('attempted_at', 'is', null).executeTakeFirst();
  if (Number(claim.numUpdatedRows) !== 1) return 'taken'; // another instance claimed it first
  if (!text) return 'claimed';
  try {
    const messageId = next.receipt_id === null ? `<mail-${next.id}@canopy>` : `<receipt-${next.receipt_id}.${next.id}@canopy>`;
    if (await deps.mailer.deliver(next.to_email, subject, body, messageId)) {
      await db.updateTable('outbox').set({ sent_at: clock.now() }).where('id', '=', next.id).execute();
    }
  } catch (err) {
    deps.log.error(`queued mail #${next.id} not sent`, err);
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
