import type { Deps } from '../../env';
import type { Lang } from '../../../shared/errors';

// The activity log as a finance team reads it (docs/product.md#organisations): one row per write with its
// date and time in SGT, the member, the action in words, what it concerned, the tons, the amount in S$ and a
// reference (order number, top-up reference, certificate id, request number). The stored detail (the
// request and the answer as the member's write had them) is read here and never exported as it is.

type Words = { en: string; cn: string };

const HEADER: Record<Lang, string[]> = {
  en: ['Date and time (SGT)', 'Member', 'Action', 'Object', 'Tons', 'Amount (S$)', 'Reference'],
  cn: ['日期时间（新加坡时间）', '成员', '操作', '对象', '吨数', '金额（新元）', '参考编号'],
};

/** The words of each action: the same as the activity screen's (src/app/features/org/labels.ts). */
const ACTIONS: Record<string, Words> = {
  'order.buy': { en: 'Bought credits', cn: '购买碳信用' },
  'order.book': { en: 'Booked a pre-sale', cn: '预订预售' },
  'order.finalpay': { en: 'Paid a final payment', cn: '支付尾款' },
  'order.sell': { en: 'Sold credits', cn: '出售碳信用' },
  'wallet.topup': { en: 'Requested a top-up', cn: '申请充值' },
  'wallet.withdraw': { en: 'Requested a withdrawal', cn: '申请提现' },
  'credit.retire': { en: 'Retired credits', cn: '注销碳信用' },
  'user.card': { en: 'Changed the payout account', cn: '更改收款账户' },
  'user.profile': { en: 'Changed the profile', cn: '修改资料' },
  'user.avatar': { en: 'Changed the picture', cn: '更换头像' },
  'user.footprint': { en: 'Saved a footprint', cn: '保存碳足迹' },
  'user.notifications.read': { en: 'Read notices', cn: '阅读通知' },
  'org.invite': { en: 'Invited a member', cn: '邀请成员' },
  'org.join': { en: 'Joined', cn: '已加入' },
  'org.role': { en: 'Changed a role', cn: '更改角色' },
  'org.remove': { en: 'Removed a member', cn: '移除成员' },
  'approval.approve': { en: 'Approved a request', cn: '批准了申请' },
  'approval.decline': { en: 'Declined a request', cn: '拒绝了申请' },
  'approval.thresholds': { en: 'Changed the approval thresholds', cn: '更改了审批门槛' },
  'approval.expire': { en: 'A request expired', cn: '申请已过期' },
  'approval.cancel': { en: 'Cancelled a request', cn: '撤销了申请' },
  'offset.create': { en: 'Set up a monthly offset', cn: '设置了每月碳抵消' },
  'offset.change': { en: 'Changed a monthly offset', cn: '更改了每月碳抵消' },
  'offset.status': { en: 'Paused, resumed or cancelled a monthly offset', cn: '暂停、恢复或取消了每月碳抵消' },
  'offset.month': { en: 'Monthly offset bought credits', cn: '每月碳抵消购买了碳信用' },
  'icc.emissions': { en: 'Entered taxable emissions', cn: '填写了应税排放量' },
  'user.push.subscribe': { en: 'Turned on notifications', cn: '开启了通知' },
  'user.push.unsubscribe': { en: 'Turned off notifications', cn: '关闭了通知' },
  'v1.orders': { en: 'Bought credits with an API key', cn: '通过 API 密钥购买碳信用' },
  'v1.retirements': { en: 'Retired credits with an API key', cn: '通过 API 密钥注销碳信用' },
  'v1.quotes': { en: 'Asked for a quote with an API key', cn: '通过 API 密钥获取报价' },
  'v1.sandbox.topup': { en: 'Added play money with a test key', cn: '通过测试密钥添加模拟资金' },
  'developer.keys': { en: 'Made an API key', cn: '创建了 API 密钥' },
  'developer.keys.rotate': { en: 'Rotated an API key', cn: '轮换了 API 密钥' },
  'developer.keys.revoke': { en: 'Revoked an API key', cn: '撤销了 API 密钥' },
  'developer.sandbox.topup': { en: 'Added play money to the test mode', cn: '为测试模式添加了模拟资金' },
  'developer.webhooks': { en: 'Added a webhook endpoint', cn: '添加了 Webhook 端点' },
  'developer.webhooks.rotate': { en: 'Rotated a webhook secret', cn: '轮换了 Webhook 密钥' },
  'developer.webhooks.delete': { en: 'Deleted a webhook endpoint', cn: '删除了 Webhook 端点' },
  'developer.webhooks.ping': { en: 'Sent a webhook test', cn: '发送了 Webhook 测试' },
  'developer.webhooks.resend': { en: 'Resent a webhook delivery', cn: '重新发送了 Webhook 投递' },
};

