// Saved carbon footprints (docs/product.md#carbon-footprint): POST /h5/api/api/user/footprint recomputes the
// result from the answers (a total sent by the client is never used), is idempotent per Idempotency-Key,
// refuses bad input with the catalogue message in en and cn and writes nothing; GET lists the caller's
// results, newest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, PATHS } from '../../src/shared/api';
import { computeFootprint } from '../../src/shared/footprint/compute';
import FACTORS from '../../src/shared/footprint/factors.json';
import { footprintAnswersSchema, type FootprintRecord } from '../../src/shared/schemas/footprint';
import * as v from 'valibot';
import type { ErrorKey, Lang } from '../../src/shared/errors';
import { refusal, startTestServer, type Envelope, type TestServer } from '../helpers/server';
import { LANGS, newKey, newUser, ok, WALLET_ENV, write, type WalletUser } from './wallet-helpers';

/** The family of four of tests/shared/footprint.test.ts: 8,412 kg by hand. */
const FAMILY = {
  electricity_input: 'kwh',
  electricity_kwh_month: 400,
  household_size: 4,
  car_km_week: 100,
  car_fuel: 'petrol',
  taxi_km_week: 20,
  bus_trips_week: 10,
  mrt_trips_week: 10,
  flights_short_year: 2,
  flights_long_year: 1,
  diet: 'medium_meat',
  clothing_cents_month: 10_000,
  electronics_cents_month: 5_000,
  household_goods_cents_month: 5_000,
};

const PATH = PATHS.userFootprint;

let s: TestServer;
let u: WalletUser;
beforeAll(async () => {
  s = await startTestServer(WALLET_ENV);
  u = await newUser(s, { ready: false, tag: 'footprint' });
});
afterAll(async () => {
  await s?.close();
});

const rows = (userId?: number) => {
  let q = s.db.selectFrom('footprints').selectAll().orderBy('id');
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  return q.execute();
};
const keyRows = () => s.db.selectFrom('idempotency_keys').selectAll().orderBy('id').execute();

/** The same refusal in en and cn, with no footprint and no idempotency key written. */
async function expectRefused(key: ErrorKey, call: (lang: Lang) => Promise<Envelope>, field?: string) {
  for (const lang of LANGS) {
    const [before, keysBefore] = [await rows(), await keyRows()];
    const res = await call(lang);
    expect({ code: res.code, msg: res.msg }, `${key} in ${lang}`).toEqual(refusal(key, lang));
    if (field) expect(res.data).toEqual({ field });
    expect(await rows()).toEqual(before);
    expect(await keyRows()).toEqual(keysBefore);
  }
}

