// The public API (/api/public: certificates, transparency) answers anyone, so each address has a budget:
// PUBLIC_REQUESTS_PER_IP_PER_MINUTE (lib/limits.ts public_ip). Past it, the throttle refusal every other
// limit gives (HTTP 429, code 1004 too_many_requests in the caller's language, Retry-After, held back
// THROTTLE_DELAY_MS); another address is not affected, nor are the other public lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/shared/errors';
import { PATHS } from '../../src/shared/api';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
const LIMIT = 5;

beforeAll(async () => {
  s = await startTestServer({ TRUST_PROXY: '1', PUBLIC_REQUESTS_PER_IP_PER_MINUTE: String(LIMIT), THROTTLE_DELAY_MS: '200' });
});
afterAll(async () => {
  await s?.close();
});

const from = (address: string, p: string, query = '') => s.raw('GET', p, { headers: { 'X-Forwarded-For': address }, query });

describe('the public API per address', () => {
  it('refuses past the limit from one address, with the throttle refusal, and not from another', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await from('203.0.113.7', PATHS.publicTransparency)).status).toBe(200);

    const t0 = performance.now();
    const refused = await from('203.0.113.7', PATHS.publicTransparency, 'lang=cn');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190); // held back like every throttle's answer
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    const body = (await refused.json()) as { code: number; msg: string };
    expect(body.code).toBe(ERRORS.too_many_requests.code);
    expect(body.msg).toBe(ERRORS.too_many_requests.cn);
    // Every public route shares the budget.
    expect((await from('203.0.113.7', PATHS.publicCertificate.replace(':id', 'AAAAAAAAAAAAAAAAAAAAAA'))).status).toBe(429);

    // Another address has its own budget; the lists outside /api/public have none of this.
    expect((await from('203.0.113.8', PATHS.publicTransparency)).status).toBe(200);
    expect((await from('203.0.113.7', PATHS.projectLists)).status).toBe(200);
  });
});
