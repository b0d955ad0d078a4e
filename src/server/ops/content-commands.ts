import * as v from 'valibot';
import { sql, type Updateable } from 'kysely';
import { writeTx } from '../db/tx';
import { publish } from '../live/events';
import { notify, queuePushes } from '../live/notices';
import type { NewsTable, ProjectsTable } from '../db/schema';
import { newsPublishSchema, projectCreateSchema } from '../../shared/schemas/content';
import { checkReductionPeriod, OpsError, readJsonFile, userByEmail, validate, type Command } from './commands';
import { arg, limitFlag, positiveInt, textFlag, UsageError } from './args';
import { registryOfProject } from '../modules/registry/inventory';

// Operator content tools (docs/product.md#operators): edit projects and news, withdraw a news item, send a
// notice, and read the audit every change leaves (operator_log: who, when, which command, the row, before and
// after).

/** An edit names only the fields it changes; an unknown field (a typo) is refused, not ignored. Status
 *  moves through project:status (its rules), and the sold tons follow from orders, never from a file. */
const { status: _status, ...projectFields } = projectCreateSchema.entries;
const projectEditSchema = v.strictObject(v.partial(v.object(projectFields)).entries);
const newsEditSchema = v.strictObject(v.partial(newsPublishSchema).entries);
const noticeSchema = v.strictObject({
  title: v.pipe(v.string(), v.trim(), v.nonEmpty('title is required'), v.maxLength(140, 'title: at most 140 characters')),
  title_cn: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(140)), ''),
  body: v.pipe(v.string(), v.trim(), v.nonEmpty('body is required'), v.maxLength(2000, 'body: at most 2000 characters')),
  body_cn: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2000)), ''),
});

function changedFields<T extends object>(before: T, patch: Partial<T>): { before: Partial<T>; after: Partial<T> } {
  const b: Partial<T> = {};
  const a: Partial<T> = {};
  for (const key of Object.keys(patch) as Array<keyof T>) {
    if (before[key] !== patch[key]) {
      b[key] = before[key];
      a[key] = patch[key];
    }
  }
  return { before: b, after: a };
}

/** Whether an edit names another registry, or another registry project number, than the project did. */
function movesRegistry(before: { registry: string; registry_id: string }, after: { registry: string; registry_id: string }): boolean {
  const registry = (text: string) => registryOfProject(text) ?? text.trim().toLowerCase();
  const number = (text: string) => text.replace(/\D/g, '').replace(/^0+/, '');
  return registry(before.registry) !== registry(after.registry) || number(before.registry_id) !== number(after.registry_id);
}

const ms = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));

