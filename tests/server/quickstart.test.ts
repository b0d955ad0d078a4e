// The quickstart of docs/integrators.md, run as written against a real server: a test key created
// through the app's API with a session, then the typed client's quote, order and retirement
// (src/client-sdk/quickstart.ts, which the page must show verbatim).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { offsetOneOrder } from '../../src/client-sdk/quickstart';
import { canopyClient } from '../../src/client-sdk/canopy';
import { REPO_ROOT, startTestServer, type TestServer } from '../helpers/server';
import { makeProject, makeUser, TRADE_PASSWORD } from './market-helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

it('docs/integrators.md shows the quickstart code the suite runs', () => {
  const code = fs.readFileSync(path.join(REPO_ROOT, 'src/client-sdk/quickstart.ts'), 'utf8');
  const block = code.split('// quickstart:begin\n')[1]!.split('// quickstart:end')[0]!;
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs/integrators.md'), 'utf8');
  expect(doc).toContain('```ts\n' + block + '```');
});

it('creates a test key, quotes, orders and retires with the typed client', async () => {
  const u = await makeUser(s);
  const pid = await makeProject(s, { registry_id: 'VCS-1042', vintage: 2024 });
  const created = await fetch(`${s.url}/h5/api/api/developer/keys`, {
    method: 'POST',
    headers: { Authorization: u.token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Checkout', mode: 'test', scopes: ['read', 'buy', 'retire'], password: TRADE_PASSWORD }),
  }).then((r) => r.json() as Promise<{ code: number; data: { key: string } }>);
  expect(created.code).toBe(0);

  const { quote, order, retirement } = await offsetOneOrder(`${s.url}/v1`, created.data.key, pid);
  expect(quote).toMatchObject({ mode: 'test', tons: 2, total: 2000 });
  expect(order).toMatchObject({ mode: 'test', status: 'completed', tons: 2 });
  expect(retirement).toMatchObject({ mode: 'test', test: true, tons: 2, certificate_url: null });

  const canopy = canopyClient({ baseUrl: `${s.url}/v1`, key: created.data.key, language: 'zh' });
  const balance = await canopy.GET('/balance');
  expect(balance.data).toEqual({ object: 'balance', mode: 'test', available: 1_000_000 - 2000, credits: 0, currency: 'SGD' });
  const missing = await canopy.GET('/orders/{id}', { params: { path: { id: 'ord_test_999999' } } });
  expect(missing.response.status).toBe(404);
  expect(missing.error).toMatchObject({ code: 3206, detail: '资源不存在。' });
});
