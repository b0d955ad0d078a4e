// Receipt mail across crashes (docs/decisions/0036-receipts.md): the real server runs as a child process
// with a real SMTP server; it is killed with SIGKILL after purchases committed and before their mail was
// sent, and started again: each receipt's mail is sent once after the restart, never twice. A kill while the
// SMTP server holds a mail's data unanswered leaves that mail claimed and unsent: it is not sent again (at
// most once), and the operator sees it in the outbox.
import { afterAll, expect, it } from 'vitest';
import { openDatabase, type DB } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/db/migrate';
import { writeTx } from '../../src/server/db/tx';
import { hashPassword, newToken, sha256 } from '../../src/server/lib/crypto';
import { checkLedger, openPlatformAccounts, openUserAccounts, PLATFORM, post } from '../../src/server/ledger/ledger';
import { API_BASE, PATHS } from '../../src/shared/api';
import { freePort, insertMember, makeTmpDir, serverProcesses } from '../helpers/server';
import { databaseTarget } from '../helpers/database';
import { holdTons } from '../helpers/inventory';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink';

const dataDir = makeTmpDir('canopy-receipt-crash-');
const servers = serverProcesses(dataDir);
let sink: SmtpSink | null = null;
afterAll(async () => {
  await servers.close();
  await sink?.close();
});

const PASSWORD = 'Crash#Test2026';
const ARGON2 = { memoryKiB: 1024, timeCost: 1, parallelism: 1 };

/** Starts the server (mail job every `mailEveryMs`) and waits until it answers. */
const start = (port: number, smtpPort: number, mailEveryMs: number) =>
  servers.start(port, { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, RECEIPT_MAIL_EVERY_MS: String(mailEveryMs) });

async function until(what: string, test: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A member with money, a session and a project to buy, written before the server starts: the top-up is
 *  receipt 1, its mail queued. */
async function seed(db: DB): Promise<{ token: string; email: string; projectId: number; userId: number }> {
  await migrateToLatest(db);
  await openPlatformAccounts(db);
  const now = Date.now();
  const hash = await hashPassword(PASSWORD, ARGON2);
  const token = newToken();
  const email = 'receipts.crash@example.sg';
  const project = await db
    .insertInto('projects')
    .values({
      name: 'Crash Forest', name_cn: '崩溃森林', location: 'Test', type: 'forestry', standard: 'VCS', status: 'in_progress', price: 100, presale_price: null,
      min_tons: 1, max_tons: 10, total_tons: 100_000, remaining_tons: 100_000, selling_time: now - 86_400_000, end_time: now + 30 * 86_400_000,
      cycle_value: 30, cycle_unit: 'days', yield_bp: 0, required_grade: 0, monthly_limit: 100_000, total_limit: 100_000, company: '',
      registry_id: '', methodology: '', vintage: 2025, size_ha: 0, image: '', intro: '', intro_cn: '', created_at: now, updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await holdTons(db, project.id, 100_000, now);
  const userId = await writeTx(db, async (tx) => {
    const u = { id: await insertMember(tx, { email, first_name: 'Crash', last_name: 'Receipts', invite_code: 'RCPT01', password_hash: hash, withdraw_password_hash: hash }, now) };
    await openUserAccounts(tx, u.id);
    await post(tx, { kind: 'topup', ref_type: 'topup', ref_id: 0, memo: 'crash test', now, postings: [{ owner: PLATFORM, account: 'bank', amount: -1_000_000 }, { owner: u.id, account: 'available', amount: 1_000_000 }] });
    await tx.insertInto('sessions').values({ token_hash: sha256(token), user_id: u.id, created_at: now, expires_at: now + 86_400_000, last_seen_at: now, revoked_at: null }).execute();
    return u.id;
  });
  return { token, email, projectId: project.id, userId };
}

const subjects = (s: SmtpSink) => s.messages.map((m) => /^Subject: (.*)$/m.exec(m.data)?.[1]).sort();
const receiptSubjects = (numbers: number[]) => numbers.map((n) => `Your Canopy receipt no. ${n}`).sort();

it('kill -9 between the commit and the send: each receipt mailed once after the restart; a kill mid-send never sends it twice', async () => {
  const { db } = openDatabase(await databaseTarget(dataDir));
  try {
    const { token, email, projectId, userId } = await seed(db);
    sink = await startSmtpSink();
    const port = await freePort();
    const buy = async () => {
      const res = await fetch(`http://127.0.0.1:${port}${API_BASE}${PATHS.orderBuy}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: token, 'Idempotency-Key': `rc_${newToken().slice(0, 12)}` },
        body: JSON.stringify({ project_id: projectId, tons: 2, password: PASSWORD }),
      });
      expect(((await res.json()) as { code: number }).code).toBe(0);
    };
    const outbox = () => db.selectFrom('outbox').select(['receipt_id', 'attempted_at', 'sent_at', 'to_email']).where('receipt_id', 'is not', null).orderBy('id').execute();

    // The mail job runs at start (the top-up's mail goes), then not for an hour: the purchases' mail waits.
    let child = await start(port, sink.port, 3_600_000);
    await until('the top-up receipt mail', () => sink!.messages.length === 1);
    for (let i = 0; i < 5; i++) await buy();
    await servers.stop(child);
    expect(sink.messages).toHaveLength(1);
    const queued = await outbox();
    expect(queued).toHaveLength(6);
    expect(queued.filter((m) => m.attempted_at === null)).toHaveLength(5);

    // Restarted: each waiting mail is sent once.
    child = await start(port, sink.port, 200);
    await until('five more receipt mails', async () => (await outbox()).every((m) => m.sent_at !== null));
    expect(subjects(sink)).toEqual(receiptSubjects([1, 2, 3, 4, 5, 6]));
    expect(sink.messages.every((m) => m.to.length === 1 && m.to[0] === email)).toBe(true);

    // The SMTP server takes the next mail's data and never answers; the server dies meanwhile.
    sink.stall(true);
    await buy();
    await until('the stalled send', () => sink!.stalled === 1);
    await servers.stop(child);
    sink.stall(false);
    const claimed = (await outbox()).at(-1)!;
    expect(claimed.attempted_at).not.toBeNull();
    expect(claimed.sent_at).toBeNull();

    // Restarted again, the job runs many times: nothing is sent twice, the claimed mail not at all.
    child = await start(port, sink.port, 200);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(subjects(sink)).toEqual(receiptSubjects([1, 2, 3, 4, 5, 6]));
    await buy();
    await until('the next receipt mail', () => sink!.messages.length === 7);
    expect(subjects(sink)).toEqual(receiptSubjects([1, 2, 3, 4, 5, 6, 8]));
    await servers.stop(child);
    const numbers = await db.selectFrom('receipts').select('number').where('owner_id', '=', userId).orderBy('number').execute();
    expect(numbers.map((r) => Number(r.number))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await checkLedger(db)).ok).toBe(true);
  } finally {
    await db.destroy();
  }
}, 300_000);
