import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { LIMITS_TABLE, limitsFile, type LimitName } from '../lib/limits';
import { ipKey } from '../lib/http';
import * as v from 'valibot';
import { dialectOf, type DB } from '../db/connection';
import { sql } from 'kysely';
import type { Clock } from '../lib/clock';
import { writeTx } from '../db/tx';
import { publish } from '../live/events';
import { checkLedger } from '../ledger/ledger';
import { unlockTrading } from '../modules/user/trade-password';
import { emailSchema } from '../../shared/schemas/auth';
import { newsPublishSchema, projectCreateSchema, PROJECT_STATUSES } from '../../shared/schemas/content';
import { terminalValue } from '../lib/terminal';
import { arg, limitFlag, positiveInt, textFlag, UsageError, type ArgSpec, type Parsed } from './args';

// Operator commands (docs/product.md#operators). Each returns data for --json and a line for people;
// a bad argument throws UsageError (exit 2), a refusal OpsError (exit 1). Every run is logged.

export class OpsError extends Error {}

/** How far a mail got: sent, claimed by the mail job and not sent (a crash during the send: never sent
 *  again by itself, docs/decisions/0036-receipts.md), refused by the mail server, or waiting. */
function mailState(r: { sent_at: number | null; attempted_at: number | null; error: string | null; receipt_id: number | null }): string {
  if (r.sent_at) return ' (sent)';
  if (r.error) return ` (not sent: ${r.error})`;
  if (r.attempted_at) return r.receipt_id ? ' (claimed, not sent: `outbox:resend` queues it again)' : '';
  return ' (waiting for the mail job)';
}

export interface OpsContext {
  db: DB;
  clock: Clock;
  /** DATA_DIR, for files beside the database (the throttles' limits.db). */
  dataDir?: string;
  /** Who runs the command (runOps fills it in), for audit rows a command writes itself. */
  actor?: string;
}

export interface OpsResult {
  data: unknown;
  text: string;
  /** What a change changed, for the operator audit (operator_log.target, before, after). */
  audit?: Audit;
}

interface Audit {
  target: string;
  before: unknown;
  after: unknown;
}

export type Command = ArgSpec & {
  usage: string;
  summary: string;
  run: (ctx: OpsContext, args: Parsed) => Promise<OpsResult>;
  /** Work the CLI does before it opens the database (db:restore replaces the file); throws to refuse. */
  beforeOpen?: (target: { DB_FILE: string; DATABASE_URL?: string }, args: Parsed) => Promise<void>;
};

