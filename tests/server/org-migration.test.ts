// Migration 027: every corporate account that exists becomes an organisation (its company and UEN) with its
// login as owner; personal accounts stay as they are. down then up on a database with both kinds.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { down, up } from '../../src/server/db/migrations/027-organisations';
import * as m028 from '../../src/server/db/migrations/028-approvals';
import { registerUser, startTestServer, type TestServer } from '../helpers/server';
import { GENEROUS } from './org-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(GENEROUS);
  await s.running.scheduler.stop();
});
afterAll(async () => s?.close());

it('makes each corporate account an organisation owned by its login, and no personal one', async () => {
  const corp = await registerUser(s, `corp.${process.pid}@corp.example.sg`, { type: 'corporate', company: 'Old Corp Pte Ltd', uen: 'T09LL0001B' });
  const person = await registerUser(s, `person.${process.pid}@example.sg`);
  // The approvals (028) reference the organisations: down to before them, and up again.
  await m028.down(s.db as never);
  await down(s.db as never);
  await up(s.db as never);
  await m028.up(s.db as never);
  const orgs = await s.db.selectFrom('organisations').selectAll().execute();
  expect(orgs.map((o) => o.account_id)).toContain(corp.mem_id);
  expect(orgs.map((o) => o.account_id)).not.toContain(person.mem_id);
  expect(orgs.find((o) => o.account_id === corp.mem_id)).toMatchObject({ name: 'Old Corp Pte Ltd', uen: 'T09LL0001B', settings: '{}' });
  const members = await s.db.selectFrom('organisation_members').selectAll().where('account_id', '=', corp.mem_id).execute();
  expect(members).toEqual([expect.objectContaining({ user_id: corp.mem_id, role: 'owner' })]);
  const sessions = await s.db.selectFrom('sessions').select(['acting_for']).execute();
  expect(sessions.every((r) => r.acting_for === null)).toBe(true);
});
