// A fund log line names what it belongs to in both languages (docs/product.md#wallet-and-ledger): an order's
// lines their order number and project, a retirement's line its project, since the memo is English only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/shared/api';
import type { FundLogRow } from '../../src/shared/schemas/wallet';
import { startTestServer, type TestServer } from '../helpers/server';
import { holder, retireApi } from './retire-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

describe('fund log lines', () => {
  it("name a retirement's project in English and Chinese, without an order number", async () => {
    const h = await holder(s, 3, { name: 'Names Forest', name_cn: '名称森林' });
    const res = await retireApi(s).retire(h.u, { project_id: h.pid, tons: 2 });
    expect(res.code, res.msg).toBe(0);
    const page = await s.api<{ list: FundLogRow[] }>('GET', PATHS.walletFundlogs, { page: 1, page_size: 20 }, { token: h.u.token });
    const retired = page.data.list.find((r) => r.kind === 'credit_retire')!;
    expect(retired).toMatchObject({ project_id: h.pid, project_name: 'Names Forest', project_name_cn: '名称森林', order_no: null });
    const bought = page.data.list.find((r) => r.kind === 'order_buy')!;
    expect(bought).toMatchObject({ project_id: h.pid, project_name: 'Names Forest', order_no: expect.stringMatching(/^B\d+$/) });
  });
});