/** A test key's order or retirement: play money and play credits, which finance must not count. */
const TESTED: Record<string, Words> = {
  'v1.orders': { en: 'Test order with a test key (play money)', cn: '测试密钥的测试订单（模拟资金）' },
  'v1.retirements': { en: 'Test retirement with a test key (not real)', cn: '测试密钥的测试注销（非真实）' },
};

/** A retirement or withdrawal that only asked an approver. */
const ASKED: Record<string, Words> = {
  'credit.retire': { en: 'Asked to retire credits (sent for approval)', cn: '申请注销碳信用（已提交审批）' },
  'wallet.withdraw': { en: 'Asked to withdraw (sent for approval)', cn: '申请提现（已提交审批）' },
};

const TEXT = {
  request: { en: (id: number) => `Request #${id}`, cn: (id: number) => `申请 #${id}` },
  retireRequest: { en: 'retire credits', cn: '注销碳信用' },
  withdrawRequest: { en: 'withdrawal', cn: '提现' },
  withdrawal: { en: 'Withdrawal to the payout account', cn: '提现至收款账户' },
  withdrawalRef: { en: (id: number) => `Withdrawal #${id}`, cn: (id: number) => `提现 #${id}` },
  topup: { paynow: { en: 'PayNow top-up', cn: 'PayNow 充值' }, bank: { en: 'Bank transfer top-up', cn: '银行转账充值' } },
  emissions: { en: (year: number) => `Taxable emissions ${year}`, cn: (year: number) => `${year} 年应税排放量` },
};

type Fields = Record<string, unknown>;
interface Detail {
  request: Fields;
  result: Fields;
}

function detailOf(json: string): Detail {
  try {
    const d = JSON.parse(json) as { request?: unknown; result?: unknown };
    const obj = (x: unknown): Fields => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Fields) : {});
    return { request: obj(d.request), result: obj(d.result) };
  } catch {
    return { request: {}, result: {} };
  }
}

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const str = (x: unknown): string => (typeof x === 'string' ? x : '');

/** Cents as a spreadsheet reads S$: "1234.56", no grouping, no currency sign. */
function dollars(cents: number | null): string {
  if (cents === null) return '';
  const sign = cents < 0 ? '-' : '';
  const a = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}

/** "2026-12-06 14:30" in Singapore time. */
function sgtMinute(ms: number): string {
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
}

export interface ActivityRowIn {
  email: string;
  action: string;
  detail: string;
  created_at: number;
}

/** What the rows refer to by id, read once for the whole export: projects, approval requests, members. */
interface Lookups {
  projects: Map<number, Words>;
  requests: Map<number, { kind: 'retire' | 'withdraw'; project_id: number | null; tons: number; amount: number }>;
  users: Map<number, string>;
  /** The account's API keys by id, as "name prefix" (a revocation's request names only the id). */
  keys: Map<number, string>;
}

async function lookups(deps: Deps, accountId: number, details: Detail[]): Promise<Lookups> {
  const requestIds = new Set<number>();
  const userIds = new Set<number>();
  for (const d of details) {
    const approvalId = num(d.result.approval_id);
    if (approvalId !== null) requestIds.add(approvalId);
    const userId = num(d.request.user_id);
    if (userId !== null) userIds.add(userId);
  }
  const approvalRows = await deps.db.selectFrom('approval_requests').select(['id', 'kind', 'project_id', 'tons', 'amount']).where('account_id', '=', accountId).execute();
  const requests = new Map(approvalRows.map((r) => [Number(r.id), { kind: r.kind, project_id: r.project_id === null ? null : Number(r.project_id), tons: Number(r.tons), amount: Number(r.amount) }]));
  const projectIds = new Set<number>();
  for (const d of details) {
    const pid = num(d.request.project_id) ?? num(d.result.project_id);
    if (pid !== null) projectIds.add(pid);
  }
  for (const r of requests.values()) if (r.project_id !== null) projectIds.add(r.project_id);
  const [projectRows, userRows, keyRows] = await Promise.all([
    projectIds.size ? deps.db.selectFrom('projects').select(['id', 'name', 'name_cn']).where('id', 'in', [...projectIds]).execute() : [],
    userIds.size ? deps.db.selectFrom('users').select(['id', 'email']).where('id', 'in', [...userIds]).execute() : [],
    deps.db.selectFrom('api_keys').select(['id', 'name', 'prefix']).where('account_id', '=', accountId).execute(),
  ]);
  return {
    projects: new Map(projectRows.map((p) => [Number(p.id), { en: p.name, cn: p.name_cn || p.name }])),
    requests,
    users: new Map(userRows.map((u) => [Number(u.id), u.email])),
    keys: new Map(keyRows.map((k) => [Number(k.id), `${k.name} ${k.prefix}`])),
  };
}