describe('POST /api/user/footprint', () => {
  it('is mounted at exactly /h5/api/api/user/footprint', () => {
    expect(API_BASE + PATH).toBe('/h5/api/api/user/footprint');
  });

  it('saves the answers and the result it computes itself', async () => {
    s.clock.set(Date.UTC(2026, 2, 2, 2, 0, 0));
    const res = await write(s, PATH, FAMILY, u);
    const saved = ok(res) as FootprintRecord;
    expect(saved).toMatchObject({
      total_kg: 8412,
      total_tonnes: 8.4,
      breakdown: { home_energy: 494, transport: 1418, flights: 3330, diet: 2570, consumption: 600 },
      sg_average_kg: 10_600,
      ratio_to_sg_average: 0.79,
      factors_version: FACTORS.version,
      created_at_ms: Date.UTC(2026, 2, 2, 2, 0, 0),
      created_at: '2026-03-02T10:00:00.000+08:00',
    });
    expect(saved.answers).toEqual(v.parse(footprintAnswersSchema, FAMILY));
    expect(saved.id).toBeGreaterThan(0);

    const [row] = await rows(u.id);
    expect(row).toMatchObject({ id: saved.id, user_id: u.id, total_kg: 8412, factors_version: FACTORS.version });
    expect(JSON.parse(row!.answers)).toEqual(JSON.parse(JSON.stringify(saved.answers)));
    expect(JSON.parse(row!.breakdown)).toEqual(saved.breakdown);
  });

  it('ignores a total sent by the client and recomputes it from the answers', async () => {
    const before = (await rows(u.id)).length;
    const saved = ok(await write(s, PATH, { ...FAMILY, total_kg: 1 }, u)) as FootprintRecord;
    expect(saved.total_kg).toBe(8412);
    const cheap = ok(await write(s, PATH, { ...FAMILY, diet: 'vegan', total_kg: 999_999 }, u)) as FootprintRecord;
    expect(cheap.total_kg).toBe(computeFootprint(v.parse(footprintAnswersSchema, { ...FAMILY, diet: 'vegan' })).total_kg);
    expect(cheap.total_kg).toBe(8412 - 2570 + 902);
    const after = await rows(u.id);
    expect(after).toHaveLength(before + 2);
    expect(after.map((r) => r.total_kg).slice(-2)).toEqual([8412, 8412 - 2570 + 902]);
    // The stored answers are the parsed answers, without the client's figure.
    expect(JSON.parse(after.at(-1)!.answers)).not.toHaveProperty('total_kg');
  });

  it('a bill in S$ gives the same home energy as its kWh', async () => {
    const saved = ok(
      await write(s, PATH, { ...FAMILY, electricity_input: 'bill', electricity_kwh_month: undefined, electricity_bill_cents_month: 13_032 }, u),
    ) as FootprintRecord;
    // S$130.32 / 0.3258 = 400 kWh: the same 494 kg as the family's 400 kWh.
    expect(saved.breakdown.home_energy).toBe(494);
    expect(saved.total_kg).toBe(8412);
  });

  it('refuses bad answers with the catalogue message in en and cn, writing nothing', async () => {
    const post = (data: Record<string, unknown>) => (lang: Lang) => write(s, PATH, data, u, { lang });
    await expectRefused('footprint_household_size', post({ ...FAMILY, household_size: 0 }), 'household_size');
    await expectRefused('footprint_out_of_range', post({ ...FAMILY, car_km_week: -5 }), 'car_km_week');
    await expectRefused('footprint_out_of_range', post({ ...FAMILY, flights_long_year: 10_000 }), 'flights_long_year');
    await expectRefused('invalid_number', post({ ...FAMILY, taxi_km_week: 'lots' }), 'taxi_km_week');
    await expectRefused('footprint_diet', post({ ...FAMILY, diet: 'carnivore' }), 'diet');
    await expectRefused('required', post({ ...FAMILY, diet: undefined }), 'diet');
    await expectRefused('footprint_car_fuel', post({ ...FAMILY, car_fuel: 'none' }), 'car_fuel');
    await expectRefused('footprint_electricity_required', post({ ...FAMILY, electricity_input: 'bill' }), 'electricity_bill_cents_month');
    // Unknown fields are refused, naming them, never silently dropped (a misspelt answer would count 0).
    await expectRefused('invalid_request', post({ ...FAMILY, car_km_wk: 300 }), 'car_km_wk');
  });

  it('refuses __proto__, lone surrogates and huge bodies like every other write', async () => {
    const postText = (text: string, lang: Lang = 'en') =>
      fetch(s.url + API_BASE + PATH, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: u.token, 'Idempotency-Key': newKey() },
        body: text.replace(/^\{/, `{"lang":"${lang}",`),
      });
    const body = JSON.stringify(FAMILY);
    for (const lang of LANGS) {
      const before = await rows();
      const proto = await postText(body.replace(/^\{/, '{"__proto__":{"household_size":1},'), lang);
      expect(await proto.json()).toMatchObject({ ...refusal('invalid_request', lang), data: { field: '__proto__' } });
      const lone = await postText(body.replace('"medium_meat"', '"medium_meat\\ud800"'), lang);
      expect(await lone.json()).toMatchObject({ ...refusal('text_malformed', lang), data: { field: 'diet' } });
      const huge = await postText(JSON.stringify({ ...FAMILY, note: 'x'.repeat(200_000) }), lang);
      expect(huge.status).toBe(413);
      expect(await rows()).toEqual(before);
    }
  });

  it('needs a signed-in user: visitors get guest_forbidden, no session session_expired', async () => {
    const visitor = ok(await s.api('POST', PATHS.visitor)) as { token: string };
    await expectRefused('guest_forbidden', (lang) => write(s, PATH, FAMILY, visitor.token, { lang }));
    await expectRefused('guest_forbidden', (lang) => s.api('GET', PATH, {}, { token: visitor.token, lang }));
    await expectRefused('session_expired', (lang) => s.api('POST', PATH, FAMILY, { lang, idempotencyKey: newKey() }));
  });

  it('needs an Idempotency-Key', async () => {
    await expectRefused('invalid_request', (lang) => s.api('POST', PATH, FAMILY, { token: u.token, lang }), 'Idempotency-Key');
  });
});

