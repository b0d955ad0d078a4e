// Helpers of the retirement suites: users holding credits of a project (bought over HTTP, the
// cycle completed by the scheduler), the retire endpoints, and the state a refused retirement must leave.
import { expect } from 'vitest';
import type { Insertable } from 'kysely';
import { runDueWork } from '../../src/server/scheduler/scheduler';
import type { ProjectsTable } from '../../src/server/db/schema';
import { appendOnly, dropAppendOnly } from '../../src/server/db/dialect';
import { PATHS } from '../../src/shared/api';
import type { ErrorKey, Lang, MessageParams } from '../../src/shared/errors';
import { MIN, refusal, type Envelope, type TestServer } from '../helpers/server';
import { LANGS, makeProject, makeUser, marketSnapshot, newKey, orderApi, TRADE_PASSWORD, type MarketUser } from './market-helpers';

export { LANGS, TRADE_PASSWORD, newKey };

/** The evidence pack of a period (dates as YYYY-MM-DD) as its owner downloads it: the file's bytes. */
export async function evidencePack(s: TestServer, token: string, period: { from: string; to: string }, format: 'csv' | 'pdf', lang: Lang = 'en'): Promise<Uint8Array> {
  const res = await s.raw('GET', PATHS.iccPack, { headers: { Authorization: token }, query: new URLSearchParams({ ...period, format, lang }).toString() });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** A retirable project: registry, registry ID, vintage and country set; cycle of one minute. */
export function makeRetirableProject(s: TestServer, o: Parameters<typeof makeProject>[1] = {}): Promise<number> {
  return makeProject(s, {
    registry: 'Verra',
    registry_id: `VCS-${1000 + Math.floor(Math.random() * 9000)}`,
    methodology: 'VM0007 REDD+',
    vintage: 2024,
    country: 'Malaysia',
    cycle_value: 1,
    cycle_unit: 'minutes',
    max_tons: 1000,
    ...o,
  });
}

/** Buys `tons` of the project for the user and completes the cycle: the tons are held. */
export async function giveCredits(s: TestServer, u: MarketUser, projectId: number, tons: number): Promise<void> {
  const res = await orderApi(s).buy(u, projectId, tons);
  expect(res.code, res.msg).toBe(0);
  s.clock.advance(MIN);
  await runDueWork(s.running.deps);
  const held = await s.db.selectFrom('credit_holdings').select('tons').where('user_id', '=', u.id).where('project_id', '=', projectId).where('origin', '=', 'purchase').executeTakeFirst();
  expect(held?.tons ?? 0).toBeGreaterThanOrEqual(tons);
}

/** A user with money and `tons` held of a fresh retirable project. */
export async function holder(s: TestServer, tons: number, project: Partial<Insertable<ProjectsTable>> = {}, user: Parameters<typeof makeUser>[1] = {}) {
  const u = await makeUser(s, { cents: tons * 1000 + 100_000, ...user });
  const pid = await makeRetirableProject(s, project);
  if (tons > 0) await giveCredits(s, u, pid, tons);
  return { u, pid };
}

export interface RetireBody {
  project_id: number;
  tons: number | string;
  beneficiary?: unknown;
  reason?: unknown;
  hide_beneficiary?: unknown;
  paypwd?: string;
  icc_year?: unknown;
}

export function retireApi(s: TestServer) {
  return {
    retire: (u: { token: string }, body: RetireBody, opts: { lang?: Lang; key?: string } = {}) =>
      s.api('POST', PATHS.creditRetire, { beneficiary: 'Acme Pte Ltd', paypwd: TRADE_PASSWORD, ...body }, { token: u.token, lang: opts.lang, idempotencyKey: opts.key ?? newKey() }),
    list: (u: { token: string }, q: Record<string, unknown> = {}) => s.api('GET', PATHS.creditRetirements, q, { token: u.token }),
    certificate: (id: string, lang?: Lang) => s.api('GET', PATHS.publicCertificate.replace(':id', encodeURIComponent(id)), {}, { lang }),
    transparency: () => s.api('GET', PATHS.publicTransparency),
  };
}

/** Everything a refused retirement must leave as it was. */
export async function retireSnapshot(s: TestServer) {
  const [market, retirements, serials] = await Promise.all([
    marketSnapshot(s),
    s.db.selectFrom('retirements').selectAll().orderBy('id').execute(),
    s.db.selectFrom('retirement_serials').selectAll().orderBy('project_id').orderBy('first_seq').execute(),
  ]);
  return { ...market, retirements, serials };
}

/** A refusal in en and cn: code and message from the catalogue, and nothing changed. */
export async function expectRetireRefused(s: TestServer, key: ErrorKey, call: (lang: Lang) => Promise<Envelope>, params?: MessageParams): Promise<void> {
  for (const lang of LANGS) {
    const before = await retireSnapshot(s);
    const res = await call(lang);
    expect({ code: res.code, msg: res.msg }, `${key} in ${lang}`).toEqual(refusal(key, lang, params));
    expect(await retireSnapshot(s), `state changed on ${key} (${lang})`).toEqual(before);
  }
}

/**
 * Runs `tamper` with the append-only guards of the retirement tables lifted (migration 015), then puts them
 * back: only for tests that corrupt a retirement on purpose to see ledger:check find it.
 */
export async function withRetirementsEditable(s: TestServer, tamper: () => Promise<unknown>): Promise<void> {
  const db = s.db as unknown as Parameters<typeof appendOnly>[0];
  for (const table of ['retirements', 'retirement_serials']) await dropAppendOnly(db, table);
  try {
    await tamper();
  } finally {
    for (const table of ['retirements', 'retirement_serials']) await appendOnly(db, table);
  }
}