/** The seven columns of one activity row. */
function columns(row: ActivityRowIn, d: Detail, look: Lookups, lang: Lang): string[] {
  const { request: q, result: r } = d;
  const askedId = num(r.approval_id);
  const test = str(r.mode) === 'test';
  const words = (askedId !== null ? ASKED[row.action] : undefined) ?? (test ? TESTED[row.action] : undefined) ?? ACTIONS[row.action];
  const action = words ? words[lang] : row.action;
  const projectOf = (id: number | null) => (id === null ? '' : (look.projects.get(id)?.[lang] ?? ''));
  let object = '';
  let tons: number | null = num(q.tons) ?? num(r.tons);
  let cents: number | null = null;
  let reference = '';
  switch (row.action.split('.')[0]) {
    case 'order':
      object = projectOf(num(q.project_id) ?? num(r.project_id));
      cents = num(r.total);
      reference = str(r.order_no);
      break;
    case 'credit':
      object = projectOf(num(q.project_id));
      reference = askedId !== null ? TEXT.request[lang](askedId) : str(r.id);
      break;
    case 'wallet':
      cents = num(q.amount) ?? num(r.amount);
      if (row.action === 'wallet.topup') {
        object = TEXT.topup[str(q.method) === 'bank' ? 'bank' : 'paynow'][lang];
        reference = str(r.reference);
      } else {
        object = TEXT.withdrawal[lang];
        const id = num(r.id);
        reference = askedId !== null ? TEXT.request[lang](askedId) : id !== null ? TEXT.withdrawalRef[lang](id) : '';
      }
      break;
    case 'approval': {
      const id = num(q.id) ?? num(r.id);
      const req = id === null ? undefined : look.requests.get(id);
      if (id !== null && req) {
        const what = req.kind === 'retire' ? `${TEXT.retireRequest[lang]}${lang === 'cn' ? '，' : ', '}${projectOf(req.project_id)}` : TEXT.withdrawRequest[lang];
        object = `${TEXT.request[lang](id)}${lang === 'cn' ? '：' : ': '}${what}`;
        tons = req.kind === 'retire' ? req.tons : null;
        cents = req.kind === 'withdraw' ? req.amount : null;
      }
      const withdrawal = num(r.withdrawal_id);
      reference = str(r.certificate_id) || (withdrawal !== null ? TEXT.withdrawalRef[lang](withdrawal) : '');
      if (row.action === 'approval.thresholds') tons = null;
      break;
    }
    case 'org':
      object = str(q.email) || (num(q.user_id) !== null ? (look.users.get(num(q.user_id)!) ?? '') : '');
      tons = null;
      break;
    case 'offset':
      object = projectOf(num(q.project_id) ?? num(r.project_id));
      cents = num(r.total);
      reference = str(r.order_no);
      break;
    case 'icc': {
      const year = num(q.year);
      object = year !== null ? TEXT.emissions[lang](year) : '';
      tons = null;
      break;
    }
    case 'v1':
      // A key's order or retirement is a purchase or retirement like the app's: its project, tons, S$ and id.
      // A test key's moves play money only: no tons or S$ a spreadsheet could add to the real ones.
      object = projectOf(num(q.project_id) ?? num(r.project_id));
      cents = test || row.action !== 'v1.orders' ? null : num(r.total);
      if (test || (row.action !== 'v1.orders' && row.action !== 'v1.retirements')) tons = null;
      reference = str(r.id);
      break;
    case 'developer':
      // What was made or changed: a key by its name and prefix, an endpoint by its address.
      object =
        str(q.url) ||
        [str(q.name), str(q.prefix)].filter(Boolean).join(' ') ||
        str(r.url) ||
        (row.action.startsWith('developer.keys') && num(q.id) !== null ? (look.keys.get(num(q.id)!) ?? '') : '');
      tons = null;
      break;
    default:
      tons = null;
  }
  // A key's write names the key (its name and prefix) after the member who made it.
  const by = str(q.api_key) ? `${row.email} (${lang === 'cn' ? 'API 密钥' : 'API key'} ${str(q.api_key)})` : row.email;
  return [sgtMinute(row.created_at), by, action, object, tons === null ? '' : String(tons), dollars(cents), reference];
}

/** The export's header and rows, oldest first, in the reader's language. */
export async function activityTable(deps: Deps, accountId: number, rows: ActivityRowIn[], lang: Lang): Promise<string[][]> {
  const details = rows.map((r) => detailOf(r.detail));
  const look = await lookups(deps, accountId, details);
  return [HEADER[lang], ...rows.map((row, i) => columns(row, details[i]!, look, lang))];
}