describe('Idempotency-Key', () => {
  it('the same key twice saves one row and answers the same', async () => {
    const key = newKey();
    const before = (await rows(u.id)).length;
    const first = await write(s, PATH, FAMILY, u, { key });
    const res = await s.raw('POST', PATH, {
      headers: { Authorization: u.token, 'Idempotency-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify(FAMILY),
    });
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    expect(await res.json()).toEqual(first);
    expect(await rows(u.id)).toHaveLength(before + 1);
  });

  it('ten sends at once with one key save one row', async () => {
    const key = newKey();
    const before = (await rows(u.id)).length;
    const results = await Promise.all(Array.from({ length: 10 }, () => write(s, PATH, FAMILY, u, { key })));
    const first = results.find((r) => r.code === 0)!;
    for (const r of results) expect(r).toEqual(first);
    expect(await rows(u.id)).toHaveLength(before + 1);
  });

  it('the same key with other answers is refused and saves nothing', async () => {
    const key = newKey();
    ok(await write(s, PATH, FAMILY, u, { key }));
    await expectRefused('idempotency_mismatch', (lang) => write(s, PATH, { ...FAMILY, diet: 'vegan' }, u, { key, lang }));
  });
});

describe('GET /api/user/footprint', () => {
  it('lists only the caller\'s results, newest first, paged', async () => {
    const me = await newUser(s, { ready: false, tag: 'footprint-list' });
    const other = await newUser(s, { ready: false, tag: 'footprint-other' });
    ok(await write(s, PATH, FAMILY, other));
    const saved: FootprintRecord[] = [];
    for (const diet of ['heavy_meat', 'vegetarian', 'vegan']) {
      s.clock.advance(60_000);
      saved.push(ok(await write(s, PATH, { ...FAMILY, diet }, me)) as FootprintRecord);
    }

    const all = ok(await s.api('GET', PATH, {}, { token: me.token })) as { list: FootprintRecord[]; total: number; page: number; page_size: number };
    expect(all.total).toBe(3);
    expect(all.page).toBe(1);
    expect(all.list.map((r) => r.id)).toEqual(saved.map((r) => r.id).reverse());
    expect(all.list.map((r) => r.answers.diet)).toEqual(['vegan', 'vegetarian', 'heavy_meat']);
    // The list answers what the save answered.
    expect(all.list[0]).toEqual(saved[2]);

    const page2 = ok(await s.api('GET', PATH, { page: 2, page_size: 2 }, { token: me.token })) as { list: FootprintRecord[]; total: number; page: number; page_size: number };
    expect(page2).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(page2.list.map((r) => r.id)).toEqual([saved[0]!.id]);

    const none = ok(await s.api('GET', PATH, {}, { token: (await newUser(s, { ready: false, tag: 'footprint-none' })).token })) as { list: unknown[]; total: number };
    expect(none).toMatchObject({ list: [], total: 0 });
  });

  it('refuses a bad page in en and cn', async () => {
    await expectRefused('invalid_request', (lang) => s.api('GET', PATH, { page: 0 }, { token: u.token, lang }), 'page');
  });
});

describe('OpenAPI', () => {
  it('documents both operations', async () => {
    const doc = (await (await s.raw('GET', PATHS.openapi)).json()) as { paths: Record<string, Record<string, { summary: string }>> };
    const ops = doc.paths[API_BASE + PATH];
    expect(Object.keys(ops ?? {}).sort()).toEqual(['get', 'post']);
  });
});