/** An audit side (before or after) as stored: JSON, or null for "nothing" (before a create). */
export function auditJson(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

function email(text: string): string {
  const r = v.safeParse(emailSchema, text);
  if (!r.success) throw new UsageError(`not a valid email: "${text}"`);
  return r.output;
}

const limitNames: Record<LimitName, true> = { login_ip: true, login_account: true, code_ip: true, code_account: true, register_ip: true, reset_ip: true, reset_account: true, password_change_account: true, avatar_account: true, org_invite_account: true, webhook_send_account: true, public_ip: true };

type ThrottleRow = { limit: string; key: string; points: number; resets_at: number };

/** The throttle counters still running: from limits.db beside a SQLite database, or the rate_limits
 *  table of a PostgreSQL one. */
async function readThrottles(db: DB, dataDir: string | undefined, filter?: string): Promise<ThrottleRow[]> {
  let rows: Array<{ key: string; points: number; expire: number | null }>;
  if (dialectOf(db) === 'postgres') {
    const exists = await sql<{ t: string | null }>`select to_regclass(${LIMITS_TABLE}) as t`.execute(db);
    if (!exists.rows[0]?.t) return [];
    rows = (await sql<{ key: string; points: number; expire: number | null }>`select key, points, expire from ${sql.table(LIMITS_TABLE)} where expire is null or expire > ${Date.now()} order by expire desc`.execute(db)).rows;
  } else {
    const file = limitsFile({ DATA_DIR: dataDir ?? './data' });
    if (!fs.existsSync(file)) return [];
    const sqlite = new SQLite(file, { readonly: true });
    try {
      rows = sqlite.prepare(`select key, points, expire from ${LIMITS_TABLE} where expire is null or expire > ? order by expire desc`).all(Date.now()) as typeof rows;
    } finally {
      sqlite.close();
    }
  }
  return rows
    .map((r) => {
      const at = r.key.indexOf(':');
      return { limit: r.key.slice(0, at), key: r.key.slice(at + 1), points: Number(r.points), resets_at: Number(r.expire ?? 0) };
    })
    .filter((r) => !filter || r.key.includes(filter.trim().toLowerCase()));
}

export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read file ${file}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${file} is not valid JSON`);
  }
}

export function validate<S extends v.GenericSchema>(schema: S, data: unknown, what: string): v.InferOutput<S> {
  const r = v.safeParse(schema, data);
  if (!r.success) {
    const problems = r.issues.map((i) => `${i.path?.map((p) => String(p.key)).join('.') || '(root)'}: ${i.message}`);
    throw new UsageError(`invalid ${what}:\n  ${problems.join('\n  ')}`);
  }
  return r.output;
}

export async function userByEmail(db: DB, address: string) {
  const user = await db.selectFrom('users').selectAll().where('email', '=', email(address)).executeTakeFirst();
  if (!user) throw new OpsError(`no user with email ${address}`);
  return user;
}

const STATUS_MOVES: Record<(typeof PROJECT_STATUSES)[number], string[]> = {
  pending_review: ['presale', 'in_progress', 'closed'],
  presale: ['in_progress', 'closed'],
  in_progress: ['closed'],
  closed: [],
};

/** A reduction period runs forward: its end year is not before its start year (docs/product.md#singapore-carbon-tax). */
export function checkReductionPeriod(p: { reduction_start?: number | null; reduction_end?: number | null }): void {
  const { reduction_start: start, reduction_end: end } = p;
  if ((start == null) !== (end == null)) throw new UsageError('give both reduction_start and reduction_end, or neither');
  if (start != null && end != null && end < start) throw new UsageError('reduction_end must not be before reduction_start');
}

export const CORE_COMMANDS: Record<string, Command> = {
  outbox: {
    usage: 'outbox [--to EMAIL] [--limit N]',
    flags: ['to', 'limit'],
    summary: 'Mail the server sent (verification codes included), newest first',
    async run({ db }, args) {
      let q = db.selectFrom('outbox').selectAll().orderBy('id', 'desc');
      const to = textFlag(args, 'to');
      if (to !== undefined) q = q.where('to_email', '=', email(to));
      const rows = await q.limit(limitFlag(args, 20)).execute();
      const text = rows.length
        ? rows.map((r) => `#${r.id} ${new Date(r.created_at).toISOString()} to ${r.to_email}${mailState(r)}\n  ${r.subject}\n  ${r.body}`).join('\n')
        : 'no mail';
      return { data: rows, text };
    },
  },
  'outbox:resend': {
    usage: 'outbox:resend ID',
    summary: 'Queue a receipt mail again that was claimed and never sent (a crash during its send, or a refusal)',
    async run({ db }, args) {
      const id = positiveInt(arg(args, 0, 'ID'), 'ID');
      // Only a receipt mail the job claimed and did not send: a sent one is never sent twice from here.
      const done = await db
        .updateTable('outbox')
        .set({ attempted_at: null, error: null })
        .where('id', '=', id)
        .where('receipt_id', 'is not', null)
        .where('attempted_at', 'is not', null)
        .where('sent_at', 'is', null)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) throw new OpsError(`outbox #${id} is not a receipt mail claimed and unsent; nothing changed`);
      return { data: { id }, text: `outbox #${id} queued again: the mail job sends it on its next run` };
    },
  },
  'user:unlock': {
    usage: 'user:unlock EMAIL',
    summary: 'Clear login and withdrawal-password locks, and unfreeze what the lock froze',
    async run({ db, clock }, args) {
      const user = await userByEmail(db, arg(args, 0, 'EMAIL'));
      const now = clock.now();
      const unfrozen = await writeTx(db, async (tx, w) => {
        await tx
          .updateTable('users')
          .set({ login_locked: 0, login_fails: 0, trade_locked: 0, trade_fails: 0, updated_at: now })
          .where('id', '=', user.id)
          .execute();
        const cents = await unlockTrading(tx, user.id, now);
        await publish(w, { type: 'invalidate', tables: ['user', 'fundlogs'] }, user.id, now);
        return cents;
      });
      return {
        data: { id: user.id, email: user.email, unlocked: true, unfrozen_cents: unfrozen },
        text: `unlocked ${user.email}${unfrozen ? `; unfroze ${unfrozen} cents` : ''}`,
        audit: {
          target: `user:${user.id}`,
          before: { login_locked: user.login_locked, login_fails: user.login_fails, trade_locked: user.trade_locked, trade_fails: user.trade_fails },
          after: { login_locked: 0, login_fails: 0, trade_locked: 0, trade_fails: 0, unfrozen_cents: unfrozen },
        },
      };
    },
  },
  'throttle:list': {
    usage: 'throttle:list [--key TEXT]',
    flags: ['key'],
    summary: 'Throttle counters this hour: which address or account used how much of which limit',
    async run({ db, dataDir }, args) {
      const rows = await readThrottles(db, dataDir, textFlag(args, 'key'));
      const text = rows.length
        ? rows.map((r) => `${r.limit} ${r.key}: ${r.points} used, resets ${new Date(r.resets_at).toISOString()}`).join('\n')
        : 'no throttle counters';
      return { data: rows, text };
    },
  },
  'throttle:clear': {
    usage: 'throttle:clear KEY',
    summary: 'Forget the throttle counters of an address or account (every limit), e.g. a shared office address',
    async run({ db, dataDir }, args) {
      const key = arg(args, 0, 'KEY').trim().toLowerCase();
      const keys = Object.keys(limitNames).map((n) => `${n}:${n.endsWith('_ip') ? ipKey(key) : key}`);
      if (dialectOf(db) === 'postgres') {
        const res = await sql`delete from ${sql.table(LIMITS_TABLE)} where key in (${sql.join(keys)})`.execute(db);
        const cleared = Number(res.numAffectedRows ?? 0);
        return { data: { key, cleared }, text: `cleared ${cleared} counter(s) of ${key}` };
      }
      const file = limitsFile({ DATA_DIR: dataDir ?? './data' });
      if (!fs.existsSync(file)) return { data: { key, cleared: 0 }, text: 'no throttle counters' };
      const sqlite = new SQLite(file);
      try {
        sqlite.pragma('busy_timeout = 2000');
        const info = sqlite.prepare(`delete from ${LIMITS_TABLE} where key in (${keys.map(() => '?').join(',')})`).run(...keys);
        return { data: { key, cleared: info.changes }, text: `cleared ${info.changes} counter(s) of ${key}` };
      } finally {
        sqlite.close();
      }
    },
  },
  'user:withdpwd-reset': {
    usage: 'user:withdpwd-reset EMAIL',
    summary: 'Remove a forgotten withdrawal (payment) password after checking who asks; the user sets a new one with the login password',
    async run({ db, clock }, args) {
      const user = await userByEmail(db, arg(args, 0, 'EMAIL'));
      const now = clock.now();
      await writeTx(db, async (tx, w) => {
        await tx.updateTable('users').set({ withdraw_password_hash: null, trade_fails: 0, updated_at: now }).where('id', '=', user.id).execute();
        await publish(w, { type: 'invalidate', tables: ['user'] }, user.id, now);
      });
      return {
        data: { id: user.id, email: user.email, withdraw_password: 'unset' },
        text: `payment password of ${user.email} removed; they set a new one in the app`,
        audit: { target: `user:${user.id}`, before: { withdraw_password: user.withdraw_password_hash ? 'set' : 'unset' }, after: { withdraw_password: 'unset' } },
      };
    },
  },
  'user:risk': {
    usage: 'user:risk EMAIL on|off',
    summary: 'Set or clear the risk flag (a risk account cannot order or withdraw)',
    async run({ db, clock }, args) {
      const user = await userByEmail(db, arg(args, 0, 'EMAIL'));
      const mode = arg(args, 1, 'on|off');
      if (mode !== 'on' && mode !== 'off') throw new UsageError(`expected on or off, got "${mode}"`);
      await db.updateTable('users').set({ risk: mode === 'on' ? 1 : 0, updated_at: clock.now() }).where('id', '=', user.id).execute();
      await publish(db, { type: 'invalidate', tables: ['user'] }, user.id, clock.now());
      return {
        data: { id: user.id, email: user.email, risk: mode === 'on' },
        text: `risk ${mode} for ${user.email}`,
        audit: { target: `user:${user.id}`, before: { risk: user.risk === 1 }, after: { risk: mode === 'on' } },
      };
    },
  },
  'user:grade': {
    usage: 'user:grade EMAIL N',
    summary: 'Set the membership grade P0..P5',
    async run({ db, clock }, args) {
      const user = await userByEmail(db, arg(args, 0, 'EMAIL'));
      const text = arg(args, 1, 'N');
      if (!/^[0-5]$/.test(text)) throw new UsageError(`grade must be 0 to 5, got "${text}"`);
      await db.updateTable('users').set({ grade: Number(text), updated_at: clock.now() }).where('id', '=', user.id).execute();
      await publish(db, { type: 'invalidate', tables: ['user'] }, user.id, clock.now());
      return {
        data: { id: user.id, email: user.email, grade: Number(text) },
        text: `${user.email} is now P${text}`,
        audit: { target: `user:${user.id}`, before: { grade: user.grade }, after: { grade: Number(text) } },
      };
    },
  },
  'project:create': {
    usage: 'project:create FILE.json',
    summary: 'Create a project from a JSON file (see docs/operations.md for the fields)',
    async run({ db, clock }, args) {
      const input = validate(projectCreateSchema, readJsonFile(arg(args, 0, 'FILE.json')), 'project');
      const selling = Date.parse(input.selling_time);
      const end = Date.parse(input.end_time);
      if (!(end > selling)) throw new UsageError('end_time must be after selling_time');
      if (input.max_tons < input.min_tons) throw new UsageError('max_tons must be at least min_tons');
      if (input.status === 'presale' && input.presale_price === null) throw new UsageError('a presale project needs presale_price');
      checkReductionPeriod(input);
      const now = clock.now();
      const row = await db
        .insertInto('projects')
        .values({ ...input, remaining_tons: input.total_tons, selling_time: selling, end_time: end, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      await publish(db, { type: 'invalidate', tables: ['projects'], ids: [row.id] }, null, now);
      return {
        data: { id: row.id, name: row.name, status: row.status },
        text: `created project #${row.id} ${row.name} (${row.status})`,
        audit: { target: `project:${row.id}`, before: null, after: row },
      };
    },
  },
  'project:status': {
    usage: `project:status ID ${PROJECT_STATUSES.join('|')}`,
    summary: 'Move a project to a status; open apps update through the socket',
    async run({ db, clock }, args) {
      const id = positiveInt(arg(args, 0, 'ID'), 'ID');
      const status = arg(args, 1, 'STATUS');
      if (!(PROJECT_STATUSES as readonly string[]).includes(status)) throw new UsageError(`status must be one of ${PROJECT_STATUSES.join(', ')}`);
      const now = clock.now();
      const result = await writeTx(db, async (tx, w) => {
        const before = await tx.selectFrom('projects').select(['id', 'status']).where('id', '=', id).executeTakeFirst();
        if (!before) throw new OpsError(`no project #${id}`);
        // Statuses only move forward (docs/product.md#states: pending review -> presale -> in progress ->
        // closed).
        if (!STATUS_MOVES[before.status].includes(status)) {
          throw new OpsError(`project #${id} cannot move from ${before.status} to ${status} (allowed: ${STATUS_MOVES[before.status].join(', ') || 'none'})`);
        }
        // Open pre-sale bookings hold users' booking fees: allocate (or let them expire) before closing.
        if (status === 'closed') {
          const open = await tx
            .selectFrom('orders')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('project_id', '=', id)
            .where('status', 'in', ['applying', 'pending_final_payment'])
            .executeTakeFirstOrThrow();
          if (Number(open.n) > 0) throw new OpsError(`project #${id} has ${open.n} open pre-sale booking(s): allocate them and let final payments finish first`);
        }
        await tx
          .updateTable('projects')
          .set({ status: status as (typeof PROJECT_STATUSES)[number], updated_at: now })
          .where('id', '=', id)
          .execute();
        await publish(w, { type: 'invalidate', tables: ['projects'], ids: [id] }, null, now);
        return { id, from: before.status, to: status };
      });
      return { data: result, text: `project #${id}: ${result.from} -> ${result.to}`, audit: { target: `project:${id}`, before: { status: result.from }, after: { status: result.to } } };
    },
  },
  'news:publish': {
    usage: 'news:publish FILE.json',
    summary: 'Publish a news item from a JSON file',
    async run({ db, clock }, args) {
      const input = validate(newsPublishSchema, readJsonFile(arg(args, 0, 'FILE.json')), 'news item');
      const now = clock.now();
      const row = await db
        .insertInto('news')
        .values({
          title: input.title,
          title_cn: input.title_cn,
          summary: input.summary,
          summary_cn: input.summary_cn,
          body: input.body,
          body_cn: input.body_cn,
          image: input.image,
          published_at: input.published_at ? Date.parse(input.published_at) : now,
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await publish(db, { type: 'invalidate', tables: ['news'], ids: [row.id] }, null, now);
      return { data: { id: row.id, title: row.title }, text: `published news #${row.id} ${row.title}`, audit: { target: `news:${row.id}`, before: null, after: row } };
    },
  },
  'ledger:check': {
    usage: 'ledger:check',
    summary: 'Recompute every balance from its fund logs, check the ledger sums to zero, retirements against their serials and accounts, and what each project promised against what it holds on its registry',
    async run({ db }) {
      const report = await checkLedger(db);
      if (!report.ok) {
        const lines = [
          ...report.problems.map((p) => `account #${p.account_id} (owner ${p.owner_id}, ${terminalValue(p.name)}): balance ${p.balance} but fund logs sum to ${p.sum_of_logs}`),
          ...report.retirement_problems,
          ...report.holding_problems,
        ];
        const totals = Object.entries(report.totals).map(([u, t]) => `${u} total ${t}`);
        throw Object.assign(new OpsError(`ledger check FAILED\n  ${[...lines, ...totals].join('\n  ')}`), { data: report });
      }
      return {
        data: report,
        text: `ledger ok: every balance equals its fund logs; totals ${JSON.stringify(report.totals)}; retirements: retired tons = serials allocated = retirement accounts per project, no serial twice; registry: every project promised no more than it holds`,
      };
    },
  },
};
