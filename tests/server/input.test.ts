// Input is well-formed or refused (docs/product.md#validation): prototype keys never supply or shadow a
// field, strings must be well-formed UTF-16, money and account writes refuse unknown fields; every refusal is
// in the user's language and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, PATHS } from '../../src/shared/api';
import { refusal, startTestServer, type TestServer } from '../helpers/server';
import { newKey, newUser, walletSnapshot, WALLET_ENV, type WalletUser } from './wallet-helpers';

let s: TestServer;
let u: WalletUser;
beforeAll(async () => {
  s = await startTestServer(WALLET_ENV);
  u = await newUser(s);
});
afterAll(async () => {
  await s.close();
});

/** POSTs a raw JSON text (so it can hold what JSON.stringify would not write). */
async function postText(p: string, text: string) {
  const res = await fetch(s.url + API_BASE + p, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: u.token, 'Idempotency-Key': newKey() },
    body: text,
  });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: unknown } };
}

async function expectNothingChanged(call: () => Promise<{ status: number; body: { code: number; msg: string; data: unknown } }>, key: Parameters<typeof refusal>[0], lang: 'en' | 'cn', field?: string) {
  const before = await walletSnapshot(s.db);
  const res = await call();
  expect(res.status).toBe(200);
  expect({ code: res.body.code, msg: res.body.msg }).toEqual(refusal(key, lang));
  if (field) expect(res.body.data).toEqual({ field });
  expect(await walletSnapshot(s.db)).toEqual(before);
}

describe('prototype keys', () => {
  it('a __proto__ object cannot supply the missing amount of a top-up', async () => {
    for (const lang of ['en', 'cn'] as const) {
      await expectNothingChanged(() => postText(PATHS.walletTopup, `{"__proto__":{"amount":777700},"method":"bank","reference":"R","lang":"${lang}"}`), 'invalid_request', lang, '__proto__');
    }
    expect(await s.db.selectFrom('topups').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
  });

  it('constructor and prototype keys are refused, at the top and nested', async () => {
    await expectNothingChanged(() => postText(PATHS.walletTopup, '{"amount":5000,"method":"bank","reference":"R","constructor":{"x":1}}'), 'invalid_request', 'en', 'constructor');
    await expectNothingChanged(() => postText(PATHS.walletTopup, '{"amount":5000,"method":"bank","reference":"R","prototype":1}'), 'invalid_request', 'en', 'prototype');
    await expectNothingChanged(
      () => postText(PATHS.userProfile, '{"first_name":{"__proto__":{"x":1}},"last_name":"Tan","mobile":"91234567","ic_number":"S1234567D"}'),
      'invalid_request',
      'en',
      'first_name',
    );
  });

  it('a query-string __proto__ is refused too', async () => {
    const res = await fetch(`${s.url}${API_BASE}${PATHS.walletFundlogs}?__proto__=x`, { headers: { Authorization: u.token } });
    const body = (await res.json()) as { code: number };
    expect(body.code).toBe(refusal('invalid_request').code);
  });
});

describe('well-formed text', () => {
  it('a lone surrogate in a name is refused in the user\'s language, and nothing is stored', async () => {
    for (const lang of ['en', 'cn'] as const) {
      await expectNothingChanged(
        () => postText(PATHS.userProfile, `{"first_name":"Mei\\ud800","last_name":"Tan","mobile":"91234567","ic_number":"S1234567D","lang":"${lang}"}`),
        'text_malformed',
        lang,
        'first_name',
      );
    }
    const row = await s.db.selectFrom('users').select('first_name').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.first_name).toBe('Mei Ling');
  });

  it('a lone low surrogate in a key is refused', async () => {
    await expectNothingChanged(() => postText(PATHS.walletTopup, '{"amount":5000,"method":"bank","reference":"R","\\udc00":1}'), 'text_malformed', 'en');
  });

  it('well-formed astral characters (emoji, CJK extension B) are kept', async () => {
    const res = await postText(PATHS.userProfile, JSON.stringify({ first_name: 'Mei 😀', last_name: '𠮷田', mobile: '91234567', ic_number: 'S1234567D' }));
    expect(res.body.code).toBe(0);
    await postText(PATHS.userProfile, JSON.stringify({ first_name: 'Mei Ling', last_name: 'Tan', mobile: '91234567', ic_number: 'S1234567D' }));
  });
});

describe('strict money and account writes', () => {
  it('an unknown field on a top-up or withdrawal is refused, naming it', async () => {
    await expectNothingChanged(() => postText(PATHS.walletTopup, '{"amount":5000,"method":"bank","reference":"R","bonus":100}'), 'invalid_request', 'en', 'bonus');
    await expectNothingChanged(() => postText(PATHS.walletWithdraw, '{"amount":5000,"password":"x","fee":0}'), 'invalid_request', 'en', 'fee');
    await expectNothingChanged(() => postText(PATHS.orderBuy, '{"project_id":1,"tons":1,"password":"x","price":1}'), 'invalid_request', 'en', 'price');
  });

  it('truncated and non-object bodies are refused; a huge one is 413', async () => {
    await expectNothingChanged(() => postText(PATHS.walletTopup, '{"amount":5000,"method":"ba'), 'invalid_request', 'en');
    await expectNothingChanged(() => postText(PATHS.walletTopup, '[1,2]'), 'invalid_request', 'en');
    const huge = await fetch(s.url + API_BASE + PATHS.walletTopup, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: u.token, 'Idempotency-Key': newKey() },
      body: JSON.stringify({ amount: 5000, method: 'bank', reference: 'x'.repeat(200_000) }),
    });
    expect(huge.status).toBe(413);
  });
});
