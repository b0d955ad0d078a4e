// A certificate PDF is made on request and its typesetting holds the server's one thread for a good part
// of a second, so it takes a bigger share of the public API's budget per address than a JSON answer
// (docs/product.md#retirement): one address asking for the same PDF in a loop is refused long before it
// could keep the server busy, with the throttle refusal every public route gives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/shared/errors';
import { PATHS } from '../../src/shared/api';
import { startTestServer, type TestServer } from '../helpers/server';
import { holder, retireApi } from './retire-helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ TRUST_PROXY: '1', PUBLIC_REQUESTS_PER_IP_PER_MINUTE: '120', HASH_MAX_WAIT_MS: '60000' });
});
afterAll(async () => {
  await s?.close();
});

const from = (address: string, p: string) => s.raw('GET', p, { headers: { 'X-Forwarded-For': address } });

describe('the certificate PDF per address', () => {
  it('one address gets a dozen PDFs a minute at the default budget, then the throttle refusal', async () => {
    const { u, pid } = await holder(s, 3);
    const res = await retireApi(s).retire(u, { project_id: pid, tons: 1 });
    expect(res.code, res.msg).toBe(0);
    const pdf = PATHS.publicCertificatePdf.replace(':id', res.data.id as string);
    const statuses: number[] = [];
    for (let i = 0; i < 13; i++) {
      const r = await from('203.0.113.9', pdf);
      await r.arrayBuffer();
      statuses.push(r.status);
      if (r.status !== 200) break;
    }
    expect(statuses.filter((x) => x === 200)).toHaveLength(12);
    expect(statuses.at(-1)).toBe(429);
    const again = await from('203.0.113.9', pdf);
    expect(((await again.json()) as { code: number }).code).toBe(ERRORS.too_many_requests.code);
    // Another address has its own budget.
    expect((await from('203.0.113.10', pdf)).status).toBe(200);
  }, 120_000);
});
