// The activity export for finance (docs/product.md#organisations): one row per write with its date and time
// in SGT, the member, the action in words, what it concerned, the tons, the amount in S$ and a reference;
// no raw JSON, cents, epoch milliseconds or internal field names. English and Chinese. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { PATHS } from '../../src/shared/api';
import { startTestServer, type TestServer } from '../helpers/server';
import { GENEROUS, holdingTeam, TRADE_PASSWORD, write } from './org-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ ...GENEROUS, SESSION_TTL_DAYS: '365' });
});
afterAll(async () => {
  await s?.close();
});

async function csvRows(token: string, lang: 'en' | 'cn'): Promise<{ text: string; rows: string[][] }> {
  const res = await s.raw('GET', PATHS.orgActivityCsv, { headers: { Authorization: token }, query: `lang=${lang}` });
  expect(res.headers.get('content-type')).toContain('text/csv');
  const text = new TextDecoder('utf-8', { ignoreBOM: false }).decode(new Uint8Array(await res.arrayBuffer()));
  return { text, rows: parse(text, { relax_column_count: false }) as string[][] };
}

describe('the activity export', () => {
  it('has the columns finance reads, actions in words, amounts in S$, references; no raw JSON (en, cn)', async () => {
    const { org, buyer, approver, pid, bought } = await holdingTeam(s, 5_000_000, { name: 'Riau Peat Forest', name_cn: '廖内泥炭森林' });
    const asked = await write(s, PATHS.creditRetire, buyer.orgToken, { project_id: pid, tons: 150, beneficiary: 'Acme Pte Ltd', paypwd: TRADE_PASSWORD });
    expect(asked.code, asked.msg).toBe(0);
    const requestId = (asked.data as { approval: { id: number } }).approval.id;
    const approved = await write(s, PATHS.approvalApprove, approver.orgToken, { id: requestId, password: TRADE_PASSWORD });
    expect(approved.code, approved.msg).toBe(0);
    const certificate = (approved.data as { certificate_id: string }).certificate_id;
    const top = await write(s, PATHS.walletTopup, buyer.orgToken, { amount: 12_345, method: 'paynow' });
    expect(top.code, top.msg).toBe(0);
    const orderNo = (bought.data as { order_no: string }).order_no;
    const topupRef = (top.data as { reference: string }).reference;

    const en = await csvRows(org.owner.token, 'en');
    expect(en.rows[0]).toEqual(['Date and time (SGT)', 'Member', 'Action', 'Object', 'Tons', 'Amount (S$)', 'Reference']);
    const body = en.rows.slice(1);
    for (const r of body) {
      expect(r).toHaveLength(7);
      expect(r[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      expect(r[2]).not.toMatch(/^[a-z_]+\.[a-z_.]+$/); // words, not order.buy
    }
    expect(en.text).not.toMatch(/[{}]|project_name|_cn|paynow_qr|"\d{13}"/);
    const row = (action: string) => body.find((r) => r[2] === action);
    expect(row('Bought credits')).toEqual([expect.any(String), org.email, 'Bought credits', 'Riau Peat Forest', '300', '3000.00', orderNo]);
    expect(row('Asked to retire credits (sent for approval)')).toEqual([expect.any(String), buyer.email, 'Asked to retire credits (sent for approval)', 'Riau Peat Forest', '150', '', `Request #${requestId}`]);
    expect(row('Approved a request')).toEqual([expect.any(String), approver.email, 'Approved a request', `Request #${requestId}: retire credits, Riau Peat Forest`, '150', '', certificate]);
    expect(row('Requested a top-up')).toEqual([expect.any(String), buyer.email, 'Requested a top-up', 'PayNow top-up', '', '123.45', topupRef]);
    expect(row('Invited a member')?.[3]).toBe(buyer.email);

    const cn = await csvRows(org.owner.token, 'cn');
    expect(cn.rows[0]).toEqual(['日期时间（新加坡时间）', '成员', '操作', '对象', '吨数', '金额（新元）', '参考编号']);
    expect(cn.rows.find((r) => r[2] === '购买碳信用')).toEqual([expect.any(String), org.email, '购买碳信用', '廖内泥炭森林', '300', '3000.00', orderNo]);
    expect(cn.rows.find((r) => r[2] === '批准了申请')?.[3]).toBe(`申请 #${requestId}：注销碳信用，廖内泥炭森林`);
    expect(cn.text).not.toMatch(/[{}]/);
  });
});