export const CONTENT_COMMANDS: Record<string, Command> = {
  'project:edit': {
    usage: 'project:edit ID FILE.json',
    summary: 'Change some fields of a project (text, photo, dates, prices, limits, grade, supply); open apps update live',
    async run({ db, clock }, args) {
      const id = positiveInt(arg(args, 0, 'ID'), 'ID');
      const input = validate(projectEditSchema, readJsonFile(arg(args, 1, 'FILE.json')), 'project edit');
      if (Object.keys(input).length === 0) throw new UsageError('the file changes nothing: name at least one field');
      const now = clock.now();
      const { selling_time, end_time, ...rest } = input;
      const patch: Updateable<ProjectsTable> = { ...rest };
      if (selling_time !== undefined) patch.selling_time = ms(selling_time);
      if (end_time !== undefined) patch.end_time = ms(end_time);
      const result = await writeTx(db, async (tx, w) => {
        const before = await tx.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
        if (!before) throw new OpsError(`no project #${id}`);
        const merged = { ...before, ...patch };
        if (!(merged.end_time > merged.selling_time)) throw new UsageError('end_time must be after selling_time');
        if (merged.max_tons < merged.min_tons) throw new UsageError('max_tons must be at least min_tons');
        if (merged.status === 'presale' && merged.presale_price === null) throw new UsageError('a presale project needs presale_price');
        checkReductionPeriod(merged);
        if (before.status === 'closed') throw new OpsError(`project #${id} is closed; a closed project is not edited`);
        // Its blocks are units of one registry project: a project that holds them keeps naming that registry
        // and project, or it would sell and certify those units under another's name.
        if (movesRegistry(before, merged)) {
          const held = await tx.selectFrom('registry_blocks').select('id').where('project_id', '=', id).executeTakeFirst();
          if (held) throw new OpsError(`project #${id} holds registry blocks of ${before.registry} ${before.registry_id}; its registry and registry ID cannot change while it does`);
        }
        const delta = patch.total_tons === undefined ? 0 : patch.total_tons - before.total_tons;
        const { total_tons: _total, ...fields } = patch;
        // The supply moves the remaining tons by the same amount, in the one statement that checks it: tons
        // sold meanwhile (by orders on any instance) can never be un-sold by a smaller supply.
        const updated = await tx
          .updateTable('projects')
          .set({
            ...fields,
            ...(delta !== 0 ? { total_tons: sql<number>`total_tons + ${delta}`, remaining_tons: sql<number>`remaining_tons + ${delta}` } : {}),
            updated_at: now,
          })
          .where('id', '=', id)
          .where(sql<boolean>`remaining_tons + ${delta} >= 0`)
          .returningAll()
          .executeTakeFirst();
        if (!updated) {
          const sold = before.total_tons - before.remaining_tons;
          throw new OpsError(`project #${id}: ${sold} t are already sold or booked; total_tons cannot go below that`);
        }
        await publish(w, { type: 'invalidate', tables: ['projects'], ids: [id] }, null, now);
        const { list_rank: _r1, due_at: _d1, ...b } = before as typeof before & { due_at?: unknown };
        const { list_rank: _r2, due_at: _d2, ...a } = updated as typeof updated & { due_at?: unknown };
        return changedFields(b, a);
      });
      const names = Object.keys(result.after);
      return {
        data: { id, changed: result.after },
        text: names.length ? `project #${id}: changed ${names.join(', ')}` : `project #${id}: nothing changed`,
        audit: { target: `project:${id}`, before: result.before, after: result.after },
      };
    },
  },
  'news:edit': {
    usage: 'news:edit ID FILE.json',
    summary: 'Change some fields of a news item (text, photo, publication time)',
    async run({ db, clock }, args) {
      const id = positiveInt(arg(args, 0, 'ID'), 'ID');
      const input = validate(newsEditSchema, readJsonFile(arg(args, 1, 'FILE.json')), 'news edit');
      if (Object.keys(input).length === 0) throw new UsageError('the file changes nothing: name at least one field');
      const { published_at, ...rest } = input;
      const patch: Updateable<NewsTable> = { ...rest, ...(published_at !== undefined ? { published_at: ms(published_at) } : {}) };
      const now = clock.now();
      const result = await writeTx(db, async (tx, w) => {
        const before = await tx.selectFrom('news').selectAll().where('id', '=', id).executeTakeFirst();
        if (!before) throw new OpsError(`no news item #${id}`);
        const updated = await tx.updateTable('news').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
        await publish(w, { type: 'invalidate', tables: ['news'], ids: [id] }, null, now);
        return changedFields(before, updated);
      });
      const names = Object.keys(result.after);
      return {
        data: { id, changed: result.after },
        text: names.length ? `news #${id}: changed ${names.join(', ')}` : `news #${id}: nothing changed`,
        audit: { target: `news:${id}`, before: result.before, after: result.after },
      };
    },
  },
  'news:withdraw': {
    usage: 'news:withdraw ID',
    summary: 'Take a news item down (its full text stays in the audit; news:publish brings it back)',
    async run({ db, clock }, args) {
      const id = positiveInt(arg(args, 0, 'ID'), 'ID');
      const now = clock.now();
      const before = await writeTx(db, async (tx, w) => {
        const row = await tx.deleteFrom('news').where('id', '=', id).returningAll().executeTakeFirst();
        if (!row) throw new OpsError(`no news item #${id}`);
        await publish(w, { type: 'invalidate', tables: ['news'], ids: [id] }, null, now);
        return row;
      });
      return { data: { id, withdrawn: true }, text: `news #${id} withdrawn: ${before.title}`, audit: { target: `news:${id}`, before, after: null } };
    },
  },
  'notice:send': {
    usage: 'notice:send EMAIL|--all FILE.json',
    flags: ['all'],
    summary: 'Send a notice (title and body, English and Chinese) to one user or to every user; it arrives live',
    async run({ db, clock }, args) {
      const all = args.flags.all !== undefined;
      // `--all FILE.json`: the file is the flag's value; `--all` last leaves it positional.
      const file = typeof args.flags.all === 'string' ? args.flags.all : all ? arg(args, 0, 'FILE.json') : arg(args, 1, 'FILE.json');
      const text = validate(noticeSchema, readJsonFile(file), 'notice');
      const notice = { title: text.title, title_cn: text.title_cn || text.title, body: text.body, body_cn: text.body_cn || text.body };
      const now = clock.now();
      if (all) {
        const sent = await writeTx(db, async (tx, w) => {
          const rows = await tx
            .insertInto('notifications')
            .columns(['user_id', 'title', 'title_cn', 'body', 'body_cn', 'created_at'])
            .expression((eb) =>
              eb
                .selectFrom('users')
                .select((s) => ['id', s.val(notice.title).as('title'), s.val(notice.title_cn).as('title_cn'), s.val(notice.body).as('body'), s.val(notice.body_cn).as('body_cn'), s.val(now).as('created_at')]),
            )
            .returning('id')
            .execute();
          await queuePushes(w, rows.map((r) => r.id), now);
          // One message for every open app (id 0: each user's own row is read from the list).
          await publish(w, { type: 'notification', id: 0, ...notice, created_at: now }, null, now);
          await publish(w, { type: 'invalidate', tables: ['user'] }, null, now);
          return rows.length;
        });
        return { data: { to: 'all', users: sent }, text: `notice sent to ${sent} user(s)`, audit: { target: 'notice:all', before: null, after: { ...notice, users: sent } } };
      }
      const user = await userByEmail(db, arg(args, 0, 'EMAIL'));
      const id = await writeTx(db, async (_tx, w) => {
        const noticeId = await notify(w, user.id, notice, now);
        await publish(w, { type: 'invalidate', tables: ['user'] }, user.id, now);
        return noticeId;
      });
      return { data: { to: user.email, id }, text: `notice #${id} sent to ${user.email}`, audit: { target: `user:${user.id}`, before: null, after: { notice: id, ...notice } } };
    },
  },
  'audit:list': {
    usage: 'audit:list [--target project:ID|news:ID|user:ID|notice:all] [--limit N]',
    flags: ['target', 'limit'],
    summary: 'Operator changes, newest first: who, when, which command, what before and after',
    async run({ db }, args) {
      let q = db.selectFrom('operator_log').selectAll().where('target', '!=', '').orderBy('id', 'desc');
      const target = textFlag(args, 'target');
      if (target !== undefined) {
        if (!/^(project|news|user|notice):(\d{1,12}|all)$/.test(target)) throw new UsageError(`--target looks like project:12, news:3, user:7 or notice:all, got "${target}"`);
        q = q.where('target', '=', target);
      }
      const limit = limitFlag(args, 20);
      const rows = (await q.limit(Math.min(limit, 1000)).execute()).map((r) => ({
        id: r.id,
        at: new Date(r.created_at).toISOString(),
        actor: r.actor,
        command: r.command,
        ok: r.ok === 1,
        target: r.target,
        before: r.before === null ? null : (JSON.parse(r.before) as unknown),
        after: r.after === null ? null : (JSON.parse(r.after) as unknown),
      }));
      const text = rows.length
        ? rows.map((r) => `#${r.id} ${r.at} ${r.actor} ${r.command} ${r.target}\n  before ${JSON.stringify(r.before)}\n  after  ${JSON.stringify(r.after)}`).join('\n')
        : 'no operator changes';
      return { data: rows, text };
    },
  },
};
