import type { Transporter } from 'nodemailer';
import type { DB } from '../db/connection';
import type { Logger } from './log';
import type { Clock } from './clock';

export interface Mailer {
  send(to: string, subject: string, body: string): Promise<void>;
  /** Sends mail already in the outbox and waits for the server's answer: true once accepted, false
   *  without SMTP (the body is logged); a refusal throws. `messageId` lets a reader's mail program fold a
   *  mail it got twice. */
  deliver(to: string, subject: string, body: string, messageId: string): Promise<boolean>;
}

/** Mail always lands in the outbox table; with SMTP_URL it is also sent. Without SMTP the body is logged,
 *  so a developer can read a verification code from the server log (or `npm run ops -- outbox`). */
export function createMailer(opts: { db: DB; clock: Clock; log: Logger; smtpUrl?: string; from: string }): Mailer {
  const { smtpUrl } = opts;
  // nodemailer is loaded with the first mail, not at start (docs/operations.md#restarts).
  let made: Promise<Transporter> | null = null;
  const smtp = smtpUrl ? () => (made ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl))) : null;
  return {
    async send(to, subject, body) {
      const now = opts.clock.now();
      const row = await opts.db
        .insertInto('outbox')
        // Sent here at once, so claimed at once: the mail job takes only what a write transaction queued.
        .values({ to_email: to, subject, body, created_at: now, sent_at: null, error: null, attempted_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (!smtp) {
        opts.log.info(`mail to ${to} (no SMTP configured, kept in outbox #${row.id}): ${subject} | ${body.replace(/\s+/g, ' ')}`);
        return;
      }
      // Sending happens after the answer; a failure is recorded on the outbox row for the operator.
      smtp()
        .then((transport) => transport.sendMail({ from: opts.from, to, subject, text: body }))
        .then(() => opts.db.updateTable('outbox').set({ sent_at: opts.clock.now() }).where('id', '=', row.id).execute())
        .catch((err: unknown) => {
          opts.log.error(`smtp send failed for outbox #${row.id}`, err);
          return opts.db.updateTable('outbox').set({ error: String(err) }).where('id', '=', row.id).execute();
        })
        .catch(() => undefined);
    },
    async deliver(to, subject, body, messageId) {
      if (!smtp) {
        opts.log.info(`mail to ${to} (no SMTP configured, kept in the outbox): ${subject} | ${body.replace(/\s+/g, ' ')}`);
        return false;
      }
      const transport = await smtp();
      await transport.sendMail({ from: opts.from, to, subject, text: body, messageId });
      return true;
    },
  };
}
